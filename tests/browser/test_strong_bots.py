"""A person starts a table against three strong bots in Chromium and plays it to the end with
legal clicks: the search bots answer in the worker and the match finishes with a result."""

import re

import pytest
from playwright.sync_api import expect

from gameplay.models import Match
from .play_helpers import log_in, play_until, start_table_against_bots

pytestmark = pytest.mark.browser


def test_a_table_of_three_strong_bots_plays_to_the_end(page):
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, "nadia")
    start_table_against_bots(page, "allfours", "short_seven", level="strong")
    match = Match.objects.get()
    assert sorted(match.seats.exclude(bot="").values_list("bot", flat=True)) == ["strong"] * 3
    expect(page.locator(".seat").filter(has_text="Bot 2 (Strong)")).not_to_have_count(0)

    play_until(page, "[data-testid=match-result]")
    expect(page.get_by_test_id("match-result")).to_contain_text(re.compile(r"You (won|lost) the match"))
    match.refresh_from_db()
    assert match.status == "finished"
