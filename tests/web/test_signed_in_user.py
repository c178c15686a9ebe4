"""The signed-in user's row is kept between requests (clubs/auth_backends.py): the next request
reads no user from the database, and whatever a save changes counts at once."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from clubs.auth_backends import user_key
from tests.gameplay.helpers import make_user

pytestmark = pytest.mark.django_db

USER_TABLE = f'"{get_user_model()._meta.db_table}"'


@pytest.fixture
def player():
    with override_settings(SIGNED_IN_USER_SECONDS=60):
        user = make_user("kept")
        yield user
        cache.delete(user_key(user.pk))  # a later test's database may reuse the id


def signed_in(user, password=None) -> Client:
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    if password:
        assert browser.login(username=user.username, password=password)
    else:
        browser.force_login(user)
    return browser


def user_reads(browser) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert browser.get("/help/").status_code == 200
    return [q["sql"] for q in queries.captured_queries if f"FROM {USER_TABLE}" in q["sql"]]


def test_the_next_request_of_a_signed_in_player_reads_no_user_row(player):
    browser = signed_in(player)
    user_reads(browser)  # read once, kept
    assert user_reads(browser) == []
    assert player.username in browser.get("/help/").content.decode()


def test_a_new_password_signs_the_players_other_sessions_out_at_once(player):
    player.set_password("first-secret-1")
    player.save()
    elsewhere = signed_in(player, "first-secret-1")
    assert elsewhere.get("/accounts/profile/").status_code == 200  # kept now
    player.set_password("second-secret-2")
    player.save()
    assert elsewhere.get("/accounts/profile/").status_code == 302  # to the sign-in page
    assert signed_in(player, "second-secret-2").get("/accounts/profile/").status_code == 200


def test_an_account_made_inactive_is_signed_out_at_the_next_request(player):
    browser = signed_in(player)
    assert browser.get("/accounts/profile/").status_code == 200
    player.is_active = False
    player.save()
    assert browser.get("/accounts/profile/").status_code == 302


def test_a_renamed_player_sees_the_new_name_at_the_next_request(player):
    browser = signed_in(player)
    browser.get("/help/")
    player.username = f"{player.username}-renamed"
    player.save()
    assert player.username in browser.get("/help/").content.decode()


def test_a_player_is_still_signed_in_when_the_cache_cannot_be_reached(player, monkeypatch):
    from redis.exceptions import ConnectionError as RedisDown

    from config import soft_cache

    class Unreachable:
        def get(self, *args, **kwargs):
            raise RedisDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

        set = get

    browser = signed_in(player)
    monkeypatch.setattr(soft_cache, "cache", Unreachable())  # the sessions' own cache still answers
    assert browser.get("/accounts/profile/").status_code == 200
