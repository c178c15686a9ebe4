"""The one-statement move on PostgreSQL (services.moves: on a database thread and on the event
loop): it must give exactly what the
locked transaction gives, also when another server process moved the table behind this
process's cache. "Another process" is played here by putting back a copy of the cached table
taken before a move, so the cache is behind the database as a second process's would be."""

import asyncio
import copy

import pytest

from gameplay import services
from tuning import live_db
from gameplay.services import Act, moves
from gameplay.models import Match, MatchAction
from gameplay.signals import match_finished
from gameplay.table import Table

from .helpers import make_match

pytestmark = pytest.mark.django_db(transaction=True)


def to_act_and_legal(match, users):
    state = services.current_state(match.pk, users[0])
    seat = state["to_act"]
    return users[seat], services.current_state(match.pk, users[seat])["legal"]


def play(match, users, ref):
    match.refresh_from_db()
    user, legal = to_act_and_legal(match, users)
    return services.take(match.pk, Act.by_player(user, match.seq, ref, legal[0]))


def assert_row_is_the_replay_of_its_log(match):
    match.refresh_from_db()
    actions = list(MatchAction.objects.filter(match=match).order_by("seq").values_list("seq", "action"))
    assert [seq for seq, _ in actions] == list(range(len(actions)))
    table = Table.replay(services.spec_of(match), [action for _, action in actions])
    assert (match.seq, match.game_number, match.games_won) == (table.seq, table.game_number, list(table.games_won))
    assert (match.status == "finished") == table.is_over


def behind_the_database(match, users):
    """Make a move, then put back this process's table as it was before it: stale cache."""
    before = copy.copy(services.cached_table(match.pk))
    before.table = copy.deepcopy(before.table)
    before.refs = dict(before.refs)
    before.match = copy.copy(before.match)
    outcome = play(match, users, "elsewhere")
    services.put_table(before)
    return outcome


def test_moves_on_the_loop_and_through_the_locked_transaction_write_the_same_log():
    match, users = make_match(options={"target_score": 7})
    on_loop = []
    for number in range(30):  # every other move on the loop, the others through `take`
        on_loop.append(play_on_loop(match, users, f"r{number}") if number % 2 else play(match, users, f"r{number}"))
    assert all(outcome is not None for outcome in on_loop)  # the loop wrote its plain moves itself
    assert_row_is_the_replay_of_its_log(match)
    assert Match.objects.get(pk=match.pk).seq >= 30
    refs = set(MatchAction.objects.filter(match=match).values_list("ref", flat=True))
    assert {f"r{number}" for number in range(30)} <= refs


def test_an_act_on_a_table_another_process_moved_is_judged_by_the_database():
    match, users = make_match()
    outcome = behind_the_database(match, users)
    user, _ = to_act_and_legal(match, users)
    # A client as far behind as the cache: the database says stale, and nothing was written.
    with pytest.raises(services.ActionRejected) as error:
        services.take(match.pk, Act.by_player(user, outcome.seq - 1, "late", {"type": "play", "card": "AS"}))
    assert error.value.code == "stale"
    assert not MatchAction.objects.filter(match=match, ref="late").exists()
    # A client that saw the move acts at the new seq: the cache is rebuilt and the act applied.
    user, legal = to_act_and_legal(match, users)
    accepted = services.take(match.pk, Act.by_player(user, outcome.seq, "fresh", legal[0]))
    assert accepted.seq == outcome.seq + 1
    assert_row_is_the_replay_of_its_log(match)


def test_a_ref_applied_by_another_process_is_acknowledged_again_and_applied_once():
    match, users = make_match()
    outcome = behind_the_database(match, users)
    again = services.take(match.pk, Act.by_player(users[0], outcome.seq - 1, "elsewhere", {"type": "whatever"}))
    assert again.duplicate and again.seq == outcome.seq
    assert MatchAction.objects.filter(match=match, ref="elsewhere").count() == 1
    assert_row_is_the_replay_of_its_log(match)


@pytest.mark.parametrize("on_loop", [False, True], ids=["database thread", "event loop"])
def test_the_move_that_ends_a_match_records_the_result_and_tells_the_competitions_once(on_loop, monkeypatch):
    finished, replays = [], []

    def receiver(sender, match_id, **kwargs):
        finished.append(match_id)

    build = moves.LiveTable.__init__
    match_finished.connect(receiver)
    try:
        match, users = make_match(options={"target_score": 1})
        services.current_state(match.pk, users[0])  # the table is cached from here on
        monkeypatch.setattr(moves.LiveTable, "__init__", lambda *args: replays.append(1) or build(*args))
        number = 0
        while Match.objects.get(pk=match.pk).status == "playing":
            (act_on_loop if on_loop else play)(match, users, f"r{number}")
            number += 1
    finally:
        match_finished.disconnect(receiver)
    assert finished == [match.pk]
    # The locked transaction writes the last move from the cached table; the loop hands it over,
    # and its table (a move ahead of the log) is read again once, from the log.
    assert len(replays) == (1 if on_loop else 0)
    assert services.cached_table(match.pk) is None  # only tables in play are kept
    match.refresh_from_db()
    assert match.winner in (0, 1) and match.result and match.finished_at and match.deadline is None
    assert_row_is_the_replay_of_its_log(match)


def test_the_loop_hands_the_move_that_ends_a_match_to_the_locked_transaction():
    match, users = make_match(options={"target_score": 1})
    number = 0
    while True:  # on the loop up to the move that ends the match, which it does not write
        match.refresh_from_db()
        user, legal = to_act_and_legal(match, users)
        seq, action = match.seq, legal[0]
        if asyncio.run(moves._move_on_loop(match.pk, Act.by_player(user, seq, f"r{number}", action))) is None:
            break
        number += 1
    assert not MatchAction.objects.filter(match=match, ref=f"r{number}").exists()
    assert services.cached_table(match.pk) is None  # a move ahead of the log: read again
    last = services.take(match.pk, Act.by_player(user, seq, f"r{number}", action))
    assert last.seq == seq + 1 and Match.objects.get(pk=match.pk).status == "finished"
    assert_row_is_the_replay_of_its_log(match)


def test_a_clocked_move_sets_the_next_deadline():
    match, users = make_match(time_control=30)
    match.refresh_from_db()
    first_deadline = match.deadline
    play(match, users, "one")
    match.refresh_from_db()
    assert match.deadline is not None and match.deadline >= first_deadline
    state = services.current_state(match.pk, users[0])
    assert state["deadline"] == match.deadline.isoformat().replace("+00:00", "Z")


# ----- the same move written by the event loop itself (services.moves._move_on_loop) -----------------

def play_on_loop(match, users, ref):
    match.refresh_from_db()
    user, legal = to_act_and_legal(match, users)
    return asyncio.run(moves._move_on_loop(match.pk, Act.by_player(user, match.seq, ref, legal[0])))


def act_on_loop(match, users, ref):
    """The socket's whole write (services.moves.act): on the loop, or handed to `take`."""
    match.refresh_from_db()
    user, legal = to_act_and_legal(match, users)
    the_act = Act.by_player(user, match.seq, ref, legal[0])
    return asyncio.run(moves._move_on_loop(match.pk, the_act)) or services.take(match.pk, the_act)


def test_the_event_loop_writes_a_plain_move_with_the_same_rows():
    match, users = make_match(options={"target_score": 7})
    for number in range(20):
        outcome = play_on_loop(match, users, f"loop{number}")
        assert outcome is not None and outcome.seq == number + 1 and not outcome.duplicate
        assert set(outcome.messages) == {0, 1, 2, 3, "spectator"}
    assert_row_is_the_replay_of_its_log(match)
    assert MatchAction.objects.filter(match=match, ref__startswith="loop").count() == 20


class HeldByAThread:
    """A match lock that another thread holds: taking it without waiting fails, and waiting
    for it is what the event loop must never do."""

    def try_acquire(self):
        return False

    def __enter__(self):
        raise AssertionError("the event loop waited for a database thread")


def test_the_event_loop_never_waits_for_a_table_a_database_thread_holds():
    match, users = make_match()
    user, legal = to_act_and_legal(match, users)
    services.cached_table(match.pk).lock = HeldByAThread()
    assert asyncio.run(moves._move_on_loop(match.pk, Act.by_player(user, 0, "busy", legal[0]))) is None
    assert not MatchAction.objects.filter(match=match).exists()


def test_the_event_loop_leaves_a_table_another_process_moved_to_the_database():
    match, users = make_match()
    outcome = behind_the_database(match, users)
    stale = services.cached_table(match.pk).table  # what this process believes: one move behind
    seat = stale.to_act
    assert stale.seq == outcome.seq - 1
    # A client as far behind as the cache: its act is legal there, but the row has moved on.
    assert asyncio.run(moves._move_on_loop(match.pk, Act.by_player(users[seat], stale.seq, "late",
                                             stale.legal_for(seat)[0]))) is None
    assert not MatchAction.objects.filter(match=match, ref="late").exists()
    assert services.cached_table(match.pk) is None  # forgotten: the next act reloads the log
    assert_row_is_the_replay_of_its_log(match)


def test_a_loop_connection_that_fails_hands_the_act_to_a_database_thread(monkeypatch):
    import psycopg

    async def lost_server(sql, params):
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(live_db, "fetch_all", lost_server)  # what the loop's batch of moves calls
    match, users = make_match()
    user, legal = to_act_and_legal(match, users)
    assert asyncio.run(moves._move_on_loop(match.pk, Act.by_player(user, 0, "first", legal[0]))) is None
    assert services.cached_table(match.pk) is None  # the applied-in-memory table was dropped
    accepted = services.take(match.pk, Act.by_player(user, 0, "first", legal[0]))
    assert accepted.seq == 1
    assert_row_is_the_replay_of_its_log(match)


# ----- the loop's moves of several tables in one statement (live_db.in_batch) --------------------

def moves_of_one_loop_turn(tables, refs):
    """Every table's next move, handed to the loop together (as its sockets' acts arrive in one
    turn), each as `_move_on_loop` is called: the outcomes, in the tables' order."""
    acts = []
    for match, users in tables:
        match.refresh_from_db()
        user, legal = to_act_and_legal(match, users)
        acts.append((match.pk, user, match.seq, legal[0]))

    async def together():
        return await asyncio.gather(*(moves._move_on_loop(pk, Act.by_player(user, seq, ref, action))
                                      for (pk, user, seq, action), ref in zip(acts, refs)))
    return asyncio.run(together())


def counting_statements(monkeypatch):
    """The match ids of each statement the loop sends (MOVES_SQL's match_id column), in order."""
    sent = []
    fetch_all = live_db.fetch_all

    async def counted(sql, params):
        sent.append(list(params[3]))
        return await fetch_all(sql, params)
    monkeypatch.setattr(live_db, "fetch_all", counted)
    return sent


def test_the_moves_of_several_tables_in_one_loop_turn_are_one_statement(monkeypatch):
    tables = [make_match() for _ in range(3)]
    sent = counting_statements(monkeypatch)
    for turn in range(4):
        outcomes = moves_of_one_loop_turn(tables, [f"t{turn}"] * 3)
        assert [outcome.seq for outcome in outcomes] == [turn + 1] * 3
    assert [len(matches) for matches in sent] == [3, 3, 3, 3]  # one round trip a turn for all three
    for match, _ in tables:
        assert_row_is_the_replay_of_its_log(match)
        assert list(MatchAction.objects.filter(match=match).order_by("seq").values_list("ref", flat=True)) == \
            ["t0", "t1", "t2", "t3"]


def test_a_statement_takes_its_tables_in_the_order_of_their_matches(monkeypatch):
    # Two processes' statements then lock the match rows they share in the same order.
    tables = [make_match() for _ in range(3)]
    sent = counting_statements(monkeypatch)
    moves_of_one_loop_turn(list(reversed(tables)), ["first"] * 3)
    assert sent == [sorted(match.pk for match, _ in tables)]


def test_a_table_another_process_moved_leaves_the_other_moves_of_its_statement_written(monkeypatch):
    moved, other = make_match(), make_match()
    behind_the_database(*moved)
    sent = counting_statements(monkeypatch)
    stale_seq = services.cached_table(moved[0].pk).table.seq
    live = services.cached_table(moved[0].pk)
    seat = live.table.to_act
    other_match, other_users = other
    user, legal = to_act_and_legal(other_match, other_users)

    async def together():
        return await asyncio.gather(
            moves._move_on_loop(moved[0].pk, Act.by_player(moved[1][seat], stale_seq, "late", live.table.legal_for(seat)[0])),
            moves._move_on_loop(other_match.pk, Act.by_player(user, 0, "fine", legal[0])))
    late, fine = asyncio.run(together())
    assert [len(matches) for matches in sent] == [2]
    assert late is None and services.cached_table(moved[0].pk) is None  # judged afresh from the log
    assert not MatchAction.objects.filter(match=moved[0], ref="late").exists()
    assert fine.seq == 1 and MatchAction.objects.filter(match=other[0], ref="fine").exists()
    assert_row_is_the_replay_of_its_log(moved[0])
    assert_row_is_the_replay_of_its_log(other[0])


def test_a_statement_that_fails_hands_every_move_of_it_to_the_locked_path(monkeypatch):
    import psycopg

    async def lost_server(sql, params):
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(live_db, "fetch_all", lost_server)
    tables = [make_match() for _ in range(3)]
    assert moves_of_one_loop_turn(tables, ["lost"] * 3) == [None, None, None]
    monkeypatch.undo()
    for match, users in tables:
        assert services.cached_table(match.pk) is None
        assert not MatchAction.objects.filter(match=match).exists()  # nothing half-written
        assert play(match, users, "lost").seq == 1  # the client's resend is applied once
        assert_row_is_the_replay_of_its_log(match)
