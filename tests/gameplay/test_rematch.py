"""Rematch (issue 32, docs/protocol-extensions.md "Rematch"): one click at the end of a casual
match proposes the same table again; bots accept at once, the others see who has accepted, it
starts when everyone has; a decline or the timeout cancels it; bad requests change nothing."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from django.utils import timezone

from gameplay import rematch
from gameplay.models import Match, Rematch
from gameplay.rules import get_game
from gameplay.services import ActionRejected

from .helpers import make_match, make_user, table_socket

pytestmark = [pytest.mark.django_db(transaction=True)]


def kick_decided_seed():
    """All Fours to 1 point: a seed whose dealer (seat 3) kicks the winning point at the start."""
    engine = get_game("allfours")
    return next(s for s in range(1000) if engine.start(seed=s, options={"target_score": 1}, dealer=3).is_over)


def finished_match(humans=2, bots=2, **kwargs):
    match, users = make_match(humans=humans, bots=bots, options={"target_score": 1}, seed=kick_decided_seed(),
                              **kwargs)
    match.refresh_from_db()
    assert match.status == "finished"
    return match, users


async def seated(match, user):
    socket = table_socket(match.pk, user)
    assert await socket.connect()
    assert (await socket.receive())["type"] == "state"
    return socket


@pytest.mark.asyncio
async def test_a_rematch_of_two_people_and_two_bots_starts_when_both_accept():
    match, (ann, bob) = await db(finished_match)()
    ann_socket, bob_socket = await seated(match, ann), await seated(match, bob)

    await ann_socket.send({"type": "rematch", "ref": "r-1"})
    assert (await ann_socket.receive_until("ack"))["ref"] == "r-1"
    proposal = await bob_socket.receive_until("rematch")  # the others see who has accepted
    assert proposal["state"] == "open" and proposal["proposed_by"] == 0
    assert proposal["accepted"] == [0, 2, 3] and proposal["waiting"] == [1]  # the bots at once
    assert await db(Match.objects.count)() == 1

    await bob_socket.send({"type": "rematch", "ref": "r-2"})
    started = await ann_socket.receive_until("rematch")
    while started["state"] != "started":
        started = await ann_socket.receive_until("rematch")
    again = await db(Match.objects.get)(pk=started["next"])
    assert started["next_url"] == f"/matches/{again.pk}/"
    seats = await db(lambda: list(again.seats.order_by("seat").values_list("user_id", "bot")))()
    assert seats == [(ann.pk, ""), (bob.pk, ""), (None, "random"), (None, "random")]
    assert (again.game, again.options, again.games_to_win, again.rated) == (match.game, match.options,
                                                                           match.games_to_win, match.rated)
    assert again.status in ("playing", "finished") and again.pk != match.pk

    late = await seated(match, bob)  # a socket opened afterwards learns where the table went
    assert (await late.receive_until("rematch"))["next"] == again.pk
    for socket in (ann_socket, bob_socket, late):
        await socket.close()


@pytest.mark.asyncio
async def test_a_decline_cancels_the_rematch_and_nobody_gets_a_table():
    match, (ann, bob) = await db(finished_match)()
    ann_socket, bob_socket = await seated(match, ann), await seated(match, bob)
    await ann_socket.send({"type": "rematch", "ref": "r-1"})
    await bob_socket.receive_until("rematch")
    await bob_socket.send({"type": "rematch_decline", "ref": "r-2"})
    cancelled = await ann_socket.receive_until("rematch")
    while cancelled["state"] != "cancelled":
        cancelled = await ann_socket.receive_until("rematch")
    assert cancelled["reason"] == "declined" and cancelled["declined_by"] == 1 and cancelled["next"] is None
    assert await db(Match.objects.count)() == 1
    await ann_socket.send({"type": "rematch_decline", "ref": "r-3"})  # nothing left to decline
    assert (await ann_socket.receive_until("error"))["code"] == "illegal_action"
    for socket in (ann_socket, bob_socket):
        await socket.close()


def test_the_timeout_cancels_an_unanswered_rematch_and_a_late_accept_proposes_anew():
    match, (ann, bob) = finished_match()
    rematch.answer(match.pk, ann, "rematch")
    assert rematch.expire_due(timezone.now()) == 0
    assert rematch.expire_due(timezone.now() + timedelta(seconds=rematch.REMATCH_SECONDS + 1)) == 1
    row = Rematch.objects.get()
    assert row.status == "cancelled" and rematch.frame_of(row)["reason"] == "timeout"
    frame = rematch.answer(match.pk, bob, "rematch")  # a new proposal, by Bob this time
    assert frame["state"] == "open" and frame["proposed_by"] == 1 and frame["waiting"] == [0]
    assert Match.objects.count() == 1


def test_an_answer_after_the_time_is_up_finds_the_proposal_cancelled():
    match, (ann, bob) = finished_match()
    rematch.answer(match.pk, ann, "rematch")
    Rematch.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ActionRejected) as refused:
        rematch.answer(match.pk, bob, "rematch_decline")
    assert refused.value.code == "illegal_action"
    assert Match.objects.count() == 1


def test_a_rematch_of_four_people_at_a_rated_table_is_rated_and_needs_all_four():
    match, users = finished_match(humans=4, bots=0, rated=True)
    for user in users[:3]:
        assert rematch.answer(match.pk, user, "rematch")["state"] == "open"
    frame = rematch.answer(match.pk, users[3], "rematch")
    assert frame["state"] == "started"
    assert Match.objects.get(pk=frame["next"]).rated


def refused(match_id, user, kind="rematch"):
    with pytest.raises(ActionRejected) as error:
        rematch.answer(match_id, user, kind)
    return error.value.code


def test_bad_rematch_requests_get_the_protocols_error_and_change_nothing():
    playing, users = make_match(humans=2, bots=2)  # not finished
    assert refused(playing.pk, users[0]) == "illegal_action"
    match, (ann, bob) = finished_match()
    assert refused(match.pk, make_user()) == "forbidden"  # not seated
    assert refused(match.pk, None) == "forbidden"
    rematch.answer(match.pk, ann, "rematch")
    assert refused(match.pk, ann) == "illegal_action"  # accepting twice
    assert Match.objects.count() == 2 and Rematch.objects.get().accepted == [0, 2, 3]


def test_a_competition_match_has_no_rematch():
    from tests.competitions_db.helpers import human_pairs, make_competition
    from tournaments.models import Pairing, Round

    competition = make_competition(starts_in=timedelta(hours=-1))
    (home, _), (away, _) = human_pairs(competition, 2)
    round_row = Round.objects.create(competition=competition, number=1, status=Round.Status.OPEN,
                                     starts_at=timezone.now(), deadline=timezone.now() + timedelta(minutes=10))
    match, (ann, _bob) = finished_match()
    Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=0, home=home, away=away,
                           match=match)
    assert refused(match.pk, ann) == "forbidden"
    assert not Rematch.objects.exists() and Match.objects.count() == 1


@pytest.mark.asyncio
async def test_a_spectator_or_a_message_without_ref_is_refused_on_the_socket():
    match, (ann, _bob) = await db(finished_match)()
    spectator = await seated(match, await db(make_user)())
    await spectator.send({"type": "rematch", "ref": "r-9"})
    assert (await spectator.receive_until("error"))["code"] == "forbidden"
    ann_socket = await seated(match, ann)
    await ann_socket.send({"type": "rematch"})
    assert (await ann_socket.receive_until("error"))["code"] == "bad_message"
    assert not await db(Rematch.objects.exists)()
    for socket in (spectator, ann_socket):
        await socket.close()
