"""The periodic bot sweep: a lost `play_bots` task must not stall a table, untimed ones included.

The tests lose the bot tasks on purpose (`schedule_bots` does nothing) and move a fake clock
instead of sleeping; rows get their timestamps from the same clock.
"""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from gameplay import services, tasks
from gameplay.models import Match
from gameplay.services import SeatSpec, moves

from .helpers import make_match, make_user

pytestmark = pytest.mark.django_db(transaction=True)

GRACE = 30


class Clock:
    def __init__(self):
        self.now = timezone.now()

    def __call__(self):
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture(autouse=True)
def grace(settings):
    settings.BOT_STALL_SECONDS = GRACE
    cache.delete(tasks.BOT_SWEEP_CURSOR)  # the cache (Redis) outlives a test
    yield
    cache.delete(tasks.BOT_SWEEP_CURSOR)


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock)
    return clock


@pytest.fixture
def lost_bot_tasks(monkeypatch):
    monkeypatch.setattr(moves, "schedule_bots", lambda match_id: None)


@pytest.fixture
def looked_at(monkeypatch):
    """The match ids the sweep hands to play_bots, in order (play_bots still runs)."""
    calls = []
    play_bots = tasks.play_bots

    def spy(match_id):
        calls.append(match_id)
        return play_bots(match_id)

    spy.delay, spy.apply_async = play_bots.delay, play_bots.apply_async  # schedule_bots' way in
    monkeypatch.setattr(tasks, "play_bots", spy)
    return calls


def practice_table(first_dealer: int):
    """A human at seat 0 and three bots; the seat after the dealer acts first (All Fours)."""
    human = make_user()
    match = services.create_match("allfours", {}, [SeatSpec(user=human)] + [SeatSpec(bot="random")] * 3,
                                  seed=7, first_dealer=first_dealer)
    return match, human


def to_act(match, user):
    return services.current_state(match.pk, user)["to_act"]


def seq(match) -> int:
    match.refresh_from_db()
    return match.seq


def test_a_table_whose_bot_task_was_lost_moves_on_after_the_grace_period_and_not_before(
        clock, lost_bot_tasks):
    match, human = practice_table(first_dealer=0)  # bot seat 1 is to act
    assert seq(match) == 0 and to_act(match, human) == 1, "the bot task should have been lost"

    clock.advance(GRACE - 1)
    assert tasks.sweep_stalled_bots() == 0
    assert seq(match) == 0

    clock.advance(2)
    assert tasks.sweep_stalled_bots() == 1
    assert seq(match) > 0 and to_act(match, human) == 0  # the bots played up to the human


def test_the_grace_period_runs_from_the_latest_action(clock, lost_bot_tasks):
    match, human = practice_table(first_dealer=3)  # the human is to act
    services.take(match.pk, services.Act.by_player(human, 0, "stand", {"type": "stand"}))  # then leads
    clock.advance(GRACE * 2)  # started and first acted long ago...
    lead = services.current_state(match.pk, human)["legal"][0]
    services.take(match.pk, services.Act.by_player(human, 1, "lead", lead))  # ...and led just now
    assert seq(match) == 2 and to_act(match, human) == 1, "the bot task should have been lost"

    assert tasks.sweep_stalled_bots() == 0
    assert seq(match) == 2

    clock.advance(GRACE + 1)
    assert tasks.sweep_stalled_bots() == 1
    assert seq(match) > 2


def test_a_table_where_a_human_is_to_act_is_left_alone_and_looked_at_once(clock, looked_at):
    match, human = practice_table(first_dealer=3)
    clock.advance(GRACE + 1)

    assert tasks.sweep_stalled_bots() == 0
    assert seq(match) == 0 and looked_at == [match.pk]

    # Still quiet, for the same reason: the next runs do not pay for it again...
    clock.advance(GRACE)
    assert tasks.sweep_stalled_bots() == 0
    assert looked_at == [match.pk]

    # ...until it is quiet again after a new action (after a stand, the human leads).
    services.take(match.pk, services.Act.by_player(human, 0, "stand", {"type": "stand"}))
    assert seq(match) == 1 and to_act(match, human) == 0
    clock.advance(GRACE + 1)
    assert tasks.sweep_stalled_bots() == 0
    assert seq(match) == 1 and looked_at == [match.pk, match.pk]


def test_a_lost_cursor_only_means_starting_again_from_the_oldest(clock, looked_at):
    match, _ = practice_table(first_dealer=3)
    clock.advance(GRACE + 1)
    tasks.sweep_stalled_bots()
    cache.delete(tasks.BOT_SWEEP_CURSOR)
    tasks.sweep_stalled_bots()
    assert looked_at == [match.pk, match.pk]


def test_finished_tables_and_tables_without_bots_are_not_looked_at(clock, looked_at):
    finished, _ = make_match(humans=0, bots=4)  # the bots play it out at once (eager tasks)
    humans_only, _ = make_match(humans=4)
    finished.refresh_from_db()
    assert finished.status == Match.Status.FINISHED and humans_only.status == Match.Status.PLAYING
    clock.advance(GRACE + 1)

    assert tasks.sweep_stalled_bots() == 0
    assert looked_at == []
    assert seq(humans_only) == 0


def test_a_batch_takes_the_oldest_tables_first_and_the_next_run_goes_on_from_there(
        clock, lost_bot_tasks, looked_at, monkeypatch):
    monkeypatch.setattr(tasks, "SWEEP_BATCH", 1)
    older, _ = practice_table(first_dealer=0)
    clock.advance(1)
    newer, _ = practice_table(first_dealer=0)
    clock.advance(GRACE + 1)

    assert tasks.sweep_stalled_bots() == 1
    assert seq(older) > 0 and seq(newer) == 0
    assert tasks.sweep_stalled_bots() == 1
    assert seq(newer) > 0
    assert looked_at == [older.pk, newer.pk]


def test_a_table_that_fails_does_not_hold_back_the_others(clock, lost_bot_tasks, monkeypatch):
    broken, _ = practice_table(first_dealer=0)
    stalled, _ = practice_table(first_dealer=0)
    play_bots = tasks.play_bots

    def failing_for_broken(match_id):
        if match_id == broken.pk:
            raise RuntimeError("a broken table")
        return play_bots(match_id)

    monkeypatch.setattr(tasks, "play_bots", failing_for_broken)
    clock.advance(GRACE + 1)
    assert tasks.sweep_stalled_bots() == 1
    assert seq(broken) == 0 and seq(stalled) > 0
