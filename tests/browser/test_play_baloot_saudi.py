"""Classic Saudi Baloot in Chromium, in Arabic: a player at a Saudi-classic table with three bots
sees the face-up card and the buying panel, calls Sun (صن), plays the deal's cards and reads the
deal summary in the words Gulf players use."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match

from .play_helpers import log_in, play_until, shot

pytestmark = pytest.mark.browser


def saudi_table_for(username: str) -> Match:
    """Seat 0 for the player, three random bots; dealer 3, so the player speaks first (p1)."""
    player = get_user_model().objects.get(username=username)
    seats = [services.SeatSpec(user=player)] + [services.SeatSpec(bot="random")] * 3
    return services.create_match("baloot", {"game_mode": "saudi_classic"}, seats, created_by=player,
                                 seed=21, first_dealer=3)


def test_a_player_buys_sun_and_plays_a_saudi_deal_to_its_summary_in_arabic(page):
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, "faisal")
    page.goto("/")
    page.locator(".language-switcher button[value=ar]").click()
    expect(page.locator("html")).to_have_attribute("lang", "ar")

    match = saudi_table_for("faisal")
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.legal.length")
    expect(page.get_by_test_id("face-up")).to_contain_text("الورقة المكشوفة")
    expect(page.get_by_test_id("step-line")).to_contain_text("الجولة الأولى")
    expect(page.get_by_test_id("hand").locator(".hand-card")).to_have_count(5)
    buttons = page.locator(".act-button")
    expect(buttons).to_have_text(["بس", "حكم", "صن"])  # p1 in round 1: no Ashkal (S4.2)
    shot(page, "saudi-buying-ar")

    page.locator(".act-button[data-action=bid-sun]").click()
    expect(page.get_by_test_id("trump")).to_contain_text("صن")
    expect(page.get_by_test_id("hand").locator(".hand-card")).to_have_count(8)  # face-up card + 2

    play_until(page, "[data-testid=deal-summary]")
    summary = page.get_by_test_id("deal-summary")
    expect(summary).to_contain_text("صن")
    expect(summary).to_contain_text("الأبناط")
    record = Match.objects.get(pk=match.pk)
    assert record.options["game_mode"] == "saudi_classic"
    shot(page, "saudi-summary-ar")
