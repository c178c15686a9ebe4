"""Issue 31: seeds set by hand on a Spanish and an Arabic phone (390 px) in a real Chromium, by clicks only: the
number boxes and a drag by a pair's handle, then Start now; the bracket pairs the seeds 1 v 4, 2 v 3."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Player
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import bot_pairs, make_club, make_competition
from tournaments.models import AuditEntry, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def drag(page, handle, target):
    """A finger-like drag: press on the handle, move in steps over the target row, release."""
    expect(handle).to_be_visible()
    handle.scroll_into_view_if_needed()
    start, end = handle.bounding_box(), target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(start["x"] + start["width"] / 2,
                        start["y"] + (end["y"] + 4 - start["y"]) * step / 8)
    page.mouse.up()


@pytest.mark.parametrize("language", ["es", "ar"])
def test_seeds_by_hand_on_a_phone_decide_the_brackets_first_round(page, asgi_live, language):  # noqa: F811
    page.set_viewport_size({"width": 390, "height": 844})
    page.context.set_extra_http_headers({"Accept-Language": language})
    page.on("dialog", lambda dialog: dialog.accept())
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.com", PASSWORD)
    Player.objects.update_or_create(user=organiser, defaults={"preferred_language": language})
    log_in(page, "organiser")
    competition = make_competition(make_club(organiser, time_zone="America/Port_of_Spain"),
                                   format="single_elimination", seeding="hand", starts_in=timedelta(days=1))
    bot_pairs(competition, 4)

    page.goto(competition.get_absolute_url())
    page.get_by_test_id("set-seeds").click()
    rows = page.get_by_test_id("seed-row")
    expect(rows).to_have_count(4)
    # The drag: Bots 4 by its handle to the top; every box then says its row's place.
    drag(page, rows.filter(has_text="Bots 4").get_by_test_id("drag-handle"), rows.first)
    expect(rows.first).to_contain_text("Bots 4")
    expect(rows.filter(has_text="Bots 4").locator("input")).to_have_value("1")
    expect(rows.filter(has_text="Bots 3").locator("input")).to_have_value("4")
    # The boxes: Bots 2 and Bots 3 swap numbers, typed.
    rows.filter(has_text="Bots 2").locator("input").fill("4")
    rows.filter(has_text="Bots 3").locator("input").fill("3")
    page.get_by_test_id("save-seeds").click()
    expect(page.get_by_test_id("entries")).to_contain_text(re.compile(r"(Cabeza de serie 1|المصنَّف 1):\s*Bots 4"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.SEEDED).count() == 4

    page.get_by_test_id("start-now").click()
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("En curso|Terminada|جارية|منتهية"))
    page.get_by_test_id("bracket-link").click()
    first_round = page.locator("g[data-box]").filter(has_text="(1) Bots 4")
    expect(first_round.first).to_contain_text("(4) Bots 2")
    expect(page.locator("g[data-box]").filter(has_text="(2) Bots 1").first).to_contain_text("(3) Bots 3")
    pairs = {frozenset((p.home.name, p.away.name))
             for p in Pairing.objects.filter(competition=competition, round_number=1).select_related("home", "away")}
    assert pairs == {frozenset(("Bots 4", "Bots 2")), frozenset(("Bots 1", "Bots 3"))}
