"""Signing in greets the player by the name Chalk shows at tables (issue 32): the display name,
not the user name they typed."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Player

from .play_helpers import log_in

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("language, greeting", [("en", "Successfully signed in as Layla Haddad."),
                                                ("es", "Layla Haddad")])
def test_the_sign_in_message_greets_by_display_name(page, asgi_live, language, greeting):
    user = get_user_model().objects.create_user("lhaddad77", "lhaddad77@example.com", "a-long-card-table-password")
    Player.objects.update_or_create(user=user, defaults={"display_name": "Layla Haddad"})
    page.context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
    log_in(page, "lhaddad77")
    messages = page.locator(".messages")
    expect(messages).to_contain_text(greeting)
    expect(messages).not_to_contain_text("lhaddad77")
