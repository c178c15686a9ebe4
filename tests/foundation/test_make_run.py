"""`make run`'s whole stack (web + worker + beat + embedded Redis) answers /healthz, then stops
cleanly on Ctrl-C. It runs in its own var/ folder and port, in the embedded default."""

import os
import signal
import socket
import subprocess
import time
from urllib.request import urlopen

import pytest

from tests.foundation.helpers import ROOT, clean_env

pytestmark = pytest.mark.slow


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def poll_healthz(url, process, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urlopen(url, timeout=2) as response:
                return response.status, response.read().decode()
        except OSError:
            time.sleep(0.5)
    return None, None


def stop_like_ctrl_c(process, timeout=30):
    os.killpg(process.pid, signal.SIGINT)  # what a terminal sends to the foreground group
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        pytest.fail("make run did not stop within 30 s of Ctrl-C")


def still_running(pattern):
    result = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    return result.stdout.split()


@pytest.mark.parametrize("attempt", [1, 2])  # running it twice works
def test_make_run_serves_healthz_and_stops_on_ctrl_c(attempt, tmp_path_factory):
    var_dir = tmp_path_factory.getbasetemp() / "make-run-var"  # shared by both attempts
    port = free_port()
    log_path = tmp_path_factory.mktemp("make-run") / "make-run.log"
    env = clean_env(CHALK_VAR_DIR=var_dir, CHALK_PORT=port)
    with log_path.open("wb") as log:
        process = subprocess.Popen(["make", "run"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        status, body = poll_healthz(f"http://127.0.0.1:{port}/healthz", process, timeout=120)
        assert status == 200, log_path.read_text()[-4000:]
        assert '"redis": "ok"' in body and '"database": "ok"' in body
        output = log_path.read_text()
        assert f"http://127.0.0.1:{port}/" in output
        assert "Demo logins" in output
    finally:
        stop_like_ctrl_c(process)

    assert still_running(str(var_dir)) == [], "the embedded Redis outlived Ctrl-C"
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()  # the web server is gone
