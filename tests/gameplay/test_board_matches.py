"""A duplicate's table: a match played from boards (gameplay/table.py, docs/duplicate.md).

Each board is one deal from its given cards with a fresh start score; the game's target plays no
part; a spare deal is handed to the engine only when the rules redo the deal; the match ends
after the last board and its result holds each board's points per side, which a replay from
spec + log gives again (the archive too)."""

import pytest

from gameplay import api, archive, services
from gameplay.log import spec_of
from gameplay.models import Match, MatchAction
from gameplay.rules import ScenarioError, get_game
from gameplay.table import MatchSpec, Table
from tournaments.duplicate import make_board_set
from tournaments.duplicate.scoring import board_points as scoring_board_points

from .helpers import make_user


def boards_of(game: str, count: int, seed: int = 11, options=None) -> list[dict]:
    return [board.to_json() for board in make_board_set(get_game(game), seed, count, options).boards]


def play_out(table: Table, choose=None, limit: int = 5000) -> Table:
    for _ in range(limit):
        if table.is_over:
            return table
        seat = table.to_act
        legal = table.legal_for(seat)
        table.apply((choose or (lambda _table, options: options[0]))(table, legal))
    raise AssertionError("the match did not end")


def hands_of(state) -> list[list[str]]:
    return [state.game.deck.codes_of_mask(hand) for hand in state.hands]


@pytest.mark.parametrize("game", ["allfours", "baloot", "cuatrola"])
def test_each_board_is_one_deal_from_its_cards_and_the_match_ends_after_the_last(game):
    boards = boards_of(game, 3)
    table = Table(MatchSpec(game=game, boards=tuple(boards)))
    seen = []
    for _ in range(5000):
        if table.is_over:
            break
        if table.game_number == len(seen):  # a new board has just started: its own cards, score 0-0
            state = table.state
            assert state.dealer == boards[table.game_number]["dealer"]
            assert state.start_score == [0, 0] and not state.deal_records  # a kick may score at once
            seen.append(state)
        table.apply(table.legal_for(table.to_act)[0])
    assert table.is_over and table.finish == "played"
    assert len(table.board_results) == 3 == len(table.all_games())
    result = table.result()
    assert [b["board"] for b in result["boards"]] == [1, 2, 3]
    for board, state in zip(result["boards"], table.all_games()):
        # the same reading as the scoring package's, from the engine's own deal records
        assert tuple(board["points"]) == scoring_board_points(state.deal_records, exhausted=True)
        assert not state.is_over or state.winner is not None  # a board does not need to end a game
    won = [sum(1 for b in result["boards"] if b["points"][t] > b["points"][1 - t]) for t in (0, 1)]
    assert result["games_won"] == won


def test_a_board_starts_from_its_exact_hands():
    boards = boards_of("cuatrola", 2)
    table = Table(MatchSpec(game="cuatrola", boards=tuple(boards)))
    assert [set(h) for h in hands_of(table.state)] == [set(h) for h in boards[0]["deals"][0]["hands"]]
    assert table.view(0)["match"]["boards"] == 2 and table.view(0)["match"]["board"] == 1


def test_the_target_plays_no_part_the_boards_decide_when_the_match_ends():
    """A target out of reach of two deals, the default, and a target of 1 (a kick would reach it):
    every table plays exactly two boards, each a whole deal of six tricks."""
    from gameplay.table import is_redeal

    for options in ({"target_score": 21}, {}, {"target_score": 1}):
        table = play_out(Table(MatchSpec(game="allfours", options=options, boards=tuple(boards_of("allfours", 2)))))
        assert len(table.result()["boards"]) == 2
        for state in table.all_games():
            scored = next(r for r in state.deal_records if not is_redeal(r))
            assert scored["detail"]["tricks"] == 6, options


def test_a_board_not_redone_never_hands_a_spare_deal_to_the_engine():
    """A spare deal is shared by every table: one not needed here is never dealt here."""
    table = Table(MatchSpec(game="cuatrola", boards=tuple(boards_of("cuatrola", 1))))
    play_out(table)
    allfours = Table(MatchSpec(game="allfours", boards=tuple(boards_of("allfours", 2, seed=5))))
    play_out(allfours)
    for state, board in zip(allfours.all_games(), allfours.result()["boards"]):
        assert len(state.given_deals) == board["deals"] == 1
        # after the scoring deal the engine waits: no card of a spare in any hand
        assert state.to_act is None and not any(state.hands)


def test_a_deal_everyone_passes_takes_the_boards_next_spare_and_the_board_goes_on():
    boards = boards_of("baloot", 2, seed=3)
    table = Table(MatchSpec(game="baloot", boards=tuple(boards)))
    spare = boards[0]["deals"][1]

    def passing_first(table, legal):
        passes = [a for a in legal if a["type"] == "pass"]
        if table.game_number == 0 and table.state.deal_number == 1 and passes:
            return passes[0]
        return next((a for a in legal if a["type"] != "pass"), legal[0])

    play_out(table, passing_first)
    first = table.all_games()[0]
    assert first.deal_records[0]["detail"].get("result") == "annulled"
    assert first.export_deals()[1] == spare  # the redeal is the board's first spare, the same at every table
    assert table.result()["boards"][0]["deals"] == 2 == len(first.given_deals)
    # A replay from spec + log is the same table, and the archive steps through the same deals.
    again = Table.replay(table.spec, [a for g in table.all_games() for a in g.actions])
    assert again.result() == table.result()
    frames = archive.timeline(table.spec, table.all_games())
    assert len(frames) == 2
    assert [set(h) for h in frames[0][0]["hands"]] == [set(h) for h in boards[0]["deals"][0]["hands"]]


def test_a_board_match_replays_from_its_log():
    spec = MatchSpec(game="allfours", boards=tuple(boards_of("allfours", 3)))
    table = play_out(Table(spec))
    actions = [a for g in table.all_games() for a in g.actions]
    assert Table.replay(spec, actions).result() == table.result()


@pytest.mark.django_db(transaction=True)
def test_a_board_table_of_bots_is_stored_with_each_boards_points_and_replays():
    boards = boards_of("allfours", 2)
    match = services.create_match("allfours", {}, [services.SeatSpec(bot="random")] * 4, boards=boards)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.boards == boards
    assert [b["board"] for b in match.result["boards"]] == [1, 2]
    stored = api.board_results_of([match.pk])[match.pk]
    assert [(r.board, list(r.points)) for r in stored] == [(b["board"], b["points"]) for b in match.result["boards"]]
    actions = MatchAction.objects.filter(match=match).order_by("seq").values_list("action", flat=True)
    assert Table.replay(spec_of(match), actions).result() == match.result
    assert MatchAction.objects.filter(match=match, game_number=1).exists()


@pytest.mark.django_db(transaction=True)
def test_a_table_in_play_reports_the_boards_it_has_finished():
    boards = boards_of("cuatrola", 2)
    users = [make_user() for _ in range(4)]
    match = services.create_match("cuatrola", {}, [services.SeatSpec(user=u) for u in users], boards=boards)
    assert api.board_results_of([match.pk]) == {match.pk: []}
    for _ in range(500):
        match.refresh_from_db()
        if match.game_number == 1:
            break
        state = services.current_state(match.pk, users[0])
        seat = state["to_act"]
        legal = services.current_state(match.pk, users[seat])["legal"][0]
        services.take(match.pk, services.Act.by_player(users[seat], match.seq, f"r{match.seq}", legal))
    assert match.status == Match.Status.PLAYING
    (first,) = api.board_results_of([match.pk])[match.pk]
    assert first.board == 1 and sum(first.points) > 0


@pytest.mark.django_db(transaction=True)
def test_a_malformed_board_is_refused_and_no_table_is_made():
    boards = boards_of("allfours", 2)
    boards[1]["deals"][0]["hands"][0][0] = boards[1]["deals"][0]["hands"][1][0]  # a card twice
    with pytest.raises(ScenarioError) as refused:
        services.create_match("allfours", {}, [], boards=boards)
    assert refused.value.reason.startswith("board 2:")
    assert not Match.objects.exists()


@pytest.mark.parametrize("game", ["allfours", "cuatrola"])
def test_a_boards_result_says_who_won_what_adding_up_to_its_points(game):
    table = play_out(Table(MatchSpec(game=game, boards=tuple(boards_of(game, 4)))))
    for board in table.result()["boards"]:
        assert board["won"], board
        for team in (0, 1):
            assert sum(points for _item, side, points in board["won"] if side == team) == board["points"][team]
        assert board["contract"] is None if game == "allfours" else isinstance(board["contract"], str)
