"""Running the project's own commands in a subprocess with a controlled environment."""

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
    "init_command": db.get("OPTIONS", {}).get("init_command", ""),
    "redis_url": settings.REDIS_URL, "redis_embedded": settings.REDIS_EMBEDDED,
    "broker": settings.CELERY_BROKER_URL, "layer": layer["BACKEND"],
    "layer_address": layer["CONFIG"]["hosts"][0]["address"],
    "debug": settings.DEBUG, "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "journal_mode": (connection.cursor().execute("PRAGMA journal_mode").fetchone()[0]
                     if db["ENGINE"].endswith("sqlite3") else None),
}))
"""


def settings_probe(env):
    result = manage("shell", "-c", PROBE, env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])
