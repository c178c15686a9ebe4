"""Settings in both modes, read by a fresh process the way `make run` and production read them."""

import secrets

import pytest

from config.env import celery_broker_url, env_bool, env_list
from tests.foundation.helpers import clean_env, manage, own_postgresql, settings_probe


def test_without_environment_chalk_uses_its_own_postgresql_and_the_embedded_redis(tmp_path):
    with own_postgresql(tmp_path):  # as `make run` starts it before it migrates
        found = settings_probe(clean_env(DEBUG=1, CHALK_VAR_DIR=tmp_path))

    assert found["engine"] == "django.db.backends.postgresql"
    assert found["host"] == str(tmp_path / "postgres")  # a unix socket under var/, no TCP port
    assert found["server_version"].startswith("16")  # a real PostgreSQL answered
    assert found["redis_embedded"] is True
    assert found["redis_url"] == f"unix://{tmp_path}/redis/redis.sock?db=0"
    assert found["broker"] == f"redis+socket://{tmp_path}/redis/redis.sock?db=0"
    assert found["layer"] == "tuning.channel_layer.ChalkChannelLayer"


def test_with_service_urls_chalk_uses_postgresql_and_that_redis(tmp_path):
    env = clean_env(
        DEBUG=1, CHALK_VAR_DIR=tmp_path,
        DATABASE_URL="postgres://chalk:pw@db.internal:5432/chalk", REDIS_URL="redis://cache.internal:6379/2",
    )
    found = settings_probe_without_connecting(env)

    assert found["engine"] == "django.db.backends.postgresql"
    assert found["host"] == "db.internal"
    assert found["redis_embedded"] is False
    assert found["broker"] == found["layer_address"] == "redis://cache.internal:6379/2"


def settings_probe_without_connecting(env):
    # The hosts above do not exist: read settings only, never open a connection.
    code = (
        "import json; from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(json.dumps({'engine': d['ENGINE'], 'host': d['HOST'], 'redis_embedded': s.REDIS_EMBEDDED,"
        "'broker': s.CELERY_BROKER_URL, 'layer_address': s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['address']}))"
    )
    result = manage("shell", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    import json

    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("proxies, header", [("0", "None"), ("1", "('HTTP_X_FORWARDED_PROTO', 'https')")])
def test_x_forwarded_proto_is_believed_only_behind_a_configured_proxy(tmp_path, proxies, header):
    env = clean_env(DEBUG=1, CHALK_VAR_DIR=tmp_path, TRUSTED_PROXY_COUNT=proxies,
                    DATABASE_URL="postgres://chalk:pw@db.internal:5432/chalk", REDIS_URL="redis://cache.internal:6379/2")
    result = manage("shell", "-c", "from django.conf import settings; print(settings.SECURE_PROXY_SSL_HEADER)", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == header


def test_production_settings_pass_check_deploy_with_zero_warnings(tmp_path):
    env = clean_env(
        DEBUG=0, SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="chalk.example.com", CHALK_VAR_DIR=tmp_path
    )
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues (0 silenced)" in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key(tmp_path):
    result = manage("check", env=clean_env(DEBUG=0, CHALK_VAR_DIR=tmp_path))

    assert result.returncode != 0
    assert "SECRET_KEY is required" in result.stderr


def test_development_keeps_a_generated_secret_key_out_of_the_repository(tmp_path):
    settings_probe_without_connecting(clean_env(DEBUG=1, CHALK_VAR_DIR=tmp_path))

    key_file = tmp_path / "dev-secret-key"
    assert len(key_file.read_text()) >= 50
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"


def test_env_helpers_parse_booleans_lists_and_unix_socket_urls():
    assert env_bool("CHALK_UNSET_FLAG", default=True) is True
    assert env_list("CHALK_UNSET_LIST", default=["a"]) == ["a"]
    assert celery_broker_url("unix:///tmp/r.sock?db=0") == "redis+socket:///tmp/r.sock?db=0"
    assert celery_broker_url("redis://h:6379/0") == "redis://h:6379/0"


PRODUCTION_SMOKE = """
import re
from django.test import Client
from django.core.management import call_command
call_command("migrate", verbosity=0)
client = Client(HTTP_HOST="chalk.example.com")
assert client.get("/").status_code == 301, "plain HTTP must redirect to HTTPS"
page = client.get("/", secure=True)
assert page.status_code == 200, page.status_code
forged = client.get("/", HTTP_X_FORWARDED_PROTO="https")
assert forged.status_code == 301, "with no proxy configured a client's own X-Forwarded-Proto is not believed"
assert page["Strict-Transport-Security"].startswith("max-age=31536000")
script = re.search(r'src="(/static/js/htmx\\.min\\.[0-9a-f]{12}\\.js)"', page.content.decode()).group(1)
static = client.get(script, secure=True)
assert static.status_code == 200 and "immutable" in static["Cache-Control"], static.status_code
print("production ok")
"""


@pytest.mark.slow  # collectstatic compresses every file of the admin too: ~20 s
def test_production_serves_https_only_with_hashed_static_files(tmp_path):
    env = clean_env(
        DEBUG=0, SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="chalk.example.com", CHALK_VAR_DIR=tmp_path
    )
    collected = manage("collectstatic", "--noinput", env=env, timeout=120)
    assert collected.returncode == 0, collected.stderr

    with own_postgresql(tmp_path):
        result = manage("shell", "-c", PRODUCTION_SMOKE, env=env)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "production ok" in result.stdout
