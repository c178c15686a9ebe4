"""Which client address uvicorn hands Chalk (the login throttle counts failures per address):
the Procfile's web line believes X-Forwarded-For only from the proxies listed in
FORWARDED_ALLOW_IPS, none by default (issue 33, bad input 6; docs/deploying.md)."""

import asyncio
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from uvicorn.config import Config

ROOT = Path(__file__).resolve().parents[2]


def web_arguments(environment: dict) -> list[str]:
    """uvicorn's arguments as the Procfile's web line gives them, expanded by a shell as honcho
    does, with `environment` on top of ours."""
    line = next(line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:"))
    command = line.removeprefix("web:").strip()
    start = "exec python -m uvicorn "
    assert command.startswith(start)
    print_argv = f"exec {shlex.quote(sys.executable)} -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "
    env = {key: value for key, value in os.environ.items() if key != "FORWARDED_ALLOW_IPS"}
    env.update(CHALK_HOST="127.0.0.1", CHALK_PORT="8000", **environment)
    run = subprocess.run(["/bin/sh", "-c", print_argv + command.removeprefix(start)], env=env,
                         capture_output=True, text=True, check=True, timeout=30)
    return json.loads(run.stdout)


def client_seen(arguments: list[str], peer: str, forwarded_for: str) -> str:
    """The client address the application gets from uvicorn started with `arguments`."""
    from uvicorn.main import main as uvicorn_command

    params = uvicorn_command.make_context("uvicorn", list(arguments)).params
    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"][0]

    config = Config(app, proxy_headers=params["proxy_headers"], forwarded_allow_ips=params["forwarded_allow_ips"])
    config.load()
    scope = {"type": "http", "client": (peer, 5000), "headers": [(b"x-forwarded-for", forwarded_for.encode())]}
    asyncio.run(config.loaded_app(scope, None, None))
    return seen["client"]


def test_a_local_client_cannot_choose_its_address_with_x_forwarded_for_by_default():
    arguments = web_arguments({})

    assert client_seen(arguments, "127.0.0.1", "203.0.113.9") == "127.0.0.1"
    assert client_seen(arguments, "::1", "203.0.113.9") == "::1"


def test_the_proxies_named_in_forwarded_allow_ips_are_believed_and_no_others():
    arguments = web_arguments({"FORWARDED_ALLOW_IPS": "10.0.0.5,10.0.1.0/24"})

    assert client_seen(arguments, "10.0.0.5", "203.0.113.9") == "203.0.113.9"
    assert client_seen(arguments, "10.0.1.7", "203.0.113.9") == "203.0.113.9"
    assert client_seen(arguments, "127.0.0.1", "203.0.113.9") == "127.0.0.1"


@pytest.mark.parametrize("value", ["", "10.0.0.5"])
def test_the_web_line_passes_forwarded_allow_ips_through_as_one_argument(value):
    arguments = web_arguments({"FORWARDED_ALLOW_IPS": value})

    assert arguments[arguments.index("--forwarded-allow-ips") + 1] == value
