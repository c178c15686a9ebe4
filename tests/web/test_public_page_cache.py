"""Public pages are kept a few seconds for visitors who are not signed in
(config/public_cache.py): the next visitor's page costs no query, every visitor still gets a
CSRF token of their own that works, and signed-in players always see a fresh page."""

import re
import uuid

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from gameplay import services
from gameplay.services import SeatSpec
from tests.gameplay.helpers import make_user

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cache_on")]

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')


@pytest.fixture
def cache_on():
    with override_settings(PUBLIC_PAGE_CACHE_SECONDS=30):
        yield


def fresh_path() -> str:
    return f"/play/?visit={uuid.uuid4().hex}"  # a key no other test has filled


def waiting_table_of(name: str):
    creator = make_user(name)
    return services.create_match("allfours", {}, [SeatSpec(user=creator)], created_by=creator, is_public=True), creator


def test_the_next_visitor_gets_the_kept_lobby_without_a_query():
    path = fresh_path()
    assert Client().get(path).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(path)
    assert response.status_code == 200 and 'class="language-switcher"' in response.content.decode()
    assert not queries.captured_queries


def test_a_signed_in_player_sees_a_table_opened_after_the_visitors_page_was_kept():
    path = fresh_path()
    Client().get(path)
    _, creator = waiting_table_of("latecomer")
    player = Client()
    player.force_login(make_user())
    assert creator.username in player.get(path).content.decode()
    assert creator.username not in Client().get(path).content.decode()  # the visitors' copy, seconds old


def test_every_visitor_gets_a_csrf_token_of_their_own_that_the_language_form_accepts():
    path = fresh_path()
    Client().get(path)  # kept
    for _ in range(2):
        visitor = Client(enforce_csrf_checks=True)
        page = visitor.get(path)
        token = TOKEN.search(page.content.decode()).group(1)
        assert "\x00" not in page.content.decode() and f'"X-CSRFToken": "{token}"' in page.content.decode()
        answer = visitor.post("/language/", {"language": "es", "next": "/", "csrfmiddlewaretoken": token})
        assert answer.status_code == 302, answer.status_code


def test_a_page_in_another_language_is_kept_apart():
    path = fresh_path()
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(path).content.decode()
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es").get(path).content.decode()
    assert '<html lang="en"' in english and '<html lang="es"' in spanish


def test_a_visitor_with_a_message_waiting_gets_a_page_of_their_own_that_nobody_else_gets():
    path = fresh_path()
    leaving = Client()
    leaving.force_login(make_user())
    leaving.post("/accounts/logout/")  # now a visitor, with "You have signed out." waiting
    own = leaving.get(path).content.decode()
    assert 'class="messages"' in own
    assert 'class="messages"' not in Client().get(path).content.decode()


def test_the_presentation_page_is_kept_for_visitors_and_a_player_gets_their_home():
    from django.core.cache import cache

    cache.delete("visitor-page:en:/")
    assert Client(HTTP_ACCEPT_LANGUAGE="en").get("/").status_code == 200
    assert "Chalk" in cache.get("visitor-page:en:/")  # the next visitor's page
    player = Client(HTTP_ACCEPT_LANGUAGE="en")
    player.force_login(make_user("homecomer"))
    assert 'data-testid="my-tables"' in player.get("/").content.decode()


def test_a_visitor_gets_the_page_rendered_when_the_cache_cannot_be_reached(monkeypatch):
    from django.core.cache import cache
    from redis.exceptions import ConnectionError as RedisDown

    def unreachable(*args, **kwargs):
        raise RedisDown("Error 2 connecting to redis.sock. No such file or directory.")

    monkeypatch.setattr(cache, "get", unreachable)
    monkeypatch.setattr(cache, "set", unreachable)
    for path in ("/", fresh_path()):
        response = Client(HTTP_ACCEPT_LANGUAGE="en").get(path)
        assert response.status_code == 200 and 'class="language-switcher"' in response.content.decode()
