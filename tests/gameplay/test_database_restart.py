"""PostgreSQL goes away mid-play and comes back (issue 33, "Bad input and faults"): while it is
away a player's act is answered with the protocol's `error` (`unavailable`, docs/live-protocol.md)
on a socket that stays open, nothing acked is lost, and the same act resent once the database is
back is applied exactly once. The table's own PostgreSQL (an embedded server in a temporary
folder) is stopped and started again under a live ASGI server."""

import asyncio
import json
from urllib.parse import quote

import psycopg
import pytest
from websockets.asyncio.client import connect

from config import embedded_postgres
from tests.conftest import running_asgi_server
from tests.foundation.helpers import clean_env, manage

pytestmark = [pytest.mark.slow, pytest.mark.integration]

FRAME_TIMEOUT = 30


async def next_frame(socket, accept) -> dict:
    """The next frame `accept` takes, skipping the others (states of other moves, chat)."""
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), timeout=FRAME_TIMEOUT))
        if accept(frame):
            return frame


def acked_refs(var_dir, match_id: int) -> list[str]:
    with psycopg.connect(host=str(embedded_postgres.socket_dir(var_dir)), user="postgres",
                         dbname=embedded_postgres.DATABASE_NAME) as connection:
        rows = connection.execute("SELECT ref FROM gameplay_matchaction WHERE match_id = %s ORDER BY seq",
                                  [match_id]).fetchall()
    return [ref for (ref,) in rows]


@pytest.mark.timeout(300)
def test_a_database_that_goes_away_and_comes_back_mid_play_loses_nothing_acked(tmp_path, redis_server,
                                                                               monkeypatch):
    database = embedded_postgres.start(tmp_path)
    try:
        db_url = f"postgres://postgres@{quote(str(embedded_postgres.socket_dir(tmp_path)), safe='')}/chalk"
        from django.conf import settings

        # The live server's var/ folder (its dev secret key signs the sessions made here).
        env = clean_env(DEBUG=1, DATABASE_URL=db_url, REDIS_URL=redis_server, CHALK_VAR_DIR=settings.VAR_DIR)
        assert manage("migrate", "--noinput", env=env, timeout=180).returncode == 0
        made = manage("make_tables", "--tables", "1", "--prefix", "dbgone", env=env)
        assert made.returncode == 0, made.stderr
        table = json.loads(made.stdout)["tables"][0]
        monkeypatch.setenv("DB_POOL_TIMEOUT", "2")  # a request gives up on the pool quickly
        with running_asgi_server(db_url, redis_server, tmp_path / "uvicorn.log") as server:
            database = asyncio.run(play_through_an_outage(server, table, tmp_path, database))
            log = server.log()
        refs = acked_refs(tmp_path, table["match"])
        assert refs == ["before-0", "before-1", "during", "after"], refs  # each acked act once, in order
        assert "Traceback" not in log, log[-4000:]
    finally:
        embedded_postgres.stop_running(tmp_path)


async def play_through_an_outage(server, table: dict, var_dir, database):
    sockets = {}
    for seat in table["seats"]:
        headers = {"Origin": server.url, "Cookie": seat["cookie"]}
        sockets[seat["seat"]] = await connect(server.ws_url + table["ws"], additional_headers=headers,
                                              open_timeout=20)
    states = {seat: await next_frame(socket, lambda frame: frame["type"] == "state")
              for seat, socket in sockets.items()}
    state = states[0]

    async def act(ref: str, on_state: dict) -> tuple[int, dict, dict]:
        seat = on_state["to_act"]
        own = states[seat] if states[seat]["seq"] == on_state["seq"] else on_state
        action = own["legal"][0] if own.get("legal") else None
        assert action is not None, own
        message = {"type": "act", "ref": ref, "seq": on_state["seq"], "action": action}
        await sockets[seat].send(json.dumps(message))
        reply = await next_frame(sockets[seat], lambda frame: frame.get("ref") == ref)
        return seat, message, reply

    for number in range(2):
        seat, _, reply = await act(f"before-{number}", state)
        assert reply["type"] == "ack", reply
        for reader, socket in sockets.items():
            states[reader] = await next_frame(socket, lambda frame, seq=reply["seq"]:
                                              frame["type"] == "state" and frame["seq"] == seq)
        state = states[0]

    # The act that was on its way as the database went: acked before, so it must be kept.
    seat, message, reply = await act("during", state)
    assert reply["type"] == "ack", reply
    for reader, socket in sockets.items():
        states[reader] = await next_frame(socket, lambda frame, seq=reply["seq"]:
                                          frame["type"] == "state" and frame["seq"] == seq)
    state = states[0]

    embedded_postgres.stop(database)  # PostgreSQL goes away
    seat, message, reply = await act("after", state)
    assert reply["type"] == "error" and reply["code"] == "unavailable", reply
    assert reply["ref"] == "after"

    database = embedded_postgres.start(var_dir)  # ...and comes back
    for _ in range(20):  # the pool notices the new server within a few tries
        await sockets[seat].send(json.dumps(message))
        reply = await next_frame(sockets[seat], lambda frame: frame.get("ref") == "after")
        if reply["type"] == "ack":
            break
        assert reply["code"] == "unavailable", reply
        await asyncio.sleep(0.5)
    assert reply["type"] == "ack", reply
    await sockets[seat].send(json.dumps(message))  # resent once more: acked again, played once
    again = await next_frame(sockets[seat], lambda frame: frame.get("ref") == "after")
    assert again == reply
    for socket in sockets.values():
        await socket.close()
    return database
