"""The archive of finished matches on a 360-px phone (issue 32): each match is a card of its own,
its Replay button and its competition on the screen, nothing hidden in a table that scrolls
sideways, in every language."""

import pytest
from playwright.sync_api import expect

from tests.browser.play_helpers import bots_match, log_in, shot
from tests.competitions_db.helpers import bot_pairs, drive, make_club, make_competition
from tournaments.models import Competition

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}

# Every row's Replay button and competition: their left and right edges; the frame's sideways scroll.
PLACES = """() => ({
  width: document.documentElement.clientWidth,
  scroll: document.documentElement.scrollWidth,
  frame: (f => [f.scrollWidth, f.clientWidth])(document.querySelector('.table-frame')),
  cells: [...document.querySelectorAll('[data-testid=archive-replay], [data-testid=archive-competition]')]
    .map(node => [node.dataset.testid, node.getBoundingClientRect().left, node.getBoundingClientRect().right]),
})"""


@pytest.mark.timeout(300)
def test_every_finished_match_shows_its_replay_and_competition_on_a_360_px_phone(browser, asgi_live):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, "archivist")
    from django.contrib.auth import get_user_model

    club = make_club(organiser=get_user_model().objects.get(username="archivist"))
    competition = make_competition(club, format="single_elimination", game="allfours")
    Competition.objects.filter(pk=competition.pk).update(name="Port of Spain Friday Night Knockout Cup 2026")
    bot_pairs(competition, 4)
    drive(competition)
    bots_match("baloot", seed=11)
    failures = []
    for language in ["ar", "es", "en"]:
        context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
        page.goto("/matches/")
        expect(page.get_by_test_id("archive-row").first).to_be_visible()
        found = page.evaluate(PLACES)
        if found["scroll"] > found["width"] or found["frame"][0] > found["frame"][1]:
            failures.append(f"{language}: scrolls sideways (page {found['scroll']}, frame {found['frame']})")
        for testid, left, right in found["cells"]:
            if left < 0 or right > found["width"]:
                failures.append(f"{language}: {testid} is off the screen ({left:.0f}..{right:.0f})")
        assert len(found["cells"]) >= 2 * 4, found  # three cup matches and a casual one at least
        expect(page.get_by_test_id("archive-competition").first).to_be_in_viewport()
        expect(page.get_by_test_id("archive-replay").first).to_be_in_viewport()
        shot(page, f"archive-phone-{language}")
    assert not failures, "\n".join(failures)
    context.close()
