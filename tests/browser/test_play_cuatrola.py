"""La Cuatrola in Chromium: a signed-in player starts a table against three bots and plays one
deal (calls with the buttons, plays legal cards) until the deal summary appears; and the same
table is usable on a phone in Arabic, right to left; and a deal's summary lists each cante."""

import pytest
from playwright.sync_api import expect

from .play_helpers import bots_match, expect_item_row, log_in, play_until, shot, start_table_against_bots

pytestmark = pytest.mark.browser


def test_a_player_plays_a_cuatrola_deal_against_bots_until_its_summary(page):
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, "lucia")
    start_table_against_bots(page, "cuatrola", "standard")
    expect(page.get_by_test_id("hand").locator(".hand-card img[src*='/cards/spanish/']")).to_have_count(5)
    shot(page, "cuatrola-table")

    play_until(page, "[data-testid=deal-summary]")
    expect(page.get_by_test_id("deal-summary")).to_contain_text("Deal 1: summary")
    shot(page, "cuatrola-deal-summary")


def test_the_table_fits_a_phone_and_mirrors_in_arabic(page):
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, "amal")
    page.goto("/")
    page.locator(".language-switcher button[value=ar]").click()
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    start_table_against_bots(page, "cuatrola", "standard")
    expect(page.get_by_test_id("hand").locator(".hand-card")).to_have_count(5)

    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing sticks out sideways"
    for card in page.get_by_test_id("hand").locator(".hand-card").all():
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    side = page.locator(".table-side").bounding_box()
    felt = page.locator(".felt").bounding_box()
    assert side["y"] > felt["y"] + felt["height"], "on a phone the scores come below the table"
    shot(page, "cuatrola-phone-arabic")
    play_until(page, "[data-testid=deal-summary]")
    shot(page, "cuatrola-phone-arabic-summary")


def test_the_deal_summary_names_each_cante_with_its_points(page):
    # Seed 89: the match's third and last deal is a solo in which Bot 3 (seat 2, team 0) sings
    # copas, the trump suit (R23: 40).
    match, game = bots_match("cuatrola", seed=89)
    detail = game.deal_records[-1]["detail"]
    assert detail["trump"] == "C"
    assert detail["cantes"] == [{"seat": 2, "suit": "C", "points": 40, "after_trick": 2}]

    log_in(page, "watcher")
    page.goto(f"/matches/{match.pk}/")  # the live table keeps the last deal's summary
    last = page.locator(".last-summary")
    last.locator("summary").click()
    expect_item_row(last, "Cante by Bot 3 (Random): copas", team=0, points="40")

    page.goto(f"/matches/{match.pk}/replay/")
    page.keyboard.press("End")  # the step that closed the last deal
    expect_item_row(page.get_by_test_id("replay-summary"), "Cante by Bot 3 (Random): copas", team=0, points="40")
