"""The replay's last steps in Chromium (issue 32): a leaver's seat taken by a bot and the
concession that ended the match are told, and the page's head says how the match ended."""

import pytest
from playwright.sync_api import expect

from tests.gameplay.test_replay_acts import conceded_after_a_leave

from .play_helpers import PASSWORD, log_in

pytestmark = pytest.mark.browser


def test_the_replay_ends_on_the_concession_and_tells_the_bot_replacement(page):
    match, first = conceded_after_a_leave()
    first.set_password(PASSWORD)
    first.save()
    log_in(page, first.username)
    page.goto(f"/matches/{match.pk}/replay/")
    expect(page.get_by_test_id("replay-ending")).to_contain_text("Decided by a concession.")
    expect(page.get_by_test_id("next-step")).to_be_enabled()
    page.keyboard.press("End")
    action = page.get_by_test_id("replay-action")
    expect(action).to_contain_text("conceded the match")
    expect(action).to_contain_text("won the match")
    expect(action).to_contain_text("Decided by a concession.")
    for _ in range(6):  # back through the proposal to the bot taking the leaver's seat
        page.get_by_test_id("prev-step").click()
        if "A bot now plays for" in action.text_content():
            break
    expect(action).to_contain_text("A bot now plays for")
