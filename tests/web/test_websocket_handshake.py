"""Websocket handshakes: same origin only (scheme, host and port), unknown paths refused cleanly,
and no echo route in production (issue 16, items 4 and 6)."""

import asyncio
import time

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus
from asgiref.testing import ApplicationCommunicator
from django.test import override_settings

from config.websockets import origin_allowed


def scope(origin, host="chalk.example", scheme="ws", path="/ws/matches/1/", headers=()):
    listed = [(b"host", host.encode()), *headers] + ([(b"origin", origin.encode())] if origin else [])
    return {"type": "websocket", "path": path, "scheme": scheme, "headers": listed, "query_string": b"",
            "subprotocols": []}


SITE = override_settings(ALLOWED_HOSTS=["chalk.example"], CSRF_TRUSTED_ORIGINS=[])


@SITE
def test_a_socket_from_the_site_itself_is_allowed():
    assert origin_allowed(scope("http://chalk.example"))
    assert origin_allowed(scope("https://chalk.example", scheme="wss"))
    assert origin_allowed(scope("http://chalk.example:8000", host="chalk.example:8000"))


@SITE
def test_a_socket_from_the_same_host_on_another_port_is_refused():
    assert not origin_allowed(scope("http://chalk.example:8080"))
    assert not origin_allowed(scope("http://chalk.example", host="chalk.example:8000"))


@SITE
def test_a_socket_from_the_same_host_over_another_scheme_is_refused():
    assert not origin_allowed(scope("http://chalk.example", scheme="wss"))
    assert not origin_allowed(scope("https://chalk.example", scheme="ws"))


BEHIND_A_PROXY = override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))  # TRUSTED_PROXY_COUNT > 0


@SITE
@BEHIND_A_PROXY
def test_behind_the_tls_proxy_the_forwarded_scheme_counts():
    forwarded = [(b"x-forwarded-proto", b"https")]

    assert origin_allowed(scope("https://chalk.example", headers=forwarded))
    assert not origin_allowed(scope("http://chalk.example", headers=forwarded))


@SITE
def test_with_no_proxy_configured_a_clients_forwarded_scheme_counts_for_nothing():
    forwarded = [(b"x-forwarded-proto", b"https")]

    assert not origin_allowed(scope("https://chalk.example", headers=forwarded))
    assert origin_allowed(scope("http://chalk.example", headers=forwarded))


@SITE
def test_a_socket_from_another_site_or_with_no_or_a_malformed_origin_is_refused():
    for origin in ["https://evil.example", "http://chalk.example.evil.example", "", "null", "chalk.example",
                   "http://chalk.example:notaport", "http://chalk.example:99999", "javascript://chalk.example"]:
        assert not origin_allowed(scope(origin)), origin


@override_settings(ALLOWED_HOSTS=["chalk.example"], CSRF_TRUSTED_ORIGINS=[])
def test_a_host_outside_allowed_hosts_is_refused_even_with_a_matching_origin():
    assert not origin_allowed(scope("http://other.example", host="other.example"))


@override_settings(ALLOWED_HOSTS=["chalk.example"],
                   CSRF_TRUSTED_ORIGINS=["https://play.chalk.example", "https://*.clubs.example:8443"])
def test_origins_listed_in_csrf_trusted_origins_are_allowed_with_their_scheme_and_port():
    assert origin_allowed(scope("https://play.chalk.example"))
    assert origin_allowed(scope("https://spades.clubs.example:8443"))
    assert not origin_allowed(scope("http://play.chalk.example"))
    assert not origin_allowed(scope("https://spades.clubs.example"))
    assert not origin_allowed(scope("https://clubs.example.evil:8443"))


async def handshake(path, origin="http://chalk.example"):
    from config.asgi import application

    socket = ApplicationCommunicator(application, scope(origin, path=path))
    await socket.send_input({"type": "websocket.connect"})
    answer = await socket.receive_output(5)
    await socket.wait(1)
    return answer["type"]


@SITE
@pytest.mark.django_db
@pytest.mark.asyncio
@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/echo/", "/ws/matches/abc/", "/ws/matches/1/extra/", "/",
                                  "/ws/matches/" + "9" * 40 + "/", "/ws/matches/%00/",
                                  "/ws/matches/" + "1" * 4301 + "/", "/ws/matches/\u00b2/", "/ws/matches/\u0661/"])
async def test_an_unknown_websocket_path_is_refused_without_an_error(path):
    assert await handshake(path) == "websocket.close"


def test_the_live_server_refuses_an_unknown_socket_path_with_403_and_logs_no_traceback(live_asgi_server):
    async def connect():
        async with ws_connect(live_asgi_server.ws_url + "/ws/no-such-route/",
                                      origin=live_asgi_server.url, open_timeout=10):
            pass

    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(connect())

    assert refused.value.response.status_code == 403
    assert "Exception in ASGI application" not in live_asgi_server.log()
    assert "No route found" not in live_asgi_server.log()


def test_a_text_frame_that_is_not_utf8_is_closed_with_1007_and_logged_in_one_line(asgi_live):
    from websockets.exceptions import ConnectionClosedError

    live_asgi_server = asgi_live
    before = len(live_asgi_server.log())

    async def send_bad_text():
        async with ws_connect(live_asgi_server.ws_url + "/ws/echo/", origin=live_asgi_server.url,
                              open_timeout=10) as socket:
            await socket.send(b'{"type": "sync", "x": "\xff\xfe"}', text=True)
            await socket.recv()

    with pytest.raises(ConnectionClosedError) as closed:
        asyncio.run(send_bad_text())

    assert closed.value.rcvd.code == 1007
    for _ in range(50):  # the server writes its line as it closes
        logged = live_asgi_server.log()[before:]
        if "UTF-8" in logged:
            break
        time.sleep(0.1)
    told = [line for line in logged.splitlines() if "UTF-8" in line]
    assert len(told) == 1 and "WARNING" in told[0] and "ERROR" not in told[0]
    assert "Traceback" not in logged
