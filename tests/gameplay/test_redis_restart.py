"""Redis goes away mid-play and comes back (issue 33, "Bad input and faults"), the twin of
test_database_restart.py: while Redis is away a player's act is answered with the protocol's
`error` (`unavailable`, docs/live-protocol.md) on a socket that stays open, nothing acked is
lost, the same act resent once Redis is back is applied exactly once, and every reader sees the
table where it is again (the frames that could not be published are not lost on them). A socket
opened meanwhile is told `unavailable` and closed with 1013 (try again later), not with a 500. The
server's own Redis (an embedded redis-server in a temporary folder) is stopped and started
again, empty, under a live ASGI server; PostgreSQL stays up."""

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from config import embedded_redis
from gameplay.consumers import CLOSE_TRY_AGAIN
from gameplay.models import MatchAction
from tests.conftest import _test_database_url, running_asgi_server

from .test_database_restart import FRAME_TIMEOUT, next_frame
from .test_live_leaks import make_tables

pytestmark = [pytest.mark.slow, pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.mark.timeout(300)
def test_a_redis_that_goes_away_and_comes_back_mid_play_loses_nothing_acked(tmp_path, django_db_blocker):
    redis = {"server": embedded_redis.start(tmp_path)}  # the one running now, stopped at the end
    try:
        redis_url = embedded_redis.redis_url(tmp_path)
        table = make_tables("allfours", 1, {}, prefix="redisgone")[0]
        with running_asgi_server(_test_database_url(django_db_blocker), redis_url, tmp_path / "uvicorn.log") as server:
            asyncio.run(play_through_an_outage(server, table, tmp_path, redis))
            health = server.log()
        refs = list(MatchAction.objects.filter(match_id=table["match"]).order_by("seq").values_list("ref", flat=True))
        assert refs == ["before-0", "before-1", "after"], refs  # each acked act once, in order
        assert "Traceback" not in health, health[-4000:]
    finally:
        embedded_redis.stop(redis["server"])


async def play_through_an_outage(server, table: dict, var_dir, redis: dict) -> None:
    sockets = {}
    for seat in table["seats"]:
        headers = {"Origin": server.url, "Cookie": seat["cookie"]}
        sockets[seat["seat"]] = await connect(server.ws_url + table["ws"], additional_headers=headers,
                                              open_timeout=20)
    states = {seat: await next_frame(socket, lambda frame: frame["type"] == "state")
              for seat, socket in sockets.items()}

    async def act(ref: str) -> tuple[int, dict, dict]:
        state = states[0]
        seat = state["to_act"]
        action = states[seat]["legal"][0]
        message = {"type": "act", "ref": ref, "seq": state["seq"], "action": action}
        await sockets[seat].send(json.dumps(message))
        reply = await next_frame(sockets[seat], lambda frame: frame.get("ref") == ref)
        return seat, message, reply

    async def everyone_sees(seq: int) -> None:
        for reader, socket in sockets.items():
            states[reader] = await next_frame(socket, lambda frame: frame["type"] == "state" and frame["seq"] == seq)

    for number in range(2):
        _, _, reply = await act(f"before-{number}")
        assert reply["type"] == "ack", reply
        await everyone_sees(reply["seq"])

    embedded_redis.stop(redis["server"])  # Redis goes away (the channel layer, the cache, the broker)
    seat, message, reply = await act("after")
    assert reply["type"] == "error" and reply["code"] == "unavailable", reply
    assert reply["ref"] == "after"

    # A socket opened meanwhile: its session is read from PostgreSQL (config/sessions.py), and
    # as it cannot join the table's group it is told so and closed with "try again later".
    seat_zero = table["seats"][0]
    headers = {"Origin": server.url, "Cookie": seat_zero["cookie"]}
    async with connect(server.ws_url + table["ws"], additional_headers=headers, open_timeout=20) as early:
        refused = json.loads(await asyncio.wait_for(early.recv(), timeout=FRAME_TIMEOUT))
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(early.recv(), timeout=FRAME_TIMEOUT)
        assert early.close_code == CLOSE_TRY_AGAIN

    redis["server"] = embedded_redis.start(var_dir)  # ...and comes back, empty
    for _ in range(20):  # the connections notice the new server within a few tries
        await sockets[seat].send(json.dumps(message))
        reply = await next_frame(sockets[seat], lambda frame: frame.get("ref") == "after")
        if reply["type"] == "ack":
            break
        assert reply["code"] == "unavailable", reply
        await asyncio.sleep(0.5)
    assert reply["type"] == "ack", reply
    await everyone_sees(reply["seq"])  # every reader, the actor too, is told where the table is
    await sockets[seat].send(json.dumps(message))  # resent once more: acked again, played once
    again = await next_frame(sockets[seat], lambda frame: frame.get("ref") == "after")
    assert again == reply

    # A socket that opens now is served as before (the session from PostgreSQL, the group anew).
    async with connect(server.ws_url + table["ws"], additional_headers=headers, open_timeout=20) as late:
        fresh = await next_frame(late, lambda frame: frame["type"] == "state")
        assert fresh["seq"] == reply["seq"]
    for socket in sockets.values():
        await socket.close()
