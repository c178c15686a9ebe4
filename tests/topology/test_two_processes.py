"""Two processes, one Chalk (docs/deploying.md, "Scaling out"): two uvicorn processes, two Celery
workers (concurrency 1, tasks not eager) and a beat, sharing the test database and one Redis.

- the four players of a table sit on the two processes (2 and 2) and play a match to the end, and a
  spectator on each process sees every state, in the same order, without a gap or a double;
- `kill -9` of one process mid-play: its players reconnect to the other and finish; the action
  log replays to the match's result and every acked ref is in it exactly once;
- a second beat started by mistake opens no round twice: competitions are stepped under their
  row lock (tournaments/services/manager.py), so two ticks at once do the work once.
"""

import asyncio
import json
import random
import re
import time
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay.log import log_of, spec_of
from gameplay.models import Match
from gameplay.table import Table
from tests.competitions_db.helpers import human_pairs, make_competition
from tests.conftest import _test_database_url
from tests.gameplay.test_live_leaks import make_tables
from tournaments.models import AuditEntry, Competition, Notification, Pairing, Round

from .clients import Record, play_seat, watch
from .stack import start_stack

pytestmark = [pytest.mark.slow, pytest.mark.integration]

MATCH_TIMEOUT = 120  # seconds for one short match: generous, the machine is shared


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker, tmp_path_factory):
    running = start_stack(_test_database_url(django_db_blocker), tmp_path_factory.mktemp("topology"))
    try:
        yield running
    finally:
        running.stop()


def run_clients(stack, record: Record, clients) -> None:
    async def main():
        await asyncio.wait_for(clients(), MATCH_TIMEOUT)

    try:
        asyncio.run(main())
    except (asyncio.TimeoutError, TimeoutError):
        pytest.fail(f"the match did not end in {MATCH_TIMEOUT} s; last frames: {record.last_seen()}\n"
                    f"sockets lost: {record.losses}\n{stack.logs()}")


def assert_log_is_its_own_replay(match: Match, record: Record, stack) -> None:
    """The match ended; its log has no gap, replays to the result stored, and holds every acked
    ref exactly once (and nothing that was not acked: every act here is a seat's)."""
    resent = [ref for ref, times in record.sent.items() if times > 1]
    context = f"\nresent refs: {resent}; last frames: {record.last_seen()}\n{stack.logs()}"
    assert match.status == Match.Status.FINISHED, f"match {match.pk} is {match.status}{context}"
    log = log_of(match.pk)
    assert len(log) == match.seq
    table = Table.replay(spec_of(match), [action for action, _ref in log])
    assert table.is_over and table.seq == match.seq
    assert json.loads(json.dumps(table.result())) == match.result
    assert table.winner == match.winner
    refs = Counter(ref for _action, ref in log)
    assert None not in refs, "an act without a ref: no seat made it"
    assert max(refs.values()) == 1
    assert set(refs) == set(record.acks), (
        f"logged but never acked: {set(refs) - set(record.acks)}; acked but not logged: "
        f"{set(record.acks) - set(refs)}{context}")
    codes = {frame["code"] for frame in record.errors()}
    assert codes <= {"stale"}, f"errors: {record.errors()}{context}"


def broadcast_part(frame: dict) -> dict:
    """A state as every spectator gets it (the first one, on connect, also carries `history`)."""
    return {key: value for key, value in frame.items() if key != "history"}


def test_four_players_on_two_processes_finish_a_match_and_each_spectator_sees_every_state(
        stack, transactional_db):
    table = make_tables("allfours", 1, {"target_score": 3}, prefix="topo")[0]
    first, second = stack.web
    rng = random.Random(33)
    record = Record()

    async def clients():
        watching = [asyncio.Event(), asyncio.Event()]
        spectators = [asyncio.ensure_future(watch([server], table, server.name, record, ready))
                      for server, ready in zip((first, second), watching)]
        await asyncio.gather(*(ready.wait() for ready in watching))  # both see seq 0 before any act
        seats = [play_seat([first, second] if seat["seat"] % 2 == 0 else [second, first], table, seat, rng, record)
                 for seat in table["seats"]]
        await asyncio.gather(*seats, *spectators)

    run_clients(stack, record, clients)

    match = Match.objects.get(pk=table["match"])
    assert_log_is_its_own_replay(match, record, stack)
    assert not record.losses, record.losses
    assert set(record.connections) == {(0, "web1"), (2, "web1"), (1, "web2"), (3, "web2"),
                                       ("spectator-web1", "web1"), ("spectator-web2", "web2")}
    seen = {name: record.states(f"spectator-{name}") for name in ("web1", "web2")}
    for name, states in seen.items():
        assert [state["seq"] for state in states] == list(range(match.seq + 1)), f"spectator on {name}"
        assert states[-1]["status"] == "finished"
    assert [broadcast_part(s) for s in seen["web1"]] == [broadcast_part(s) for s in seen["web2"]]


def sent_ticks(process) -> int:
    return process.log().count("Sending due task competitions-tick")


def step_results(stack) -> list[str]:
    """The return value of every tournaments.step_competition the workers ran, in no set order."""
    pattern = re.compile(r"Task tournaments\.step_competition\[[^\]]+\] succeeded in [^:]+: (\w+)")
    return [value for process in stack.others if process.name.startswith("worker")
            for value in pattern.findall(process.log())]


def wait_until(condition, timeout: float, stack, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    pytest.fail(f"timed out waiting for {what}\n{stack.logs()}")


def test_a_second_beat_started_by_mistake_opens_no_round_twice(stack, transactional_db):
    beat = next(process for process in stack.others if process.name == "beat1")
    extra = stack.start_beat("beat2")
    try:
        stack.wait_beat(extra)
        steps_before = len(step_results(stack))
        competition = make_competition(format="swiss", starts_in=timedelta(seconds=2))
        players = [user for _entry, users in human_pairs(competition, 4) for user in users]
        due_at = competition.starts_at
        wait_until(lambda: Round.objects.filter(competition=competition, status=Round.Status.OPEN).exists(), 60,
                   stack, "the first round to open")
        # Both beats keep ticking past the opening: each tick steps the competition again.
        ticks = sent_ticks(beat), sent_ticks(extra)
        wait_until(lambda: sent_ticks(beat) >= ticks[0] + 3 and sent_ticks(extra) >= ticks[1] + 3, 60, stack,
                   "three more ticks of each beat")
        wait_until(lambda: len(step_results(stack)) >= steps_before + 6, 60, stack, "the workers to run the steps")
    finally:
        stack.stop_process(extra)
    assert timezone.now() > due_at

    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    assert AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.STARTED).count() == 1
    # Every round exists from the draw, each number once; round 1 alone is open, opened once.
    numbers = list(Round.objects.filter(competition=competition).order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    round_row = Round.objects.get(competition=competition, status=Round.Status.OPEN)
    assert round_row.number == 1 and round_row.opened_at is not None
    assert Pairing.objects.filter(competition=competition).count() == 2
    told = Counter(Notification.objects.filter(key=f"round-open:{round_row.pk}").values_list("user_id", flat=True))
    assert told == Counter({user.pk: 1 for user in players})
    # Several steps ran (two beats' ticks, two workers), one of them did the work, none failed or retried.
    results = step_results(stack)[steps_before:]
    assert results.count("True") == 1, results
    assert len(results) >= 6
    worker_logs = "".join(p.log() for p in stack.others if p.name.startswith("worker"))
    assert not re.search(r"tournaments\.\w+\[[^\]]+\] (raised|retry)", worker_logs), stack.logs()
    assert "IntegrityError" not in worker_logs, stack.logs()


def test_kill_9_of_one_process_mid_play_sends_its_players_to_the_other_and_loses_nothing(
        stack, transactional_db):
    """Kills web2 (last in this module: the stack keeps one web process after it)."""
    table = make_tables("allfours", 1, {"target_score": 5}, prefix="topokill")[0]
    first, second = stack.web
    rng = random.Random(9)
    record = Record()
    kill_at = 8
    killed_at_seq = []

    def kill_mid_play(_who, _server, frame):
        if not killed_at_seq and frame["seq"] >= kill_at and frame["status"] == "playing":
            killed_at_seq.append(frame["seq"])
            stack.kill(second)

    async def clients():
        watching = [asyncio.Event(), asyncio.Event()]
        survivor = asyncio.ensure_future(watch([first], table, "web1", record, watching[0], sync_when_quiet=True,
                                               on_state=kill_mid_play))
        moved = asyncio.ensure_future(watch([second, first], table, "web2", record, watching[1],
                                            sync_when_quiet=True))
        await asyncio.gather(*(ready.wait() for ready in watching))
        # Web1's own players watch for the moment too: under load the spectator's frames may come
        # later than theirs, and the kill must fall mid-play.
        seats = [play_seat([first, second], table, seat, rng, record, on_state=kill_mid_play)
                 if seat["seat"] % 2 == 0 else play_seat([second, first], table, seat, rng, record)
                 for seat in table["seats"]]
        await asyncio.gather(*seats, survivor, moved)

    run_clients(stack, record, clients)

    match = Match.objects.get(pk=table["match"])
    seen = [(who, server, frame.get("seq"), frame.get("status")) for who, server, frame in record.frames
            if str(who).startswith("spectator") and frame.get("type") == "state"]
    assert killed_at_seq and not second.alive, (
        f"the match ended before the kill: {match.status}/{match.finish} at seq {match.seq}; "
        f"spectators saw {seen[:5]} ... {seen[-5:]}; losses {record.losses}")
    assert match.seq > killed_at_seq[0], "nothing was played after the kill"
    assert_log_is_its_own_replay(match, record, stack)
    for seat in (1, 3):  # web2's players: cut off, then on web1
        lost = [who for who, server, _why in record.losses if who == seat and server == "web2"]
        assert lost, f"seat {seat} never lost its socket: {record.losses}"
        assert (seat, "web1") in record.connections
    # The spectator on the surviving process saw the states in order, none twice (a `sync` after a
    # quiet spell may repeat the newest one). At most one state can be missing: an act the killed
    # process had written but not yet broadcast (one act at a time at a table).
    seqs = [state["seq"] for state in record.states("spectator-web1")]
    distinct = [seq for n, seq in enumerate(seqs) if n == 0 or seq != seqs[n - 1]]
    assert distinct == sorted(set(seqs)), f"out of order or doubled: {seqs}"
    assert distinct[0] == 0 and distinct[-1] == match.seq
    assert len(set(range(match.seq + 1)) - set(distinct)) <= 1, f"states missing: {seqs}"
