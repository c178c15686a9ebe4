"""The one service that changes matches: seats, turns, seq, refs, clocks, bots, best of N."""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from gameplay import services, tasks
from gameplay.models import Match, MatchAction
from gameplay.rules.replay import replay
from gameplay.services import ActionRejected
from gameplay.table import Table

from .helpers import make_match, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def state_for(match, user):
    return services.current_state(match.pk, user)


def act_first_legal(match, users):
    """The seat to act plays its first legal action; returns (user, outcome)."""
    match.refresh_from_db()
    state = state_for(match, users[0])
    seat = state["to_act"]
    user = users[seat]
    legal = state_for(match, user)["legal"][0]
    return user, services.take(match.pk, services.Act.by_player(user, match.seq, f"r-{match.seq}", legal))


def rejected(code, match_id, user, seq, ref, action):
    with pytest.raises(ActionRejected) as error:
        services.take(match_id, services.Act.by_player(user, seq, ref, action))
    assert error.value.code == code
    return error.value


def test_a_full_table_starts_and_deals_from_its_seed():
    match, users = make_match()
    assert match.status == "playing" and match.seq == 0
    first = state_for(match, users[0])
    again, _ = make_match(seed=7)
    assert state_for(again, again.seats.get(seat=0).user)["view"]["hand"] == first["view"]["hand"]


def test_an_accepted_action_is_stored_before_it_is_acknowledged():
    match, users = make_match()
    user, outcome = act_first_legal(match, users)
    assert outcome.seq == 1
    row = MatchAction.objects.get(match=match, seq=0)
    assert row.actor == user and row.ref == "r-0" and row.action["type"] in ("stand", "beg")
    match.refresh_from_db()
    assert match.seq == 1


def test_every_reader_gets_only_its_own_view():
    match, users = make_match()
    _, outcome = act_first_legal(match, users)
    messages = outcome.messages
    assert set(messages) == {0, 1, 2, 3, "spectator"}
    hands = [set(messages[seat]["view"]["hand"]) for seat in range(4)]
    assert all(len(h) == 6 for h in hands) and not set.intersection(*hands)
    assert messages["spectator"]["view"]["hand"] == [] and messages["spectator"]["seat"] is None


def test_resending_the_same_ref_is_applied_once():
    match, users = make_match()
    user, first = act_first_legal(match, users)
    action = MatchAction.objects.get(match=match, seq=0).action
    again = services.take(match.pk, services.Act.by_player(user, 0, "r-0", action))
    assert again.duplicate and again.seq == first.seq
    assert MatchAction.objects.filter(match=match).count() == 1


def test_a_stale_seq_is_refused():
    match, users = make_match()
    user, _ = act_first_legal(match, users)
    state = state_for(match, users[0])
    actor = users[state["to_act"]]
    rejected("stale", match.pk, actor, 0, "late", state_for(match, actor)["legal"][0])


def test_acting_out_of_turn_or_for_another_seat_is_refused():
    match, users = make_match()
    state = state_for(match, users[0])
    other = users[(state["to_act"] + 1) % 4]
    rejected("not_your_turn", match.pk, other, 0, "x1", {"type": "stand"})
    actor = users[state["to_act"]]
    rejected("forbidden", match.pk, actor, 0, "x2", {"type": "stand", "seat": (state["to_act"] + 2) % 4})
    assert MatchAction.objects.count() == 0


def test_an_illegal_card_is_refused_with_a_reason_and_changes_nothing():
    match, users = make_match()
    seat = state_for(match, users[0])["to_act"]
    error = rejected("illegal_action", match.pk, users[seat], 0, "x", {"type": "play", "card": "AS"})
    assert "possible" in error.message
    match.refresh_from_db()
    assert match.seq == 0 and MatchAction.objects.count() == 0


def test_a_spectator_and_the_server_clock_action_are_forbidden_to_clients():
    match, users = make_match()
    rejected("forbidden", match.pk, make_user(), 0, "s", {"type": "stand"})
    seat = state_for(match, users[0])["to_act"]
    rejected("forbidden", match.pk, users[seat], 0, "t", {"type": "timeout"})


@pytest.mark.parametrize("message", [None, [], {"card": "AS"}, {"type": 5}])
def test_a_malformed_action_is_a_bad_message(message):
    match, users = make_match()
    rejected("bad_message", match.pk, users[0], 0, "b", message)


def test_a_short_clock_forfeits_the_match_for_the_seat_that_ran_out(monkeypatch):
    match, users = make_match(time_control=1)
    assert match.deadline is not None
    seat = state_for(match, users[0])["to_act"]
    assert tasks.sweep_deadlines() == 0  # not yet due
    a_second_later = timezone.now() + timedelta(seconds=1.1)
    monkeypatch.setattr(timezone, "now", lambda: a_second_later)  # the clock moves, nobody waits
    assert tasks.sweep_deadlines() == 1
    match.refresh_from_db()
    assert match.status == "finished" and match.finish == "timeout" and match.winner == 1 - seat % 2
    assert MatchAction.objects.get(match=match).action == {"seat": seat, "type": "timeout"}
    rejected("finished", match.pk, users[seat], match.seq, "z", {"type": "stand"})


def test_a_move_sends_no_timer_task_and_the_sweep_each_second_keeps_the_clocks(
        monkeypatch, django_capture_on_commit_callbacks, settings):
    # One Celery timer per move cost more than the moves under load (docs/decisions.md, "Clocks")
    from celery.app.task import Task

    from config.celery import BEAT_SCHEDULE

    sent = []
    monkeypatch.setattr(Task, "apply_async", lambda task, *args, **kwargs: sent.append(task.name))
    settings.CELERY_TASK_ALWAYS_EAGER = False
    match, users = make_match(time_control=30)
    with django_capture_on_commit_callbacks(execute=True):
        act_first_legal(match, users)
    match.refresh_from_db()
    assert match.seq == 1 and match.deadline is not None and sent == []
    sweep = BEAT_SCHEDULE["sweep-deadlines"]
    assert sweep["task"] == "gameplay.sweep_deadlines" and sweep["schedule"] <= 1.0


def test_under_auto_action_the_clock_plays_for_the_absent_seat():
    match, users = make_match(time_control=1, options={"timeout_result": "auto_action"})
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now())
    assert services.take(match.pk, services.Act.by_clock(0)) is not None
    match.refresh_from_db()
    assert match.status == "playing" and match.seq == 1 and match.deadline > timezone.now()


def test_a_clock_check_or_a_bot_task_of_a_deleted_match_does_nothing():
    match, users = make_match(time_control=60)
    Match.objects.filter(pk=match.pk).delete()
    assert services.take(match.pk, services.Act.by_clock(0)) is None
    assert tasks.play_bots(match.pk) == 0


def test_a_clock_check_for_an_old_seq_does_nothing_and_locks_nothing(django_assert_num_queries):
    match, users = make_match(time_control=60)
    act_first_legal(match, users)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now())
    # one plain read: no transaction or row lock for a move at that table to wait behind
    with django_assert_num_queries(1) as context:
        assert services.take(match.pk, services.Act.by_clock(0)) is None
    assert "FOR UPDATE" not in context.captured_queries[0]["sql"]
    match.refresh_from_db()
    assert match.seq == 1 and match.status == "playing"


@pytest.mark.parametrize("game", ["allfours", "baloot", "cuatrola"])
def test_bots_fill_three_seats_and_answer_a_human_until_the_match_ends(game):
    match, users = make_match(game, humans=1, bots=3)
    (human,) = users
    for _ in range(5000):
        match.refresh_from_db()
        if match.status == "finished":
            break
        state = state_for(match, human)
        assert state["to_act"] == 0, "the bots should have played up to the human's turn"
        services.take(match.pk, services.Act.by_player(human, match.seq, f"h{match.seq}", state["legal"][0]))
    assert match.status == "finished" and match.winner in (0, 1)


def test_a_best_of_three_match_ends_when_a_team_has_won_two_games():
    match, _ = make_match(humans=0, bots=4, options={"target_score": 1}, games_to_win=2)
    match.refresh_from_db()
    assert match.status == "finished"
    assert max(match.games_won) == 2 and len(match.result["games"]) in (2, 3)
    assert MatchAction.objects.filter(match=match, game_number=1).exists()


@pytest.mark.parametrize("game", ["allfours", "baloot", "cuatrola"])
def test_the_archive_export_replays_to_the_same_scores(game, client):
    match, _ = make_match(game, humans=0, bots=4)
    match.refresh_from_db()
    assert match.status == "finished"
    table = Table.replay(services.spec_of(match), MatchAction.objects.filter(match=match)
                         .order_by("seq").values_list("action", flat=True))
    scenario = json.loads(json.dumps(table.all_games()[0].scenario()))
    result, status = replay(scenario)
    assert status == 0 and result["score"] == match.result["games"][0]["score"]


def test_a_match_decided_by_its_first_kick_is_finished_when_it_starts():
    """All Fours R6.4 with a 1-point target: the dealer's kick can win before any action."""
    from gameplay.rules import get_game

    engine = get_game("allfours")
    seed = next(s for s in range(1000) if engine.start(seed=s, options={"target_score": 1}, dealer=3).is_over)
    match, _ = make_match(options={"target_score": 1}, seed=seed)
    match.refresh_from_db()
    assert match.status == "finished" and match.seq == 0 and match.winner == 1
    assert match.result["games"][0]["winner"] == 1


@pytest.mark.parametrize("game, options", [("allfours", {"target_score": 3}), ("baloot", {"target_score": 20}),
                                           ("cuatrola", {"target": 2})])
def test_every_reader_frame_carries_exactly_its_own_view(game, options):
    """The frames of a move are built from views sharing their public part (MatchState.views);
    each must equal that reader's own view, through a best-of-three to its end."""
    import random

    from gameplay.table import MatchSpec

    from gameplay.rules import get_game

    from types import SimpleNamespace

    from gameplay import frames

    spec = MatchSpec(game=game, options=get_game(game).resolve_options(options), seed=3, first_dealer=0,
                     games_to_win=2)
    table, rng = Table(spec), random.Random(5)
    row = SimpleNamespace(pk=9, deadline=timezone.now(), status="playing")
    while True:
        readers = [*range(table.players), None]
        views = table.views(readers)
        assert all(views[reader] == table.view(reader) for reader in readers)
        # ...and what a socket sends (a shared head plus its own tail) is that reader's frame.
        messages = services.state_messages(row, table, table.events)
        head, tails = frames.split_states(messages)
        for reader, message in messages.items():
            assert json.loads(head + tails[str(reader)]) == json.loads(json.dumps(message))
        if table.is_over:
            break
        table.apply(rng.choice(table.legal_for(table.to_act)))


def test_a_table_cached_while_waiting_is_read_again_once_another_process_started_it():
    """A socket's first state caches the waiting table; the round is then filled with bots and
    started elsewhere (another web process, the worker), which forgets only its own copy. This
    process must see those bots, or the bot to act after a person never moves."""
    host = make_user()
    match = services.create_match("allfours", {}, [services.SeatSpec(user=host)], seed=7, first_dealer=3)
    assert services.current_state(match.pk, host)["status"] == "waiting"  # cached here, seq 0
    cached = services.cached_table(match.pk)
    services.fill_with_bots(match, "random")  # as elsewhere: put this process's copy back
    services.put_table(cached)
    match.refresh_from_db()
    assert match.status == "playing"
    with services.match_lock(match.pk):
        live = services.live_table(match)
    assert sorted(live.bots) == [1, 2, 3]


def test_an_ended_table_is_not_kept_in_the_process_cache():
    """Only tables in play are kept: a web process that kept every ended one grew by each
    match it had seen end (benchmarks/soak.py)."""
    match, users = make_match(bots=0, time_control=1)
    assert services.current_state(match.pk, users[0])["status"] == "playing"
    assert services.cached_table(match.pk) is not None
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now())
    assert services.take(match.pk, services.Act.by_clock(0)) is not None  # the clock ends it
    match.refresh_from_db()
    assert match.status == "finished" and services.cached_table(match.pk) is None
    assert services.current_state(match.pk, users[0])["status"] == "finished"  # a late socket's state
    assert services.cached_table(match.pk) is None
