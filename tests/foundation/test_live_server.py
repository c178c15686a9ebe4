"""The live ASGI server fixture: HTTP, static files and websockets through the real stack."""

import asyncio
import json
from urllib.request import urlopen

import pytest
import websockets


def test_live_server_serves_pages_and_static_files(asgi_live):
    with urlopen(asgi_live.url + "/") as response:
        assert response.status == 200
        assert "Chalk" in response.read().decode()
    with urlopen(asgi_live.url + "/static/js/htmx.min.js") as response:
        assert response.status == 200
        assert b"htmx" in response.read(300)


def test_live_server_sees_rows_the_test_commits(asgi_live, django_user_model):
    from clubs.models import Club

    Club.objects.create(name="Committed Club", slug="committed-club")

    with urlopen(asgi_live.url + "/clubs/committed-club/") as response:
        assert "Committed Club" in response.read().decode()


async def echo_round_trip(ws_url, origin):
    async with websockets.connect(ws_url + "/ws/echo/", origin=origin, open_timeout=10) as socket:
        await socket.send(json.dumps({"hello": "table"}))
        return json.loads(await asyncio.wait_for(socket.recv(), timeout=10))


def test_websocket_messages_travel_through_the_redis_channel_layer(asgi_live):
    reply = asyncio.run(echo_round_trip(asgi_live.ws_url, origin=asgi_live.url))

    assert reply == {"type": "echo", "data": {"hello": "table"}, "user": None}


def test_websocket_from_a_foreign_origin_is_refused(asgi_live):
    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(echo_round_trip(asgi_live.ws_url, origin="https://evil.example"))
