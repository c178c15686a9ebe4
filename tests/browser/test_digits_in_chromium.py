"""One kind of digit at the live table in Arabic (issue 32), on a 360-px phone: with Eastern
digits chosen in the profile, the text the table's script writes (scores, the target, the deal,
the log, the countdowns, the score sheet) has no Western digit; by default it has no Eastern one."""

import re

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Player
from gameplay import services

from .play_helpers import log_in, shot

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def arabic_table(browser, asgi_live, username, digits):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": "ar", "url": asgi_live.url}])
    page = context.new_page()
    get_user_model().objects.create_user(username, f"{username}@example.com", "a-long-card-table-password")
    Player.objects.filter(user__username=username).update(digits=digits, display_name="ليلى")
    log_in(page, username)
    player = get_user_model().objects.get(username=username)
    seats = [services.SeatSpec(user=player)] + [services.SeatSpec(bot="random")] * 3
    match = services.create_match("allfours", {}, seats, created_by=player, seed=12, first_dealer=3)
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.legal.length")
    page.get_by_test_id("open-sheet").click()
    # a decision, so the script writes the log and the scores again
    page.locator(".hand-card.legal:not(:disabled), .act-button:not(:disabled)").first.click()
    page.wait_for_function("() => !window.chalkTable.pending && document.querySelectorAll('.event-log li').length > 1")
    return context, page


def test_eastern_digits_chosen_reach_the_text_the_table_writes(browser, asgi_live):
    context, page = arabic_table(browser, asgi_live, "laylaeast", "eastern")
    text = page.evaluate("document.body.innerText")
    assert re.search("[٠-٩]", text)  # the scores and the target are there, the Eastern way
    assert not re.search("[0-9]", text), re.findall(".{0,20}[0-9].{0,5}", text)[:5]
    assert page.title() and not re.search("[0-9]", page.locator(".scoreboard").inner_text())
    shot(page, "table-eastern-digits-360-ar")
    context.close()


def test_by_default_the_arabic_table_has_western_digits_only(browser, asgi_live):
    context, page = arabic_table(browser, asgi_live, "laylawest", "western")
    text = page.evaluate("document.body.innerText")
    assert re.search("[0-9]", text) and not re.search("[٠-٩۰-۹]", text)
    context.close()
