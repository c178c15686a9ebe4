"""The ratings box beside a finished table (issue 32): its headings and numbers are never broken
inside a word ("Befo re", "+20. 0"), on a desktop's narrow sidebar and on a 360-px phone, in every
language; the players' names wrap instead, and nothing spills out of the box."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tournaments.ratings.models import RatingChange

from .play_helpers import bots_match, shot

pytestmark = pytest.mark.browser

# Every heading and number cell (not the names): how many lines it takes; the box's overflow.
BROKEN = """() => {
  const table = document.querySelector('.rating-changes');
  const broken = [];
  for (const cell of table.querySelectorAll('th:not(:first-child), td:not(:first-child)')) {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const lines = range.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight);
    if (lines > 1.5) broken.push(cell.textContent.trim());
  }
  const side = table.closest('aside');
  return {broken, spills: table.getBoundingClientRect().right > side.getBoundingClientRect().right + 0.5
                          || table.getBoundingClientRect().left < side.getBoundingClientRect().left - 0.5};
}"""


@pytest.mark.timeout(300)
def test_the_rating_box_breaks_no_heading_or_number_inside_a_word(browser, asgi_live):
    match, _game = bots_match("baloot", seed=11)
    for seat in range(4):
        user = get_user_model().objects.create_user(f"Bartholomew-Alexandrovich-{seat}")
        RatingChange.objects.create(
            match=match, user=user, game="baloot", finished_at=match.finished_at, team=seat % 2,
            score=1 - seat % 2, k=32, elo_before=1500.0, elo_after=1520.0 if seat % 2 == 0 else 1480.0,
            elo_delta=20.0 if seat % 2 == 0 else -20.0, glicko_before=1500, glicko_after=1500, glicko_delta=0,
            rd_before=350, rd_after=300, volatility_before=0.06, volatility_after=0.06)
    failures = []
    for width in [1280, 360]:
        context = browser.new_context(base_url=asgi_live.url, viewport={"width": width, "height": 800})
        context.set_default_timeout(15_000)
        page = context.new_page()
        for language in ["en", "es", "ar"]:
            context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
            page.goto(f"/matches/{match.pk}/")
            expect(page.locator(".rating-changes tbody tr")).to_have_count(4)
            found = page.evaluate(BROKEN)
            if found["broken"] or found["spills"]:
                failures.append(f"{width} px {language}: broken {found['broken']}, spills out: {found['spills']}")
                shot(page, f"rating-box-{width}-{language}")
        context.close()
    assert not failures, "\n".join(failures)
