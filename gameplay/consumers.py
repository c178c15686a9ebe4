"""The live table socket, /ws/matches/<id>/ (docs/contracts/protocol.md, and its extension in
docs/live-protocol.md: close codes, limits).

Thin: parse, authorise, call one service, reply. Every change to a match goes through
gameplay.services, which commits before anything is sent. Group messages carry every reader's
view (the channel layer is internal); each socket forwards only its own seat's.

No frame a client sends can end the socket with an exception: the text is parsed by orjson
(which refuses lone surrogates and runaway nesting as bad JSON), every field is checked before
it is used or echoed, and an oversized frame is closed with CLOSE_TOO_BIG. A real bug is logged
with its traceback where it happened and the socket is closed with CLOSE_SERVER_ERROR.
"""

import logging
import time
from collections import Counter

import orjson
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from gameplay import chat, frames, presence, rematch, services
from tuning.live_db import on_database_thread
from gameplay.services import ActionRejected, error_frame
from gameplay.services.aftermath import CHANNEL_LAYER_DOWN

logger = logging.getLogger("chalk.gameplay")

UNREACHABLE = "The table cannot be reached for a moment: connect again shortly."
UNSENT_CHAT = "The table cannot be reached for a moment: your line was kept but not sent to the others yet."
CLOSE_TOO_BIG = 1009  # RFC 6455: a frame over WS_MAX_MESSAGE_CHARS
CLOSE_SERVER_ERROR = 1011  # RFC 6455: a bug of ours, logged with its traceback
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "try again later": Redis (the channel layer) out of reach on connect
CLOSE_FORBIDDEN = 4403  # not allowed to watch this table
CLOSE_TOO_MANY_SOCKETS = 4429  # this user already has WS_MAX_SOCKETS_PER_USER table sockets open
STATUS_FINISHED = "finished"  # the protocol's status of a finished match (a rematch may be open)


class TokenBucket:
    def __init__(self, burst: int, per_second: float, clock=time.monotonic):
        self.clock = clock
        self.capacity, self.rate = burst, per_second
        self.tokens, self.stamp = float(burst), self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# Table sockets open in this process per signed-in user (ASGI processes do not share it).
_sockets_of_user: Counter = Counter()


async def on_act(socket: "MatchConsumer", message: dict) -> None:
    await services.act(socket.match_id, socket.user, message, socket.send_frame)


async def on_sync(socket: "MatchConsumer", message: dict) -> None:
    await socket.send_state()


async def on_match_act(socket: "MatchConsumer", message: dict) -> None:
    """concede, concede_decline, leave, return (docs/protocol-extensions.md): broadcast by the service
    after its commit; the sender gets an ack."""
    ref = _echoed_ref(message)
    try:
        act = services.Act.at_table(socket.user, message.get("ref"), message["type"])
        outcome = await on_database_thread(services.take, socket.match_id, act)
    except ActionRejected as rejected:
        await socket.send_json(error_frame(rejected.code, rejected.message, ref))
        return
    await socket.send_json({"type": "ack", "ref": ref, "seq": outcome.seq})


async def on_chat(socket: "MatchConsumer", message: dict) -> None:
    ref = _echoed_ref(message)
    try:
        line = await on_database_thread(chat.post, socket.match_id, socket.user, socket.seat,
                                        message.get("text"), message.get("phrase"))
    except chat.ChatRefused as refused:
        await socket.send_json(error_frame(refused.code, refused.message, ref))
        return
    try:
        await socket.channel_layer.group_send(socket.group, {"type": "chat.message", "line": line})
    except CHANNEL_LAYER_DOWN:  # kept in the history (chat_history): the others read it there
        await socket.send_json(error_frame("unavailable", UNSENT_CHAT, ref))
        return
    if ref is not None:
        await socket.send_json({"type": "ack", "ref": ref, "seq": None})


async def on_chat_history(socket: "MatchConsumer", message: dict) -> None:
    """Asked for, so that tools reading frames in order see none unasked."""
    await socket.send_json({"type": "chat_history",
                            "messages": await on_database_thread(chat.recent, socket.match_id, socket.seat)})


async def on_rematch(socket: "MatchConsumer", message: dict) -> None:
    """rematch, rematch_decline (docs/protocol-extensions.md, "Rematch"): the `rematch` frame
    goes to every socket of the match after the commit; the sender gets an ack."""
    ref = _echoed_ref(message)
    try:
        if ref is None:
            raise ActionRejected("bad_message", "ref must be a string of at most 64 characters.")
        await on_database_thread(rematch.answer, socket.match_id, socket.user, message["type"])
    except ActionRejected as rejected:
        await socket.send_json(error_frame(rejected.code, rejected.message, ref))
        return
    await socket.send_json({"type": "ack", "ref": ref, "seq": None})


# What a client may send: `type` -> handler(socket, message). A new kind of message is one line.
MESSAGE_HANDLERS = {
    "act": on_act,
    "sync": on_sync,
    **{kind: on_match_act for kind in services.TABLE_ACTS},
    "chat": on_chat,
    "chat_history": on_chat_history,
    **{kind: on_rematch for kind in rematch.KINDS},
}


class MatchConsumer(AsyncJsonWebsocketConsumer):
    user_slot = None  # the user whose socket count this socket holds, once it holds one

    @classmethod
    async def encode_json(cls, content):
        return frames.encode(content)

    async def __call__(self, scope, receive, send):
        """Channels' own consumer loop. Whatever ends it, the socket gives back what it holds
        outside itself (its group, its user's socket count, its seat's presence); a bug of ours
        is logged with its traceback and closes the socket with CLOSE_SERVER_ERROR. With Redis
        out of reach before the loop starts (Channels' new_channel subscribes the socket's own
        channel), the socket is told `unavailable` and closed with CLOSE_TRY_AGAIN."""
        try:
            await super().__call__(scope, receive, send)
        except StopConsumer:
            raise
        except OSError:  # uvicorn's ClientDisconnected: the client closed while we sent
            pass
        except CHANNEL_LAYER_DOWN as error:
            if hasattr(self, "match_id"):  # connect() had begun: the handlers catch their own
                raise
            logger.warning("a table socket could not get its channel (%s: %s): closed with %s",
                           type(error).__name__, error, CLOSE_TRY_AGAIN)
            await try_again_later(receive, send)
        except Exception:
            logger.exception("match %s: the table socket failed", getattr(self, "match_id", "?"))
            await self._close_quietly(CLOSE_SERVER_ERROR)
        finally:
            await self._leave()

    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope.get("user")
        self.bucket = TokenBucket(settings.WS_RATE_BURST, settings.WS_RATE_PER_SECOND)
        reader = await on_database_thread(services.reader_of, self.match_id, self.user)
        await self.accept()
        if not reader.may_watch:
            await self.refuse(CLOSE_FORBIDDEN, "forbidden", "You may not watch this table.")
            return
        if not self._take_user_slot():
            await self.refuse(CLOSE_TOO_MANY_SOCKETS, "rate_limited",
                              "You have too many tables open; close one and try again.")
            return
        self.seat = reader.seat
        if self.seat is not None:  # fair starts, the reconnect window, a replaced player's return
            # (gameplay/presence.py); before joining the group: its broadcast is for the others,
            # this socket's first state (below) is read after it
            await on_database_thread(presence.arrived, self.match_id, self.seat)  # may start the clocks
        self.group = services.group_name(self.match_id)  # from here _leave undoes the arrival
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except CHANNEL_LAYER_DOWN:  # this socket could not hear the table's moves: come back later
            await self.refuse(CLOSE_TRY_AGAIN, "unavailable", UNREACHABLE)
            return
        state = await self.send_state()
        if state["status"] == STATUS_FINISHED:  # a rematch proposed before this socket opened
            if proposal := await on_database_thread(rematch.current_frame, self.match_id):
                await self.send_json(proposal)
        if self.seat is None and await on_database_thread(presence.seat_taken_by_another, self.match_id, self.user):
            await self.send_json({**error_frame("forbidden", services.moves.SEAT_HELD), "reason": "seat_held"})

    async def refuse(self, close_code: int, code: str, message: str) -> None:
        await self.send_json(error_frame(code, message))
        await self.close(code=close_code)

    def _take_user_slot(self) -> bool:
        user_id = getattr(self.user, "pk", None)
        if user_id is None:
            return True  # spectators without an account: the per-socket rate limit holds them
        if _sockets_of_user[user_id] >= settings.WS_MAX_SOCKETS_PER_USER:
            return False
        _sockets_of_user[user_id] += 1
        self.user_slot = user_id
        return True

    async def disconnect(self, code):
        await self._leave()

    async def _leave(self) -> None:
        """Everything the socket holds outside itself: its group, its user's socket count."""
        if self.user_slot is not None:
            _sockets_of_user[self.user_slot] -= 1
            if _sockets_of_user[self.user_slot] <= 0:
                del _sockets_of_user[self.user_slot]
            self.user_slot = None
        group, self.group = getattr(self, "group", None), None
        if group:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except CHANNEL_LAYER_DOWN:
                pass  # Redis away: its subscription went with it; the seat's presence still counts down
            if self.seat is not None:
                await on_database_thread(presence.departed, self.match_id, self.seat)

    async def _close_quietly(self, code: int) -> None:
        try:
            await self.close(code=code)
        except OSError:  # the client is gone already
            pass

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None:
            await self.send_json(error_frame("bad_message", "Send JSON text frames, not binary ones."))
            return
        if len(text_data) > settings.WS_MAX_MESSAGE_CHARS:
            await self.close(code=CLOSE_TOO_BIG)
            return
        message = parse_frame(text_data)
        if not self.bucket.take():  # read first, so that the refusal names the act it drops
            await self.send_json(error_frame("rate_limited", "Too many messages; slow down.", _echoed_ref(message)))
            return
        kind = message.get("type") if isinstance(message, dict) else None
        handler = MESSAGE_HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            await self.send_json(error_frame("bad_message", "Send a JSON object with a known type "
                                             "(act, sync, chat, concede, leave…).", _echoed_ref(message)))
            return
        if kind == "act" and holds_a_fraction(message):
            await self.send_json(error_frame("bad_message", "Numbers in an act are whole numbers within 64 bits.",
                                             _echoed_ref(message)))
            return
        await handler(self, message)

    async def send_state(self) -> dict:
        state = await on_database_thread(services.current_state, self.match_id, self.user)
        await self.send_json(state)
        return state

    async def send_frame(self, content: dict) -> None:
        """A frame to this socket alone (the ack of a move, an error)."""
        await self.send(text_data=frames.encode(content))

    async def match_update(self, event):
        if event.get("seats_changed"):  # a drop or a return another process saw (presence.show_presence)
            services.forget_table(self.match_id)
        reader = "spectator" if self.seat is None else str(self.seat)
        await self.send(text_data=event["head"] + event["tails"][reader])

    async def rematch_update(self, event):
        await self.send_json(event["frame"])

    async def chat_message(self, event):
        if event["line"]["audience"] == chat.audience_of(self.seat):
            await self.send_json(event["line"])


async def try_again_later(receive, send) -> None:
    """Answer a socket's handshake with `unavailable` and CLOSE_TRY_AGAIN, outside Channels' loop."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": frames.encode(error_frame("unavailable", UNREACHABLE))})
    await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})


def parse_frame(text: str):
    """A text frame's JSON, or None when it is not JSON the server can read back."""
    try:
        return orjson.loads(text)
    except (orjson.JSONDecodeError, RecursionError):
        return None


def holds_a_fraction(value) -> bool:
    """A float anywhere in a frame. No act's number has a fraction, and orjson reads an integer
    past 64 bits as a float (1e+24), where the 64-bit check of an action cannot see it."""
    pending = [value]
    while pending:  # a loop, not recursion: orjson allows nesting deeper than Python's stack
        item = pending.pop()
        if isinstance(item, float):
            return True
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _echoed_ref(message) -> str | None:
    """The message's ref, when it is one an error can carry back (protocol.md)."""
    ref = message.get("ref") if isinstance(message, dict) else None
    return ref if services.usable_ref(ref) else None
