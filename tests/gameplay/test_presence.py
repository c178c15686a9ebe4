"""Presence at the table (issue 32): every `state` frame shows each seat connected, reconnecting
(with the end of the reconnect window) or replaced by a bot; a seat's first socket opening and
its last one closing show it to everyone; a replaced player who comes back takes the seat back
through the one door (`return`), and one whose seat another person holds is told so."""

from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async as db
from django.utils import timezone

from gameplay import presence, services
from gameplay.models import Match, MatchAction, Seat
from gameplay.services.moves import SEAT_HELD
from gameplay.table import MatchSpec, Table

from .helpers import make_match, make_user, table_socket

pytestmark = pytest.mark.django_db(transaction=True)


def states(frame) -> dict:
    return {entry["seat"]: entry["state"] for entry in frame["presence"]}


def back_by(frame, seat):
    value = next(entry for entry in frame["presence"] if entry["seat"] == seat)["back_by"]
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None


async def seated(match, user):
    socket = table_socket(match.pk, user)
    assert await socket.connect()
    return socket, await socket.receive_until("state")


async def next_state(socket, test, tries=10):
    for _ in range(tries):
        frame = await socket.receive_until("state")
        if test(frame):
            return frame
    raise AssertionError("no such state frame")


# ----- the frames ---------------------------------------------------------------------------

def test_a_first_arrival_at_a_running_table_shows_in_the_next_frames_without_a_broadcast():
    match, users = make_match()  # no check-in window: the clocks run from the start
    assert presence.arrived(match.pk, 1) is None
    assert states(services.current_state(match.pk, users[0]))[1] == "connected"


def test_every_frame_shows_each_seat_connected_reconnecting_or_a_bot():
    match, users = make_match(humans=2, bots=2, reconnect_seconds=60)
    frame = services.current_state(match.pk, users[0])
    assert states(frame) == {0: "reconnecting", 1: "reconnecting", 2: "bot", 3: "bot"}
    presence.arrived(match.pk, 0)
    presence.arrived(match.pk, 1)
    frame = services.current_state(match.pk, users[0])
    assert states(frame) == {0: "connected", 1: "connected", 2: "bot", 3: "bot"}
    before = timezone.now()
    presence.departed(match.pk, 1)
    frame = services.current_state(match.pk, None)  # a spectator sees it too
    assert states(frame)[1] == "reconnecting"
    assert before + timedelta(seconds=59) <= back_by(frame, 1) <= timezone.now() + timedelta(seconds=61)
    # a move's frames (the locked door) carry it as well
    match = Match.objects.get(pk=match.pk)
    state = services.current_state(match.pk, users[0])
    if state["to_act"] == 0:
        outcome = services.take(match.pk, services.Act.by_player(users[0], match.seq, "p-1", state["legal"][0]))
        assert states(outcome.messages[0])[1] == "reconnecting"
        assert states(outcome.messages["spectator"])[0] == "connected"


def test_a_seat_away_while_the_clocks_are_held_has_no_countdown_yet():
    match, users = make_match(time_control=30, checkin_seconds=120)
    presence.arrived(match.pk, 0)
    presence.departed(match.pk, 0)
    frame = services.current_state(match.pk, users[1])
    assert states(frame)[0] == "reconnecting" and back_by(frame, 0) is None


def test_a_second_socket_of_a_connected_player_broadcasts_nothing():
    match, users = make_match(time_control=30, checkin_seconds=120)
    assert presence.arrived(match.pk, 2) is not None  # the table waits for it: everyone sees it come
    assert presence.arrived(match.pk, 2) is None  # a second tab changes nothing anyone sees
    presence.departed(match.pk, 2)
    assert states(services.current_state(match.pk, None))[2] == "connected"  # one tab still open


@pytest.mark.asyncio
async def test_the_others_see_the_countdown_start_when_a_player_drops_and_stop_when_they_are_back():
    match, users = await db(make_match)(reconnect_seconds=60)
    watcher, first = await seated(match, users[0])
    assert states(first)[0] == "connected"
    dropping, _ = await seated(match, users[1])
    await dropping.close()
    away = await next_state(watcher, lambda f: states(f)[1] == "reconnecting")
    assert back_by(away, 1) > timezone.now() + timedelta(seconds=50)
    assert away["seq"] == first["seq"] and away["events"] == []  # nothing was played
    again, _ = await seated(match, users[1])
    await next_state(watcher, lambda f: states(f)[1] == "connected")
    await again.close()
    await watcher.close()


# ----- taking the seat back -----------------------------------------------------------------

@pytest.mark.asyncio
async def test_a_replaced_player_who_comes_back_takes_the_seat_back_and_everyone_sees_it():
    match, users = await db(make_match)(rated=True, reconnect_seconds=60)
    watcher, _ = await seated(match, users[0])
    leaver, _ = await seated(match, users[2])
    await leaver.send({"type": "leave", "ref": "l-1"})
    await leaver.receive_until("ack")
    replaced = await next_state(watcher, lambda f: states(f)[2] == "replaced")
    assert replaced["view"]["match"]["replaced"] == [2]
    await leaver.close()
    back, state = await seated(match, users[2])  # the bot hands the seat over
    assert states(state)[2] == "connected" and state["view"]["match"]["replaced"] == []
    seen = await next_state(watcher, lambda f: {"kind": "returned", "seat": 2} in f["events"])
    assert states(seen)[2] == "connected"
    seat = await db(Seat.objects.get)(match=match, seat=2)
    row = await db(Match.objects.get)(pk=match.pk)
    assert seat.bot == "" and not row.rated and row.status == "playing"
    logged = await db(lambda: list(MatchAction.objects.filter(match=match).values_list("action", "actor_id")))()
    assert ({"seat": 2, "type": "return"}, users[2].pk) in logged
    # the seat's decisions are the player's again
    await back.send({"type": "sync"})
    state = await back.receive_until("state")
    while state["to_act"] != 2 and state["status"] == "playing":
        actor = users[state["to_act"]]
        await db(services.take)(match.pk, services.Act.by_player(actor, state["seq"], f"x{state['seq']}",
                                                                  (await db(services.current_state)(match.pk, actor))["legal"][0]))
        state = await db(services.current_state)(match.pk, users[2])
    if state["status"] == "playing":
        await back.send({"type": "act", "ref": "mine", "seq": state["seq"], "action": state["legal"][0]})
        assert (await back.receive_until("ack"))["seq"] == state["seq"] + 1
    await back.close()
    await watcher.close()


def test_the_return_is_in_the_log_and_replays_to_the_same_table():
    match, users = make_match(humans=2, bots=2)
    services.take(match.pk, services.Act.at_table(users[1], "l-1", "leave"))
    assert Seat.objects.get(match=match, seat=1).bot
    presence.arrived(match.pk, 1)
    assert Seat.objects.get(match=match, seat=1).bot == ""
    actions = list(MatchAction.objects.filter(match=match).order_by("seq").values_list("action", flat=True))
    table = Table.replay(services.spec_of(match), actions)
    assert table.replaced == [] and {"kind": "returned", "seat": 1} in table.history
    assert not Match.objects.get(pk=match.pk).rated


@pytest.mark.asyncio
async def test_a_player_whose_seat_another_person_holds_is_told_and_nothing_changes():
    match, users = await db(make_match)()
    leaver, state = await seated(match, users[3])
    await leaver.send({"type": "leave", "ref": "l-1"})
    await leaver.receive_until("ack")
    await leaver.close()
    stranger = await db(make_user)()
    await db(lambda: Seat.objects.filter(match=match, seat=3).update(user=stranger, bot=""))()
    services.forget_table(match.pk)
    before = await db(lambda: MatchAction.objects.filter(match=match).count())()
    socket = table_socket(match.pk, users[3])
    assert await socket.connect()
    frame = await socket.receive_until("state")
    assert frame["seat"] is None
    told = await socket.receive_until("error")
    assert told["code"] == "forbidden" and told["message"] == SEAT_HELD
    await socket.send({"type": "return", "ref": "r-1"})
    refused = await socket.receive_until("error")
    assert refused["code"] == "forbidden" and refused["message"] == SEAT_HELD and refused["ref"] == "r-1"
    seat = await db(Seat.objects.get)(match=match, seat=3)
    assert seat.user_id == stranger.pk and seat.bot == ""
    assert await db(lambda: MatchAction.objects.filter(match=match).count())() == before
    await socket.close()


@pytest.mark.asyncio
async def test_return_when_you_play_your_seat_or_as_an_act_is_refused():
    match, users = await db(make_match)()
    socket, state = await seated(match, users[0])
    await socket.send({"type": "return", "ref": "r-1"})
    assert (await socket.receive_until("error"))["code"] == "illegal_action"
    await socket.send({"type": "act", "ref": "r-2", "seq": state["seq"], "action": {"type": "return"}})
    assert (await socket.receive_until("error"))["code"] == "bad_message"
    assert await db(lambda: MatchAction.objects.filter(match=match).count())() == 0
    await socket.close()


def test_the_table_refuses_a_return_for_a_seat_no_bot_plays():
    from gameplay.rules import IllegalAction

    table = Table(MatchSpec("allfours", seed=3))
    with pytest.raises(IllegalAction):
        table.apply({"seat": 1, "type": "return"})
    table.apply({"seat": 1, "type": "replace"})
    table.apply({"seat": 1, "type": "return"})
    assert table.replaced == [] and table.events == [{"kind": "returned", "seat": 1}]


def test_the_replay_has_a_step_for_the_return():
    from gameplay import replay_cache
    import orjson

    match, users = make_match(humans=2, bots=2)
    services.take(match.pk, services.Act.at_table(users[1], "l-1", "leave"))
    presence.arrived(match.pk, 1)  # back: the bot hands the seat over
    services.take(match.pk, services.Act.at_table(users[0], "k-1", "concede"))  # a bot partner agrees: over
    match.refresh_from_db()
    assert match.status == "finished"
    frames = orjson.loads(replay_cache.replay_data(match).games_json)[-1]
    acts = [(frame["action"]["type"], [event["kind"] for event in frame["view"]["events"]])
            for frame in frames if frame["action"] and frame["action"]["type"] in ("replace", "return")]
    assert acts == [("replace", ["replaced"]), ("return", ["returned"])]


@pytest.mark.asyncio
async def test_a_drop_seen_by_another_process_makes_this_one_read_the_seats_again():
    """Two processes: this one's cached table still counts seat 1's socket, the other saw it
    close and broadcast; this process's sockets drop the stale copy, so its next (fast) move
    does not show seat 1 connected again."""
    match, users = await db(make_match)(reconnect_seconds=60)
    watcher, _ = await seated(match, users[0])
    await db(presence.arrived)(match.pk, 1)  # seat 1's socket, in "the other process"
    await db(services.current_state)(match.pk, users[0])
    stale = services.cached_table(match.pk)
    assert stale.sockets[1][0] == 1

    def other_process_sees_the_drop():
        Seat.objects.filter(match=match, seat=1).update(connections=0, away_since=timezone.now())
        presence.show_presence(match.pk)
        services.put_table(stale)  # this process's copy, as it was

    await db(other_process_sees_the_drop)()
    await next_state(watcher, lambda f: states(f)[1] == "reconnecting")
    assert services.cached_table(match.pk) is None  # dropped: the next move reads the seats again
    await watcher.close()
