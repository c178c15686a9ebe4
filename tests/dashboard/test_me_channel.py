"""/ws/me/, a player's own socket: the unread count on connect and when a notification arrives,
"your table opened" for every seated player when a table starts, and nothing for anyone else."""

import pytest
from channels.db import database_sync_to_async as db
from channels.routing import URLRouter

from home.routing import websocket_urlpatterns
from gameplay import services
from tests.gameplay.helpers import Socket, make_user
from tournaments.services.notify import notify

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def me_socket(user=None) -> Socket:
    return Socket(URLRouter(websocket_urlpatterns), "/ws/me/", user)


async def connected(user):
    socket = me_socket(user)
    assert await socket.connect()
    return socket, await socket.receive()


async def test_a_visitor_is_refused():
    socket = me_socket()
    assert not await socket.connect()


async def test_connecting_sends_the_unread_count():
    user = await db(make_user)()
    await db(notify)(user, "a", "round_open", {"competition": "Cup", "number": 1}, email=False)
    socket, first = await connected(user)
    assert first == {"type": "notifications", "count": 1}
    await socket.close()


async def test_a_new_notification_updates_the_count_on_every_tab():
    user = await db(make_user)()
    tabs = [await connected(user) for _ in range(2)]
    await db(notify)(user, "b", "invited", {"name": "Amina", "competition": "Cup"}, email=False)
    for socket, _ in tabs:
        assert await socket.receive_until("notifications") == {"type": "notifications", "count": 1}
        await socket.close()


async def test_every_seated_player_hears_that_their_table_opened_and_a_stranger_does_not():
    users = [await db(make_user)() for _ in range(4)]
    stranger = await db(make_user)()
    sockets = [(await connected(u))[0] for u in users]
    watcher, _ = await connected(stranger)
    match = await db(services.create_match)("allfours", {}, [services.SeatSpec(user=u) for u in users])
    for socket in sockets:
        frame = await socket.receive_until("table_opened")
        assert frame == {"type": "table_opened", "match": match.pk, "url": f"/matches/{match.pk}/"}
        await socket.close()
    assert await watcher.receive_nothing(timeout=0.5)
    await watcher.close()


async def test_a_table_that_waits_for_players_sends_nothing_until_it_starts():
    host = await db(make_user)()
    socket, _ = await connected(host)
    match = await db(services.create_match)("allfours", {}, [services.SeatSpec(user=host)])
    assert await socket.receive_nothing(timeout=0.5)
    await db(services.fill_with_bots)(match)
    assert (await socket.receive_until("table_opened"))["match"] == match.pk
    await socket.close()


async def test_the_socket_only_listens():
    user = await db(make_user)()
    socket, _ = await connected(user)
    await socket.send({"type": "act"})
    reply = await socket.receive()
    assert reply["type"] == "error" and reply["code"] == "bad_request"
    await socket.close()
