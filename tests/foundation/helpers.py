"""Running the project's own commands in a subprocess with a controlled environment."""

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE_VARS = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "PYTEST_VERSION", "CHALK_VAR_DIR")


def clean_env(**overrides):
    """The current environment without Chalk's variables (and without pytest's marker, so the
    child configures itself as a real deployment would), plus `overrides`."""
    env = {key: value for key, value in os.environ.items() if key not in SERVICE_VARS}
    env.update({key: str(value) for key, value in overrides.items()})
    return env


@contextlib.contextmanager
def own_postgresql(var_dir):
    """The embedded PostgreSQL of a throwaway var/ folder, as `make run` starts it, stopped after."""
    from config import embedded_postgres

    embedded_postgres.start(var_dir)
    try:
        yield
    finally:
        embedded_postgres.stop_running(var_dir)


def manage(*args, env, timeout=60):
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


PROBE = """
import json
from django.conf import settings
from django.db import connection
db = settings.DATABASES["default"]
layer = settings.CHANNEL_LAYERS["default"]
print(json.dumps({
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", ""),
    "redis_url": settings.REDIS_URL, "redis_embedded": settings.REDIS_EMBEDDED,
    "broker": settings.CELERY_BROKER_URL, "layer": layer["BACKEND"],
    "layer_address": layer["CONFIG"]["hosts"][0]["address"],
    "debug": settings.DEBUG, "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "server_version": connection.cursor().execute("SHOW server_version").fetchone()[0],
}))
"""


def settings_probe(env):
    result = manage("shell", "-c", PROBE, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
