"""Websocket clients for topology tests, following the table protocol (docs/live-protocol.md and
the contract it extends) as the browser's table client does.

A seat acts with a random legal action on the newest `state` it has, one act at a time, each with
a ref unique to the seat and seq. When its socket is lost before the act's `ack` came, it connects
again (to the next process in its list: the one it was on may be dead) and resends the same act,
same ref: the server applies an act at most once and acks a resent ref again. A table quiet for a
while gets a `sync`, as the browser does after a reconnect.

A spectator only listens, so that every `state` it records is one the table broadcast: the order
and completeness of what the processes fan out is what a test reads from it.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from dataclasses import dataclass, field

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidStatus, WebSocketException

SEAT_QUIET_SECONDS = 3.0  # a seat that hears nothing this long asks for a fresh state
SPECTATOR_QUIET_SECONDS = 5.0  # only when the test allows spectators to sync
RECONNECT_PAUSE = 0.3
CONNECT_TIMEOUT = 20
LOST = (OSError, asyncio.TimeoutError, InvalidHandshake, WebSocketException)


@dataclass
class Record:
    """What every client of one table saw and did."""

    frames: list = field(default_factory=list)  # (who, server name, frame); who: seat or "spectator-<name>"
    acks: Counter = field(default_factory=Counter)  # ref -> acks received
    sent: Counter = field(default_factory=Counter)  # ref -> times sent (a resend after a reconnect counts)
    connections: list = field(default_factory=list)  # (who, server name), in order
    losses: list = field(default_factory=list)  # (who, server name, what ended the socket)

    def states(self, who) -> list[dict]:
        return [frame for w, _server, frame in self.frames if w == who and frame["type"] == "state"]

    def errors(self) -> list[dict]:
        return [frame for _w, _server, frame in self.frames if frame["type"] == "error"]

    def last_seen(self) -> dict:
        last = {}
        for who, server, frame in self.frames:
            last[who] = (server, frame["type"], frame.get("seq"), frame.get("status"), frame.get("code"))
        return last


async def play_seat(servers, table: dict, seat: dict, rng: random.Random, record: Record,
                    on_state=None) -> None:
    """Play `seat` ({"seat", "cookie"}) at `table` until the match is over. `servers` are the
    processes to use, the first one first; on a lost socket the next one is tried, round and round."""
    who = seat["seat"]
    index = 0
    pending: dict | None = None  # the act sent and not yet answered
    acted: set[int] = set()  # seqs this seat has acted on
    latest: dict | None = None
    while True:
        server = servers[index % len(servers)]
        try:
            async with connect(server.ws_url + table["ws"], origin=server.url,
                               additional_headers={"Cookie": seat["cookie"]}, open_timeout=CONNECT_TIMEOUT,
                               close_timeout=2, proxy=None) as socket:
                record.connections.append((who, server.name))
                if pending is not None:
                    record.sent[pending["ref"]] += 1
                    await socket.send(json.dumps(pending))
                while True:
                    try:
                        raw = await asyncio.wait_for(socket.recv(), SEAT_QUIET_SECONDS)
                    except asyncio.TimeoutError:
                        await socket.send(json.dumps({"type": "sync"}))
                        continue
                    frame = json.loads(raw)
                    record.frames.append((who, server.name, frame))
                    kind = frame["type"]
                    if kind == "state":
                        if on_state is not None:
                            on_state(who, server, frame)
                        if latest is None or frame["seq"] >= latest["seq"]:
                            latest = frame
                        if frame["status"] != "playing":
                            return
                    elif kind == "ack":
                        record.acks[frame["ref"]] += 1
                        if pending is not None and frame["ref"] == pending["ref"]:
                            pending = None
                    elif kind == "error":
                        if frame["code"] == "finished":
                            return
                        if pending is not None and frame.get("ref") == pending["ref"]:
                            pending = None  # stale: the fresh state follows
                    if (pending is None and latest is not None and latest["status"] == "playing"
                            and latest["legal"] and latest["seq"] not in acted):
                        acted.add(latest["seq"])
                        pending = {"type": "act", "ref": f"s{who}-{latest['seq']}", "seq": latest["seq"],
                                   "action": rng.choice(latest["legal"])}
                        record.sent[pending["ref"]] += 1
                        await socket.send(json.dumps(pending))
        except InvalidStatus as refused:
            if refused.response.status_code in (403, 404):
                raise  # refused for a reason a reconnect does not change
            record.losses.append((who, server.name, repr(refused)))
        except LOST as lost:
            record.losses.append((who, server.name, repr(lost)))
        index += 1
        await asyncio.sleep(RECONNECT_PAUSE)


async def watch(servers, table: dict, name: str, record: Record, connected: asyncio.Event,
                sync_when_quiet: bool = False, on_state=None) -> None:
    """A spectator: records every frame until the match is over. Connects to `servers[0]` (and
    on a lost socket to the next ones). Sends nothing unless `sync_when_quiet`."""
    who = f"spectator-{name}"
    index = 0
    while True:
        server = servers[index % len(servers)]
        try:
            async with connect(server.ws_url + table["ws"], origin=server.url, open_timeout=CONNECT_TIMEOUT,
                               close_timeout=2, proxy=None) as socket:
                record.connections.append((who, server.name))
                while True:
                    try:
                        raw = await asyncio.wait_for(socket.recv(), SPECTATOR_QUIET_SECONDS)
                    except asyncio.TimeoutError:
                        if sync_when_quiet:
                            await socket.send(json.dumps({"type": "sync"}))
                        continue
                    frame = json.loads(raw)
                    record.frames.append((who, server.name, frame))
                    if frame["type"] != "state":
                        continue
                    connected.set()
                    if on_state is not None:
                        on_state(who, server, frame)
                    if frame["status"] != "playing":
                        return
        except LOST as lost:
            record.losses.append((who, server.name, repr(lost)))
        index += 1
        await asyncio.sleep(RECONNECT_PAUSE)
