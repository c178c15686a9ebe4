"""The live table socket against the real channel layer (Redis) and database: every error code
of docs/contracts/protocol.md, reconnects, two tabs, spectators."""

import asyncio

import pytest
from channels.db import database_sync_to_async as db

from gameplay.models import MatchAction

from .helpers import make_match, make_user, table_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def seated(match, user):
    socket = table_socket(match.pk, user)
    assert await socket.connect()
    state = await socket.receive()
    assert state["type"] == "state"
    return socket, state


async def new_table(**kwargs):
    return await db(make_match)(**kwargs)


async def test_connecting_sends_the_seat_its_own_state():
    match, users = await new_table()
    socket, state = await seated(match, users[2])
    assert state["seat"] == 2 and state["match"] == match.pk and state["seq"] == 0
    assert state["status"] == "playing" and len(state["view"]["hand"]) == 6
    assert state["events"] == []
    await socket.close()


async def test_an_accepted_act_is_acked_and_every_socket_gets_its_own_state():
    match, users = await new_table()
    sockets = [await seated(match, user) for user in users]
    spectator, _ = await seated(match, None)
    actor = sockets[0][1]["to_act"]
    socket, state = sockets[actor]
    await socket.send({"type": "act", "ref": "c-1", "seq": 0, "action": state["legal"][0]})
    frames = [await socket.receive(), await socket.receive()]
    assert {"type": "ack", "ref": "c-1", "seq": 1} in frames
    for seat, (other, _) in enumerate(sockets):
        if seat != actor:
            update = await other.receive()
            assert update["seat"] == seat and update["seq"] == 1 and update["events"]
    watched = await spectator.receive()
    assert watched["seat"] is None and watched["view"]["hand"] == []
    for socket, _ in sockets + [(spectator, None)]:
        await socket.close()


@pytest.mark.parametrize("frame, code", [
    ("not json", "bad_message"),
    ('["a list"]', "bad_message"),
    ('{"type": "dance"}', "bad_message"),
    ('{"type": "act", "seq": 0}', "bad_message"),
    ('{"type": "act", "ref": "r", "seq": 0, "action": {"card": "AS"}}', "bad_message"),
])
async def test_malformed_messages_get_bad_message_and_keep_the_socket_open(frame, code):
    match, users = await new_table()
    socket, _ = await seated(match, users[0])
    await socket.send(frame)
    error = await socket.receive()
    assert error["type"] == "error" and error["code"] == code and error["message"]
    await socket.send({"type": "sync"})
    assert (await socket.receive())["type"] == "state"
    assert await db(MatchAction.objects.count)() == 0
    await socket.close()


async def test_not_your_turn_illegal_action_and_spectators_are_refused():
    match, users = await new_table()
    sockets = [await seated(match, user) for user in users]
    actor = sockets[0][1]["to_act"]
    waiting, _ = sockets[(actor + 1) % 4]
    await waiting.send({"type": "act", "ref": "w", "seq": 0, "action": {"type": "stand"}})
    assert (await waiting.receive())["code"] == "not_your_turn"
    socket, _ = sockets[actor]
    await socket.send({"type": "act", "ref": "i", "seq": 0, "action": {"type": "play", "card": "AS"}})
    error = await socket.receive()
    assert error["code"] == "illegal_action" and "not possible" in error["message"]
    spectator, _ = await seated(match, await db(make_user)())
    await spectator.send({"type": "act", "ref": "s", "seq": 0, "action": {"type": "stand"}})
    assert (await spectator.receive())["code"] == "forbidden"
    assert await db(MatchAction.objects.count)() == 0


async def test_a_stale_seq_gets_stale_and_a_fresh_state():
    match, users = await new_table()
    sockets = [await seated(match, user) for user in users]
    actor = sockets[0][1]["to_act"]
    socket, state = sockets[actor]
    await socket.send({"type": "act", "ref": "a", "seq": 0, "action": state["legal"][0]})
    await socket.receive_until("ack")
    await socket.send({"type": "act", "ref": "b", "seq": 0, "action": state["legal"][0]})
    assert (await socket.receive_until("error"))["code"] == "stale"
    fresh = await socket.receive_until("state")
    assert fresh["seq"] == 1


async def test_an_act_resent_after_a_reconnect_is_applied_once():
    match, users = await new_table()
    actor_seat = (await seated(match, users[0]))[1]["to_act"]
    socket, state = await seated(match, users[actor_seat])
    act = {"type": "act", "ref": "c-81", "seq": 0, "action": state["legal"][0]}
    await socket.send(act)
    assert (await socket.receive_until("ack"))["seq"] == 1
    await socket.close()
    again, state = await seated(match, users[actor_seat])
    assert state["seq"] == 1
    await again.send(act)
    assert await again.receive_until("ack") == {"type": "ack", "ref": "c-81", "seq": 1}
    assert await db(MatchAction.objects.count)() == 1


async def test_two_tabs_of_one_player_share_the_seat_and_the_first_act_wins():
    match, users = await new_table()
    actor = (await seated(match, users[0]))[1]["to_act"]
    first, state = await seated(match, users[actor])
    second, state_two = await seated(match, users[actor])
    assert state_two["seat"] == state["seat"] == actor
    await first.send({"type": "act", "ref": "tab1", "seq": 0, "action": state["legal"][0]})
    await first.receive_until("ack")
    await second.send({"type": "act", "ref": "tab2", "seq": 0, "action": state["legal"][1]})
    assert (await second.receive_until("error"))["code"] == "stale"


async def test_a_finished_match_refuses_acts_with_finished():
    match, users = await new_table(humans=1, bots=3, options={"target_score": 1})
    (human,) = users
    socket, state = await seated(match, human)
    while state["status"] == "playing":
        if state["to_act"] == 0:
            await socket.send({"type": "act", "ref": f"h{state['seq']}", "seq": state["seq"],
                               "action": state["legal"][0]})
        state = await socket.receive_until("state")
    assert state["status"] == "finished" and state["view"]["match"]["winner"] in (0, 1)
    await socket.send({"type": "act", "ref": "late", "seq": state["seq"], "action": {"type": "stand"}})
    assert (await socket.receive_until("error"))["code"] == "finished"


async def test_a_private_table_closes_a_strangers_socket_with_forbidden():
    match, users = await new_table(is_public=False)
    socket = table_socket(match.pk, await db(make_user)())
    assert await socket.connect()
    error = await socket.receive()
    assert error["code"] == "forbidden"
    closed = await socket.receive_output(2)
    assert closed["type"] == "websocket.close" and closed["code"] == 4403


async def test_flooding_the_socket_gets_rate_limited():
    match, users = await new_table()
    socket, _ = await seated(match, users[0])
    for _ in range(60):
        await socket.send({"type": "sync"})
    codes = []
    for _ in range(60):
        frame = await socket.receive()
        codes.append(frame.get("code"))
    assert "rate_limited" in codes


async def test_the_origin_of_a_socket_must_be_an_allowed_host():
    from config.asgi import application

    from .helpers import Socket

    match, _ = await new_table()
    socket = Socket(application, f"/ws/matches/{match.pk}/", headers=[(b"origin", b"https://evil.example")])
    await socket.send_input({"type": "websocket.connect"})
    assert (await socket.receive_output(5))["type"] == "websocket.close"
    await asyncio.sleep(0)
