"""Failed logins are throttled per account and per address, and never lock the owner out of a
correct login from another address; the throttled message offers the password reset (issue 16,
item 6). Each test uses its own accounts and addresses: the counters live in the shared cache."""

import itertools

import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db
PASSWORD = "right-pw-12345678"
_numbers = itertools.count()


@pytest.fixture
def owner():
    n = next(_numbers)
    return get_user_model().objects.create_user(f"owner{n}-{id(owner)}", f"owner{n}@example.com", PASSWORD)


def address(n):
    return f"198.51.{next(_numbers) % 250}.{n}"  # documentation range, one per test and role


def log_in(client, user, password, ip):
    client.logout()
    return client.post("/accounts/login/", {"login": user.username, "password": password}, REMOTE_ADDR=ip)


def fail_five_times(client, user, ip):
    for _ in range(5):
        assert log_in(client, user, "wrong-password", ip).status_code == 200


def test_five_wrong_passwords_stop_that_address_even_with_the_right_password(client, owner):
    attacker = address(1)
    fail_five_times(client, owner, attacker)

    response = log_in(client, owner, PASSWORD, attacker)

    assert response.status_code == 200
    assert "Too many failed logins to this account from your address." in response.text
    assert "_auth_user_id" not in client.session


def test_the_owner_logs_in_from_another_address_while_an_attacker_is_throttled(client, owner):
    fail_five_times(client, owner, address(2))

    response = log_in(client, owner, PASSWORD, address(3))

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(owner.pk)


def test_the_throttled_message_links_to_the_password_reset(client, owner):
    attacker = address(4)
    fail_five_times(client, owner, attacker)

    html = log_in(client, owner, "wrong-password", attacker).text

    assert '<a href="/accounts/password/reset/">reset your password</a>' in html


def test_failures_below_the_limit_leave_the_right_password_working_from_the_same_address(client, owner):
    ip = address(5)
    for _ in range(4):
        log_in(client, owner, "wrong-password", ip)

    assert log_in(client, owner, PASSWORD, ip).status_code == 302


def test_one_address_guessing_many_accounts_is_stopped_after_ten_failures_a_minute(client):
    ip = address(6)
    users = [get_user_model().objects.create_user(f"spray{n}-{next(_numbers)}", password=PASSWORD) for n in range(11)]
    for user in users[:10]:
        log_in(client, user, "wrong-password", ip)

    response = log_in(client, users[10], PASSWORD, ip)

    assert response.status_code == 200 and "Too many failed logins" in response.text
