"""The live table socket, /ws/matches/<id>/ (shared/contracts/protocol.md).

Thin: parse, authorise, call one service, reply. Every change to a match goes through
gameplay.services, which commits before anything is sent. Group messages carry every reader's
view (the channel layer is internal); each socket forwards only its own seat's.
"""

import asyncio
import functools
import json
import time

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from gameplay import chat, conduct, frames, live_db, presence, services
from gameplay.services import ActionRejected

CLOSE_FORBIDDEN = 4403


class TokenBucket:
    def __init__(self, burst: int, per_second: float):
        self.capacity, self.rate = burst, per_second
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def error(code: str, message: str, ref=None) -> dict:
    return {"type": "error", "ref": ref, "code": code, "message": message}


async def on_database_thread(function, *args):
    """Run `function` on a database thread (see LIVE_DATABASE_THREADS), the way
    database_sync_to_async does, but without its connection housekeeping around every call:
    with CONN_HEALTH_CHECKS that is an extra `SELECT 1` round trip per move. Work on one match
    stays in order: gameplay.services holds the match's lock while it reads or moves a table."""
    executor = live_db.database_executor()
    if executor is None:
        return await sync_to_async(live_db.call_clean, thread_sensitive=True)(function, *args)
    # Straight to the pool: sync_to_async's context plumbing costs more than the move itself here
    # (Django's connections are per thread, nothing else rides on the context).
    return await asyncio.get_running_loop().run_in_executor(executor, live_db.call_clean, function, *args)


class MatchConsumer(AsyncJsonWebsocketConsumer):
    @classmethod
    async def encode_json(cls, content):
        return frames.encode(content)

    async def __call__(self, scope, receive, send):
        """Channels' consumer loop, with one long-lived reader per source (the socket, the
        channel layer) feeding `dispatch` under a lock, instead of a new task and an
        `asyncio.wait` for every message: a socket gets five messages a move, and that churn
        cost the server core several percent (benchmarks/live_load.py). Same guarantees:
        one message handled at a time, each source read in order, StopConsumer ends it."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await self.channel_layer.new_channel()
        self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
        self.base_send = send
        one_at_a_time = asyncio.Lock()

        async def read(source):
            while True:
                message = await source()
                async with one_at_a_time:
                    await self.dispatch(message)

        readers = [asyncio.ensure_future(read(receive)), asyncio.ensure_future(read(self.channel_receive))]
        try:
            done, _ = await asyncio.wait(readers, return_when=asyncio.FIRST_EXCEPTION)
            for reader in done:
                reader.result()  # a reader only ends by raising: StopConsumer on disconnect
        except StopConsumer:
            pass
        finally:
            for reader in readers:
                reader.cancel()
                try:
                    await reader
                except (asyncio.CancelledError, StopConsumer):
                    pass

    async def dispatch(self, message):
        # Channels hops to the database thread before every handler to close old connections:
        # five hops per move (one per socket's match.update), queued behind everyone's moves.
        # Handlers here reach the database only through the helpers above, which clean up.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope.get("user")
        self.bucket = TokenBucket(settings.WS_RATE_BURST, settings.WS_RATE_PER_SECOND)
        reader = await on_database_thread(services.reader_of, self.match_id, self.user)
        await self.accept()
        if not reader.may_watch:
            await self.send_json(error("forbidden", "You may not watch this table."))
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.seat = reader.seat
        self.group = services.group_name(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.seat is not None:  # fair starts and the reconnect window (gameplay/presence.py)
            started = await on_database_thread(presence.arrived, self.match_id, self.seat)
            if started is not None:  # this arrival started the clocks: publish from this loop
                await self.channel_layer.group_send(self.group, started.group_message())
        await self.send_state()

    async def disconnect(self, code):
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.seat is not None:
                await on_database_thread(presence.departed, self.match_id, self.seat)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.bucket.take():
            await self.send_json(error("rate_limited", "Too many messages; slow down."))
            return
        try:
            message = json.loads(text_data) if text_data is not None else None
        except ValueError:
            message = None
        if not isinstance(message, dict):
            await self.send_json(error("bad_message", "Send a JSON object with a type."))
            return
        await self.receive_json(message)

    async def receive_json(self, message, **kwargs):
        kind = message.get("type")
        if kind == "sync":
            await self.send_state()
        elif kind == "act":
            await self.act(message)
        elif kind in conduct.KINDS:
            await self.match_act(message)
        elif kind == "chat":
            await self.chat(message)
        elif kind == "chat_history":  # asked for, so that tools reading frames in order see none unasked
            await self.send_json({"type": "chat_history",
                                  "messages": await on_database_thread(chat.recent, self.match_id, self.seat)})
        else:
            await self.send_json(error("bad_message", f"Unknown message type {kind!r}.", message.get("ref")))

    async def act(self, message):
        ref = message.get("ref")
        if not isinstance(ref, str) or "seq" not in message or not isinstance(message.get("action"), dict):
            await self.send_json(error("bad_message", "An act needs ref, seq and action.", ref))
            return
        try:
            outcome = None
            if live_db.loop_writes_enabled():
                outcome = await services.asubmit_move(self.match_id, self.user, message["seq"], ref,
                                                      message["action"])
            if outcome is None:
                outcome = await on_database_thread(services.submit_action, self.match_id, self.user,
                                                   message["seq"], ref, message["action"], False)
        except ActionRejected as rejected:
            await self.send_json(error(rejected.code, rejected.message, ref))
            if rejected.code == "stale":
                await self.send_state()
            return
        # Committed: publish from this event loop, then acknowledge, then clocks and bots.
        if not outcome.duplicate:
            await self.channel_layer.group_send(self.group, outcome.group_message())
        await self.send_json({"type": "ack", "ref": ref, "seq": outcome.seq})
        if outcome.deadline is not None or outcome.bot_next:
            await on_database_thread(services.follow_up, outcome)

    async def match_act(self, message):
        """concede, concede_decline, leave (docs/protocol-extensions.md): broadcast by the
        service after its commit; the sender gets an ack."""
        ref = message.get("ref")
        try:
            outcome = await on_database_thread(conduct.submit, self.match_id, self.user, ref, message["type"])
        except ActionRejected as rejected:
            await self.send_json(error(rejected.code, rejected.message, ref if isinstance(ref, str) else None))
            return
        await self.send_json({"type": "ack", "ref": ref, "seq": outcome.seq})

    async def chat(self, message):
        ref = message.get("ref") if isinstance(message.get("ref"), str) else None
        try:
            line = await on_database_thread(chat.post, self.match_id, self.user, self.seat, message.get("text"),
                                            message.get("phrase"))
        except chat.ChatRefused as refused:
            await self.send_json(error(refused.code, refused.message, ref))
            return
        await self.channel_layer.group_send(self.group, {"type": "chat.message", "line": line})
        if ref is not None:
            await self.send_json({"type": "ack", "ref": ref, "seq": None})

    async def chat_message(self, event):
        if event["line"]["audience"] == chat.audience_of(self.seat):
            await self.send_json(event["line"])

    async def send_state(self):
        await self.send_json(await on_database_thread(services.current_state, self.match_id, self.user))

    async def match_update(self, event):
        reader = "spectator" if self.seat is None else str(self.seat)
        await self.send(text_data=event["head"] + event["tails"][reader])
