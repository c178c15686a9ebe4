"""Fair play at the table (docs/protocol-extensions.md): concede, leave, chat over the socket,
and through the services the fair start (clocks held until every seat is connected) and the
leaver policy after the reconnect window."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from django.utils import timezone

from gameplay import presence, services
from gameplay.models import ChatMessage, Match, MatchAction, Seat
from gameplay.table import Table

from .helpers import make_match, make_user, table_socket

pytestmark = pytest.mark.django_db(transaction=True)


async def seated(match, user):
    socket = table_socket(match.pk, user)
    assert await socket.connect()
    state = await socket.receive_until("state")
    return socket, state


def reload(match) -> Match:
    return Match.objects.get(pk=match.pk)


def replayed(match) -> Table:
    actions = MatchAction.objects.filter(match=match).order_by("seq").values_list("action", flat=True)
    return Table.replay(services.spec_of(match), actions)


# ----- concede ------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_a_concession_proposed_and_accepted_by_the_partner_ends_the_match():
    match, users = await db(make_match)()
    first, _ = await seated(match, users[1])
    partner, _ = await seated(match, users[3])
    await first.send({"type": "concede", "ref": "k-1"})
    assert (await first.receive_until("ack"))["seq"] == 1
    proposed = await partner.receive_until("state")
    assert proposed["view"]["match"]["concede_by"] == 1 and proposed["status"] == "playing"
    assert {"kind": "concede_proposed", "seat": 1} in proposed["events"]
    await partner.send({"type": "concede", "ref": "k-2"})
    await partner.receive_until("ack", timeout=20)  # the match's end: result, competitions, ratings
    over = await first.receive_until("state", timeout=20)
    while over["status"] != "finished":
        over = await first.receive_until("state", timeout=20)
    assert over["view"]["match"]["winner"] == 0 and over["view"]["match"]["finish"] == "conceded"
    row = await db(reload)(match)
    assert row.status == "finished" and row.winner == 0 and row.finish == "conceded"
    table = await db(replayed)(row)  # the log replays to the same end
    assert table.winner == 0 and table.finish == "conceded"


@pytest.mark.asyncio
async def test_a_declined_proposal_leaves_the_match_playing():
    match, users = await db(make_match)()
    first, _ = await seated(match, users[0])
    partner, _ = await seated(match, users[2])
    await first.send({"type": "concede", "ref": "k-1"})
    await first.receive_until("ack")
    await partner.send({"type": "concede_decline", "ref": "k-2"})
    await partner.receive_until("ack")
    state = await first.receive_until("state")
    while state["seq"] < 2:
        state = await first.receive_until("state")
    assert state["view"]["match"]["concede_by"] is None and state["status"] == "playing"


@pytest.mark.asyncio
async def test_conceding_when_the_partner_is_a_bot_ends_the_match_at_once():
    match, users = await db(make_match)(humans=1, bots=3)
    socket, _ = await seated(match, users[0])
    await socket.send({"type": "concede", "ref": "k-1"})
    await socket.receive_until("ack")
    row = await db(reload)(match)
    assert row.status == "finished" and row.finish == "conceded" and row.winner == 1


@pytest.mark.asyncio
async def test_concede_by_a_spectator_or_twice_or_unanswered_is_refused_and_changes_nothing():
    match, users = await db(make_match)()
    spectator, _ = await seated(match, await db(make_user)())
    await spectator.send({"type": "concede", "ref": "s-1"})
    assert (await spectator.receive_until("error"))["code"] == "forbidden"
    socket, _ = await seated(match, users[0])
    await socket.send({"type": "concede"})
    assert (await socket.receive_until("error"))["code"] == "bad_message"
    await socket.send({"type": "concede_decline", "ref": "d-1"})
    assert (await socket.receive_until("error"))["code"] == "illegal_action"
    await socket.send({"type": "concede", "ref": "k-1"})
    await socket.receive_until("ack")
    await socket.send({"type": "concede", "ref": "k-2"})
    error = await socket.receive_until("error")
    assert error["code"] == "illegal_action" and "partner" in error["message"]
    assert await db(MatchAction.objects.filter(match=match).count)() == 1


@pytest.mark.asyncio
async def test_concede_or_leave_on_a_finished_match_gets_finished():
    match, users = await db(make_match)(humans=2, bots=2)
    socket, _ = await seated(match, users[0])
    await socket.send({"type": "leave", "ref": "l-0"})  # the default policy is a bot, not the end
    await socket.receive_until("ack")
    other, _ = await seated(match, users[1])
    await other.send({"type": "concede", "ref": "k-1"})  # seat 1's partner (3) is a bot
    await other.receive_until("ack")
    count = await db(MatchAction.objects.filter(match=match).count)()
    for kind in ("concede", "leave", "concede_decline"):
        await other.send({"type": kind, "ref": f"late-{kind}"})
        assert (await other.receive_until("error"))["code"] == "finished"
    assert await db(MatchAction.objects.filter(match=match).count)() == count


# ----- leaving ------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_leaving_a_casual_table_gives_the_seat_to_a_bot_and_makes_the_match_unrated():
    match, users = await db(make_match)(rated=True)
    socket, _ = await seated(match, users[2])
    await socket.send({"type": "leave", "ref": "l-1"})
    await socket.receive_until("ack")
    seat = await db(Seat.objects.get)(match=match, seat=2)
    row = await db(reload)(match)
    assert seat.bot and not row.rated and row.status == "playing"
    state = await socket.receive_until("state")
    assert state["view"]["match"]["replaced"] == [2]
    await socket.send({"type": "sync"})
    state = await socket.receive_until("state")
    if state["legal"]:
        await socket.send({"type": "act", "ref": "back", "seq": state["seq"], "action": state["legal"][0]})
        assert (await socket.receive_until("error"))["code"] == "forbidden"


@pytest.mark.asyncio
async def test_leaving_under_the_forfeit_policy_loses_the_match_for_the_team():
    match, users = await db(make_match)(leaver_policy="forfeit")
    socket, _ = await seated(match, users[1])
    await socket.send({"type": "leave", "ref": "l-1"})
    await socket.receive_until("ack")
    row = await db(reload)(match)
    assert row.status == "finished" and row.finish == "forfeit" and row.winner == 0


def test_a_player_away_longer_than_the_reconnect_window_is_replaced_by_a_bot_that_plays_on():
    match, users = make_match(humans=2, bots=2, reconnect_seconds=60)
    presence.arrived(match.pk, 0)
    presence.departed(match.pk, 0)
    assert presence.enforce_leaver(match.pk, 0) is None  # still inside the window
    later = timezone.now() + timedelta(seconds=61)
    assert presence.sweep_presence(now=later) == 1
    assert Seat.objects.get(match=match, seat=0).bot
    human = users[1]
    for _ in range(3000):  # the bots play on for seat 0; the human at seat 1 plays to the end
        match = reload(match)
        if match.status == "finished":
            break
        state = services.current_state(match.pk, human)
        assert state["to_act"] == 1
        services.take(match.pk, services.Act.by_player(human, match.seq, f"h{match.seq}", state["legal"][0]))
    assert match.status == "finished" and match.finish == "played" and not match.rated


def test_coming_back_within_the_window_keeps_the_seat():
    match, users = make_match(reconnect_seconds=60)
    presence.arrived(match.pk, 3)
    presence.departed(match.pk, 3)
    presence.arrived(match.pk, 3)
    assert presence.sweep_presence(now=timezone.now() + timedelta(seconds=120)) == 0
    assert not Seat.objects.get(match=match, seat=3).bot


# ----- fair starts --------------------------------------------------------------------------

def test_no_clock_runs_before_all_four_are_connected():
    match, users = make_match(time_control=30, checkin_seconds=120)
    assert match.status == "playing" and match.deadline is None and match.clocks_started_at is None
    for seat in range(3):
        presence.arrived(match.pk, seat)
    assert reload(match).deadline is None
    presence.arrived(match.pk, 3)
    match = reload(match)
    assert match.clocks_started_at is not None and match.deadline is not None


def test_the_clocks_start_when_the_check_in_window_closes_and_the_absent_are_away():
    match, users = make_match(time_control=30, checkin_seconds=120)
    presence.arrived(match.pk, 0)
    assert presence.sweep_presence(now=timezone.now() + timedelta(seconds=60)) == 0
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(seconds=121))
    assert presence.sweep_presence() >= 1
    match = reload(match)
    assert match.deadline is not None
    away = Seat.objects.filter(match=match, away_since__isnull=False).values_list("seat", flat=True)
    assert sorted(away) == [1, 2, 3]


# ----- chat ---------------------------------------------------------------------------------

@pytest.mark.asyncio
async def test_partners_chat_with_phrases_and_text_and_spectators_talk_apart():
    match, users = await db(make_match)()
    mine, _ = await seated(match, users[0])
    partner, _ = await seated(match, users[2])
    watcher, _ = await seated(match, await db(make_user)())
    await mine.send({"type": "chat", "phrase": "good_luck"})
    line = await partner.receive_until("chat")
    assert line["phrase"] == "good_luck" and line["seat"] == 0 and line["audience"] == "players"
    await mine.send({"type": "chat", "text": "<script>alert(1)</script>"})
    line = await partner.receive_until("chat")
    assert line["text"] == "<script>alert(1)</script>"  # stored and sent as text; the client shows it as text
    await watcher.send({"type": "chat", "text": "nice game"})
    seen = await watcher.receive_until("chat")
    assert seen["audience"] == "spectators" and seen["seat"] is None
    await partner.send({"type": "chat_history"})
    history = await partner.receive_until("chat_history")
    assert [m["audience"] for m in history["messages"]] == ["players", "players"]
    await watcher.send({"type": "chat_history"})
    assert [m["text"] for m in (await watcher.receive_until("chat_history"))["messages"]] == ["nice game"]


@pytest.mark.asyncio
async def test_an_over_long_message_and_a_flood_are_refused_with_a_message():
    match, users = await db(make_match)()
    socket, _ = await seated(match, users[0])
    await socket.send({"type": "chat", "text": "x" * 201, "ref": "long"})
    error = await socket.receive_until("error")
    assert error["code"] == "too_long" and "200" in error["message"] and error["ref"] == "long"
    for number in range(5):
        await socket.send({"type": "chat", "text": f"line {number}"})
        await socket.receive_until("chat")
    await socket.send({"type": "chat", "text": "one too many"})
    error = await socket.receive_until("error")
    assert error["code"] == "rate_limited" and error["message"]
    await socket.send({"type": "chat", "phrase": "no_such_phrase"})
    assert (await socket.receive_until("error"))["code"] == "bad_message"
    assert await db(ChatMessage.objects.filter(match=match).count)() == 5


@pytest.mark.asyncio
async def test_a_reconnecting_reader_gets_the_history_of_what_happened():
    match, users = await db(make_match)()
    socket, state = await seated(match, users[0])
    actor, actor_state = await seated(match, users[state["to_act"]])
    await actor.send({"type": "act", "ref": "a-1", "seq": 0, "action": actor_state["legal"][0]})
    await actor.receive_until("ack")
    await socket.send({"type": "sync"})
    fresh = await socket.receive_until("state")
    while fresh["seq"] < 1 or "history" not in fresh:
        fresh = await socket.receive_until("state")
    assert fresh["history"][-len(fresh["history"]):] and any(e["kind"] == "deal" for e in fresh["history"])


# ----- a casual table: your seat, a friend, the casual defaults ------------------------------

def new_table_post(client, **overrides):
    data = {"game": "allfours", "preset": "short_seven", "time_control": "30", "best_of": "1", "is_public": "on",
            "opt_players": "4", "opt_target_score": "14", "opt_kick_scoring": "trinidad", "opt_game_points": "1",
            "opt_hang_jack_points": "3", "opt_follow_rule": "follow_or_trump", "opt_undertrump": "allowed",
            "opt_give_one_at_game": "allowed", "opt_game_tie": "none", "opt_timeout_result": "auto_action"}
    return client.post("/play/new/", {**data, **overrides})


@pytest.mark.parametrize("role, friend_seat", [("partner", 3), ("opponent", 2)])
def test_a_new_table_seats_you_where_you_chose_and_your_friend_beside_or_against_you(client, role, friend_seat):
    me, friend = make_user(), make_user()
    client.force_login(me)
    response = new_table_post(client, seat="1", friend=friend.username.upper(), friend_role=role)
    match = Match.objects.get(created_by=me)
    assert response.status_code == 302
    seats = dict(match.seats.values_list("seat", "user_id"))
    assert seats[1] == me.pk and seats[friend_seat] == friend.pk
    assert match.checkin_seconds > 0 and match.leaver_policy == "bot"


def test_inviting_an_unknown_player_or_yourself_is_a_form_error_and_creates_nothing(client):
    me = make_user()
    client.force_login(me)
    for name in ("nobody-by-this-name", me.username):
        response = new_table_post(client, friend=name)
        assert response.status_code == 200 and b"errorlist" in response.content
    assert not Match.objects.filter(created_by=me).exists()


def test_a_casual_table_plays_a_default_move_on_timeout_unless_told_otherwise(client):
    from gameplay.forms import NewTableForm

    form = NewTableForm(game="allfours")
    assert form["opt_timeout_result"].initial == "auto_action"


def test_a_player_gone_before_the_clocks_start_is_not_replaced_while_the_table_waits():
    match, users = make_match(time_control=30, checkin_seconds=120, reconnect_seconds=60)
    presence.arrived(match.pk, 0)
    presence.departed(match.pk, 0)
    assert presence.sweep_presence(now=timezone.now() + timedelta(seconds=90)) == 0
    assert not Seat.objects.get(match=match, seat=0).bot and reload(match).deadline is None
