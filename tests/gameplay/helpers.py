"""Builders for live-play tests: users, tables and websocket clients."""

import itertools

import json

from asgiref.testing import ApplicationCommunicator
from django.contrib.auth import get_user_model

from gameplay import services
from gameplay.services import SeatSpec

_numbers = itertools.count()


def make_user(prefix: str = "player"):
    number = next(_numbers)
    return get_user_model().objects.create_user(f"{prefix}{number}", f"{prefix}{number}@example.com", "pw-12345678")


def make_match(game: str = "allfours", humans: int = 4, bots: int = 0, options=None, seed: int = 7,
               **kwargs):
    """A started (if full) table: `humans` new users in the first seats, then `bots` bots."""
    users = [make_user() for _ in range(humans)]
    seats = [SeatSpec(user=u) for u in users] + [SeatSpec(bot="random") for _ in range(bots)]
    match = services.create_match(game, options or {}, seats, seed=seed, first_dealer=3, **kwargs)
    return match, users


class Socket(ApplicationCommunicator):
    """A websocket client for the in-process ASGI app (channels.testing needs daphne)."""

    def __init__(self, application, path: str, user=None, headers=None):
        from django.contrib.auth.models import AnonymousUser

        scope = {"type": "websocket", "path": path, "query_string": b"", "headers": headers or [],
                 "subprotocols": [], "user": user or AnonymousUser()}
        super().__init__(application, scope)

    async def connect(self, timeout: float = 5):
        await self.send_input({"type": "websocket.connect"})
        return (await self.receive_output(timeout))["type"] == "websocket.accept"

    async def send(self, message) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.send_input({"type": "websocket.receive", "text": text})

    async def receive(self, timeout: float = 5) -> dict:
        frame = await self.receive_output(timeout)
        assert frame["type"] == "websocket.send", frame
        return json.loads(frame["text"])

    async def receive_until(self, kind: str, timeout: float = 5) -> dict:
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def close(self) -> None:
        await self.send_input({"type": "websocket.disconnect", "code": 1000})
        await self.wait(1)


def table_socket(match_id: int, user=None) -> Socket:
    from channels.routing import URLRouter

    from gameplay.routing import websocket_urlpatterns

    return Socket(URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/", user)
