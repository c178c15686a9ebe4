"""config/soft_cache.py keeps its word: with Redis out of reach, what the cache only shortens is
done without it. The signed-in home (home/queries.py keeps its parts and the rendered
page) and a finished match's replay (gameplay/replay_cache.py keeps its timeline) still answer
200, with their content, when every call to the cache raises the error redis-py raises for a
refused connection; each failed call is logged as a warning, never a 500."""

import logging

import pytest
from django.core.cache.backends.base import BaseCache
from django.test import Client, override_settings
from redis.exceptions import ConnectionError as RedisDown

from tests.archive.test_archive_pages import bots_match
from tests.competitions_db.helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)  # the bots of the replayed match move after the commit


class UnreachableCache(BaseCache):
    """A cache whose Redis refuses every connection, as redis-py says it."""

    def __init__(self, location, params):
        super().__init__(params)

    def _refused(self, *args, **kwargs):
        raise RedisDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    add = get = set = touch = delete = clear = has_key = incr = decr = _refused
    get_many = set_many = delete_many = _refused


REDIS_OUT_OF_REACH = override_settings(
    CACHES={"default": {"BACKEND": f"{__name__}.UnreachableCache"}},
    SESSION_ENGINE="django.contrib.sessions.backends.db",  # the sign-in itself is not what is tested here
    DASHBOARD_CACHE_SECONDS=30, DASHBOARD_PAGE_SECONDS=30, PUBLIC_PAGE_CACHE_SECONDS=30,
)


def test_the_unreachable_cache_refuses_like_redis():
    with REDIS_OUT_OF_REACH:
        from django.core.cache import cache
        with pytest.raises(RedisDown):
            cache.get("anything")


def test_the_signed_in_home_answers_when_redis_is_out_of_reach(caplog):
    user = make_user()
    with REDIS_OUT_OF_REACH, caplog.at_level(logging.WARNING, logger="chalk.cache"):
        browser = Client(HTTP_ACCEPT_LANGUAGE="en")
        browser.force_login(user)
        first, again = browser.get("/"), browser.get("/")
    assert first.status_code == again.status_code == 200
    assert 'data-testid="next-match"' in again.content.decode() and "Your tables" in again.content.decode()
    assert any("cache not reached" in record.getMessage() for record in caplog.records)


def test_the_replay_and_its_timeline_answer_when_redis_is_out_of_reach(caplog):
    match = bots_match(options={"target_score": 8})
    with REDIS_OUT_OF_REACH, caplog.at_level(logging.WARNING, logger="chalk.cache"):
        browser = Client(HTTP_ACCEPT_LANGUAGE="en")
        page = browser.get(f"/matches/{match.pk}/replay/")
        timeline = browser.get(f"/matches/{match.pk}/replay/timeline.json")
    assert page.status_code == 200 and timeline.status_code == 200
    games = timeline.json()
    assert len(games) >= 1 and all(frames for frames in games)
    assert any("cache not reached" in record.getMessage() for record in caplog.records)


def test_a_signed_in_player_stays_signed_in_when_redis_is_out_of_reach(caplog):
    """The session engine (config/sessions.py) reads the session from PostgreSQL and drops the
    cache write that Django's cached_db would have failed on: the home answers, signed in."""
    user = make_user()
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)  # the session is in PostgreSQL (and in the cache, which goes away)
    with REDIS_OUT_OF_REACH, override_settings(SESSION_ENGINE="config.sessions"), \
            caplog.at_level(logging.WARNING, logger="chalk.cache"):
        page = browser.get("/")
        browser.logout()  # the session deleted from PostgreSQL; the cache's copy expires by itself
        after = browser.get("/")
    assert page.status_code == 200 and "Your tables" in page.content.decode()
    assert after.status_code == 200 and "Your tables" not in after.content.decode()
    assert any("cache not reached" in record.getMessage() for record in caplog.records)
