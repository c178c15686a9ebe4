"""Baloot in Chromium: a signed-in player starts a table against three bots and plays one deal
(bids or passes with the buttons, plays legal cards) until the deal summary appears; and a deal's
summary lists each scoring meld and belote, on the live table and in the archive."""

import pytest
from playwright.sync_api import expect

from gameplay.models import Match

from .play_helpers import bots_match, expect_item_row, log_in, play_until, shot, start_table_against_bots

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


def test_the_deal_summary_names_each_scoring_meld_and_belote_with_its_raw_points(page):
    # Seed 5 with target 1: one all-trump deal decides the match; Bot 3 (seat 2, team 0) scores a
    # sequence of three (R7.5: 20) and Bot 2 (seat 1, team 1) has two belotes (R8.1: 20 each).
    match, game = bots_match("baloot", seed=5, options={"target_score": 1})
    detail = game.deal_records[-1]["detail"]
    assert detail["melds"] == [{"seat": 2, "cards": ["JS", "TS", "9S"], "points": 20}]
    assert detail["belote"] == [{"seat": 1, "suit": "D"}, {"seat": 1, "suit": "C"}]

    def expect_items(summary):
        expect_item_row(summary, "Meld by Bot 3 (Random): J♠ 10♠ 9♠", team=0, points="20")
        expect_item_row(summary, "Belote by Bot 2 (Random): ♦ diamonds", team=1, points="20")
        expect_item_row(summary, "Belote by Bot 2 (Random): ♣ clubs", team=1, points="20")

    log_in(page, "watcher")
    page.goto(f"/matches/{match.pk}/")  # the live table (table.js) keeps the last deal's summary
    last = page.locator(".last-summary")
    last.locator("summary").click()
    expect_items(last)
    shot(page, "baloot-summary-melds-table")

    page.goto(f"/matches/{match.pk}/replay/")  # the archive (replay.js), at the deal's last step
    page.get_by_test_id("next-deal").click()
    expect_items(page.get_by_test_id("replay-summary"))
    shot(page, "baloot-summary-melds-replay")
