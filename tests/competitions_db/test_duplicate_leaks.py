"""The leak checker's rule across the tables of a duplicate round (issue 34): no hidden card before
it is public. Two tables of humans play the same boards in round 1; while one table is ahead,
nothing a player of the other table (or a spectator) receives - their table's state frame (what
their socket is sent on connect and sync), their home, the board pages (traveller and hand record),
the overview, the scorecards, the round page, the other table's replay, timeline and export -
shows a card of a board they have not finished, beyond what their own table shows them."""

import pytest
from django.urls import reverse

from gameplay import api as gameplay
from gameplay import services
from gameplay.models import Match
from tests.competitions_db.helpers import first_round_checked_in, human_pairs, make_competition, make_user
from tests.leak_check import cards_on_page, codes_in, hidden_from, split_events

pytestmark = pytest.mark.django_db
BOARDS = 2


def step(match_id: int, users) -> bool:
    """One action at the table by the player to act (their first legal one); False once it is over."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.PLAYING:
        return False
    seat = services.current_state(match.pk, users[0])["to_act"]
    player = next(u for u in users if match.seats.get(user=u).seat == seat)
    legal = services.current_state(match.pk, player)["legal"][0]
    services.take(match.pk, services.Act.by_player(player, match.seq, f"t{match.seq}", legal))
    return True


def finished_boards(match_id: int) -> set[int]:
    return {b.board for b in gameplay.board_results_of([match_id])[match_id]}


def hidden_at(match_id: int, seat) -> set[str]:
    """The cards hidden from this reader at their own table now (a spectator: from everyone)."""
    live = services.live_table(Match.objects.get(pk=match_id))
    return hidden_from(live.table.state, seat)


def pages(client, competition, other_match: int, pair_ids) -> dict:
    """Every page a player could ask for, by what it concerns: a board number, "other" (the other
    table: all its boards) or None (the whole event: it may show only what is public)."""
    urls = {reverse("tournaments:board", args=[competition.pk, n]): n for n in range(1, BOARDS + 1)}
    urls.update({reverse(name, args=[other_match]): "other"
                 for name in ("gameplay:replay", "gameplay:replay_timeline", "gameplay:export", "gameplay:table")})
    urls.update({reverse("tournaments:duplicate", args=[competition.pk]): None,
                 reverse("tournaments:round", args=[competition.pk, 1]): None, "/": None})
    urls.update({reverse("tournaments:pair", args=[competition.pk, pair]): None for pair in pair_ids})
    return {url: (concern, client.get(url)) for url, concern in urls.items()}


def assert_nothing_leaks(client, competition, reader, own_match, other_match, pair_ids, spectated=()):
    """`reader` sits at `own_match` (or is a spectator of the `spectated` tables, own_match None):
    the rule, checked."""
    seat = None
    if own_match is not None:
        seat = Match.objects.get(pk=own_match).seats.get(user=reader).seat
        done = finished_boards(own_match)
        hidden = hidden_at(own_match, seat)
        frame = services.current_state(own_match, reader)
        _closed, current_deal = split_events(frame["history"])
        shown = codes_in({k: v for k, v in frame.items() if k not in ("history", "events")}) | codes_in(current_deal)
        assert not shown & hidden, f"{reader}'s state frame shows {shown & hidden}"
    else:  # a spectator: a board is public once every table of the round has finished it
        done = set.intersection(*(finished_boards(m) for m in spectated))
        hidden = hidden_at(other_match, None)
    client.force_login(reader)
    for url, (concern, response) in pages(client, competition, other_match, pair_ids).items():
        cards = cards_on_page(response.content.decode()) if response.status_code == 200 else set()
        if concern is None:
            assert not cards & hidden, f"{url} shows {reader} {cards & hidden}"
        elif concern == "other" and not set(range(1, BOARDS + 1)) <= done:
            assert response.status_code in (302, 403, 404) and not cards, f"{url} open to {reader} ({response.status_code})"
        elif isinstance(concern, int) and concern not in done:
            assert response.status_code == 403 and not cards_on_page(response.content.decode()), \
                f"board {concern} shown to {reader} before their table finished it"


def test_no_page_or_frame_shows_a_card_of_a_board_the_reader_has_not_finished():
    from django.test import Client

    client = Client()
    competition = make_competition(format="duplicate", game="cuatrola", preset="standard", boards_per_round=BOARDS,
                                   boards_seed=5150, seeding="hand")
    pairs = human_pairs(competition, 4)
    competition, tables, by_entry = first_round_checked_in(competition, pairs)
    ahead, behind = tables
    assert ahead.label == behind.label  # the same boards at both tables of the round
    front = by_entry[ahead.home_id] + by_entry[ahead.away_id]
    back = by_entry[behind.home_id] + by_entry[behind.away_id]
    spectator = make_user("spectator")
    pair_ids = [entry.pk for entry, _users in pairs]

    def check_back_and_spectator():
        for reader in back:
            assert_nothing_leaks(client, competition, reader, behind.match_id, ahead.match_id, pair_ids)
        assert_nothing_leaks(client, competition, spectator, None, ahead.match_id, pair_ids,
                             spectated=(ahead.match_id, behind.match_id))

    # The table ahead plays both boards while the other waits on its first: checked as it goes.
    actions = 0
    while step(ahead.match_id, front):
        actions += 1
        if actions % 12 == 0:
            check_back_and_spectator()
    assert finished_boards(ahead.match_id) == {1, 2}
    check_back_and_spectator()

    # The table behind finishes board 1 and starts board 2: board 1 opens to its players, board 2
    # and the other table's replay stay closed.
    while finished_boards(behind.match_id) != {1}:
        assert step(behind.match_id, back)
    for _ in range(6):
        step(behind.match_id, back)
    check_back_and_spectator()
    client.force_login(back[0])
    assert client.get(reverse("tournaments:board", args=[competition.pk, 1])).status_code == 200
    assert client.get(reverse("tournaments:board", args=[competition.pk, 2])).status_code == 403

    while step(behind.match_id, back):
        pass
    assert finished_boards(behind.match_id) == {1, 2}
    check_back_and_spectator()
