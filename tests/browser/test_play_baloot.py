"""Baloot in Chromium: a signed-in player starts a table against three bots and plays one deal
(bids or passes with the buttons, plays legal cards) until the deal summary appears."""

import pytest
from playwright.sync_api import expect

from gameplay.models import Match

from .play_helpers import log_in, play_until, shot, start_table_against_bots

pytestmark = pytest.mark.browser


def test_a_player_plays_a_baloot_deal_against_bots_until_its_summary(page):
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, "noura")
    # A redoubled deal with big melds can pass 151 at once; the test wants a deal summary.
    start_table_against_bots(page, "baloot", "source", options={"target_score": 1000})
    assert Match.objects.get().game == "baloot"
    assert Match.objects.get().options["target_score"] == 1000
    expect(page.get_by_test_id("hand").locator(".hand-card")).to_have_count(5)  # 3 + 2 before the auction

    play_until(page, "[data-testid=deal-summary]")
    summary = page.get_by_test_id("deal-summary")
    expect(summary).to_contain_text("Deal 1: summary")
    expect(summary).to_contain_text("This deal")
    shot(page, "baloot-deal-summary")
    summary.get_by_test_id("close-summary").click()
    expect(summary).to_be_hidden()
