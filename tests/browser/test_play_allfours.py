"""All Fours in Chromium: sign up, start a short match against three bots, play it to the end by
clicking legal cards and buttons, see the result, then step through a trick in the archive."""

import re

import pytest
from playwright.sync_api import expect

from gameplay.models import Match

from .play_helpers import play_until, shot, sign_up, start_table_against_bots

pytestmark = pytest.mark.browser


def test_a_player_plays_a_whole_all_fours_match_against_bots_and_replays_a_trick(page):
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_up(page, "keisha")
    start_table_against_bots(page, "allfours", "short_seven")
    match = Match.objects.get()
    assert match.options["target_score"] == 7 and match.status == "playing"
    expect(page.get_by_test_id("hand").locator(".hand-card")).not_to_have_count(0)
    shot(page, "allfours-table")

    decisions = play_until(page, "[data-testid=match-result]", keyboard_first_card=True)
    assert decisions > 0
    result = page.get_by_test_id("match-result")
    expect(result).to_contain_text(re.compile(r"You (won|lost) the match"))
    match.refresh_from_db()
    assert match.status == "finished" and max(match.result["games"][0]["score"]) >= 7
    shot(page, "allfours-result")

    result.get_by_test_id("replay-link").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/replay/$"))
    expect(page.get_by_test_id("hand-0").locator("img")).to_have_count(6)  # every hand is shown
    expect(page.get_by_test_id("hand-1").locator("img")).to_have_count(6)
    page.get_by_test_id("next-trick").click()
    trick = page.get_by_test_id("trick")
    expect(trick.locator(".trick-card")).to_have_count(4)
    expect(trick).to_contain_text("Last trick, won by")
    shot(page, "allfours-replay")
    page.keyboard.press("ArrowLeft")  # one card back: the trick is on the table with three cards
    expect(trick.locator(".trick-card")).to_have_count(3)
    expect(page.get_by_test_id("replay-action")).to_contain_text("plays")
    page.keyboard.press("ArrowRight")
    expect(trick.locator(".trick-card")).to_have_count(4)
