"""The table socket's limits and endings (docs/live-protocol.md): binary and oversized frames,
the per-user cap on open sockets, a resent ref acked only to its own seat, and a client that
goes away while an update is being sent."""

import asyncio
import logging

import pytest
from channels.db import database_sync_to_async as db
from channels.routing import URLRouter
from django.test import override_settings

from gameplay.consumers import CLOSE_TOO_BIG, CLOSE_TOO_MANY_SOCKETS
from gameplay.models import MatchAction
from gameplay.routing import websocket_urlpatterns

from .helpers import make_match, make_user, table_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def seated(match, user):
    socket = table_socket(match.pk, user)
    assert await socket.connect()
    state = await socket.receive()
    assert state["type"] == "state"
    return socket, state


async def test_a_binary_frame_gets_bad_message_and_the_socket_stays_open():
    match, users = await db(make_match)()
    socket, _ = await seated(match, users[0])
    await socket.send_input({"type": "websocket.receive", "bytes": b"\x00\xff"})
    assert (await socket.receive())["code"] == "bad_message"
    await socket.send({"type": "sync"})
    assert (await socket.receive())["type"] == "state"
    await socket.close()


@override_settings(WS_MAX_MESSAGE_CHARS=100)
async def test_a_frame_over_the_size_limit_is_closed_with_1009():
    match, users = await db(make_match)()
    socket, _ = await seated(match, users[0])
    await socket.send('{"type": "sync", "pad": "' + "x" * 100 + '"}')
    closed = await socket.receive_output(5)
    assert closed["type"] == "websocket.close" and closed["code"] == CLOSE_TOO_BIG


@override_settings(WS_MAX_SOCKETS_PER_USER=2)
async def test_a_user_past_the_socket_cap_is_closed_with_4429_until_one_closes():
    match, users = await db(make_match)()
    first, _ = await seated(match, users[0])
    second, _ = await seated(match, users[0])
    third = table_socket(match.pk, users[0])
    assert await third.connect()
    assert (await third.receive())["code"] == "rate_limited"
    assert (await third.receive_output(5))["code"] == CLOSE_TOO_MANY_SOCKETS
    await first.close()
    again, state = await seated(match, users[0])  # a slot was given back
    assert state["seat"] == 0
    await again.close()
    await second.close()


async def test_a_resent_ref_is_acked_only_to_the_seat_that_made_the_act():
    match, users = await db(make_match)()
    actor = (await seated(match, users[0]))[1]["to_act"]
    socket, state = await seated(match, users[actor])
    act = {"type": "act", "ref": "R1", "seq": 0, "action": state["legal"][0]}
    await socket.send(act)
    assert (await socket.receive_until("ack"))["seq"] == 1
    other, _ = await seated(match, users[(actor + 1) % 4])
    await other.send(act)
    assert (await other.receive_until("error"))["code"] in {"stale", "not_your_turn", "bad_message"}
    spectator, _ = await seated(match, await db(make_user)())
    await spectator.send(act)
    assert (await spectator.receive_until("error"))["code"] == "forbidden"
    await socket.send(act)  # its own resend: the same ack again
    assert await socket.receive_until("ack") == {"type": "ack", "ref": "R1", "seq": 1}
    assert await db(MatchAction.objects.count)() == 1


async def test_a_client_gone_while_an_update_is_sent_ends_its_socket_without_an_error(caplog):
    match, users = await db(make_match)()
    actor = (await seated(match, users[0]))[1]["to_act"]
    watcher = users[(actor + 1) % 4]
    inbox, sent, gone = asyncio.Queue(), [], asyncio.Event()

    async def send(message):  # what uvicorn does once the client has closed
        if message["type"] == "websocket.send" and any(m["type"] == "websocket.send" for m in sent):
            gone.set()
            raise OSError("ClientDisconnected")
        sent.append(message)

    scope = {"type": "websocket", "path": f"/ws/matches/{match.pk}/", "query_string": b"", "headers": [],
             "subprotocols": [], "user": watcher}
    app = asyncio.ensure_future(URLRouter(websocket_urlpatterns)(scope, inbox.get, send))
    await inbox.put({"type": "websocket.connect"})
    actor_socket, state = await seated(match, users[actor])
    while len(sent) < 2:  # accepted, and its first state sent
        await asyncio.sleep(0.01)
    await actor_socket.send({"type": "act", "ref": "a", "seq": 0, "action": state["legal"][0]})
    await actor_socket.receive_until("ack")
    await gone.wait()
    with caplog.at_level(logging.ERROR):
        assert await asyncio.wait_for(app, 10) is None  # ended, not raised
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    await actor_socket.close()


@pytest.mark.parametrize("number", [2**64, 10**30, -(2**63) - 1, 2**63])
async def test_an_act_holding_an_integer_past_64_bits_is_a_bad_message_and_changes_nothing(number):
    match, users = await db(make_match)()
    actor = (await seated(match, users[0]))[1]["to_act"]
    socket, state = await seated(match, users[actor])

    await socket.send({"type": "act", "ref": "big", "seq": 0, "action": {**state["legal"][0], "n": number}})

    error = await socket.receive_until("error")
    assert (error["code"], error["ref"]) == ("bad_message", "big")
    assert await db(MatchAction.objects.count)() == 0
    await socket.send({"type": "act", "ref": "fine", "seq": 0, "action": state["legal"][0]})
    assert (await socket.receive_until("ack"))["seq"] == 1  # the socket and the table go on
    await socket.close()


@override_settings(WS_RATE_BURST=1, WS_RATE_PER_SECOND=0.001)
async def test_a_rate_limited_act_is_refused_with_its_ref():
    match, users = await db(make_match)()
    socket, state = await seated(match, users[0])
    await socket.send({"type": "sync"})  # the one message the bucket holds
    await socket.receive_until("state")

    await socket.send({"type": "act", "ref": "dropped-7", "seq": 0, "action": {"type": "stand"}})

    assert await socket.receive() == {"type": "error", "ref": "dropped-7", "code": "rate_limited",
                                      "message": "Too many messages; slow down."}
    await socket.send("not json")
    assert (await socket.receive())["ref"] is None  # no act, no ref to name
    await socket.close()


async def test_another_seat_resending_an_acked_frame_gets_stale_and_the_current_state():
    match, users = await db(make_match)()
    actor = (await seated(match, users[0]))[1]["to_act"]
    socket, state = await seated(match, users[actor])
    act = {"type": "act", "ref": "R1", "seq": 0, "action": state["legal"][0]}
    await socket.send(act)
    assert (await socket.receive_until("ack"))["seq"] == 1
    other, _ = await seated(match, users[(actor + 1) % 4])

    await other.send(act)

    assert await other.receive_until("error") == {"type": "error", "ref": "R1", "code": "stale",
                                                  "message": "The table moved on; here is the current state."}
    assert (await other.receive_until("state"))["seq"] == 1  # the fresh state follows (protocol.md)
    assert await db(MatchAction.objects.count)() == 1
    await other.close()
    await socket.close()


async def test_a_ref_of_another_seats_act_on_the_current_seq_is_a_bad_message():
    match, users = await db(make_match)()  # All Fours: the first seat begs, the dealer answers
    actor = (await seated(match, users[0]))[1]["to_act"]
    socket, state = await seated(match, users[actor])
    await socket.send({"type": "act", "ref": "R1", "seq": 0, "action": {"type": "beg"}})
    assert (await socket.receive_until("ack"))["seq"] == 1
    state = await socket.receive_until("state")
    while state["seq"] != 1:  # a presence frame of seq 0 (a seat arriving) may come first
        state = await socket.receive_until("state")
    dealer = state["to_act"]
    assert dealer != actor
    other, now = await seated(match, users[dealer])

    await other.send({"type": "act", "ref": "R1", "seq": now["seq"], "action": now["legal"][0]})

    assert (await other.receive_until("error"))["code"] == "bad_message"
    assert await db(MatchAction.objects.count)() == 1
    await other.close()
    await socket.close()
