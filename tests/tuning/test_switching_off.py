"""Each override of tuning/ can be switched off for one run (CHALK_TUNING_OFF, read at start-up),
so benchmarks/overrides.py can measure it against its removal; production, with the variable
unset, runs every override. A name that is no override is refused, not ignored: a measurement
that switched off nothing would read as "this override pays nothing"."""

import json
import subprocess
import sys

import pytest

from tests.foundation.helpers import ROOT, clean_env
from tuning import OVERRIDES, switched_off

PROBE = """
import json, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import config.asgi as asgi
from django.conf import settings
from tuning import live_db
print(json.dumps({
    "off": sorted(settings.TUNING_OFF), "pages": type(asgi.django_asgi_app).__name__,
    "cache": settings.CACHES["default"]["BACKEND"], "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "loop_writes": live_db.loop_writes_enabled(),
}))
"""


def probe(tuning_off: str | None) -> dict:
    env = clean_env(DEBUG=1, DATABASE_URL="postgres://nobody@127.0.0.1:1/none", REDIS_URL="redis://127.0.0.1:1/0")
    if tuning_off is not None:
        env["CHALK_TUNING_OFF"] = tuning_off
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_production_runs_every_override():
    on = probe(None)
    assert on == {"off": [], "pages": "OneHopASGIHandler", "cache": "tuning.cache.ProcessRedisCache",
                  "layer": "tuning.channel_layer.ChalkChannelLayer", "loop_writes": True}


def test_each_override_switched_off_for_a_run_gives_the_librarys_own_behaviour():
    off = probe(",".join(OVERRIDES))
    assert off == {"off": sorted(OVERRIDES), "pages": "ASGIHandler",
                   "cache": "django.core.cache.backends.redis.RedisCache",
                   "layer": "channels_redis.pubsub.RedisPubSubChannelLayer", "loop_writes": False}


def test_a_name_that_is_no_override_is_refused():
    assert switched_off(" garbage, cache ,") == {"garbage", "cache"}
    with pytest.raises(ValueError, match="names no override: gli"):
        switched_off("gli")
