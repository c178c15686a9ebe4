"""Issue 31 in a real Chromium, by clicks, in Spanish and Arabic (one at 390 px): a double elimination
keeps its grand-final reset and its page says so, it is edited before its start, and a competition
that cannot start says why and stays open."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Player
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import human_pairs, make_club
from tests.competitions_db.test_organiser_journey_in_chromium import open_club_from_home, refresh_by
from tournaments.models import AuditEntry, Competition

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("locale, width", [("es-ES", 1280), ("ar", 390)])
def test_a_double_elimination_keeps_its_reset_is_edited_and_cannot_start_alone(page, browser, asgi_live,  # noqa: F811
                                                                                locale, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.context.set_extra_http_headers({"Accept-Language": locale})
    page.on("dialog", lambda dialog: dialog.accept())
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.com", PASSWORD)
    Player.objects.update_or_create(user=organiser, defaults={"preferred_language": locale[:2]})
    log_in(page, "organiser")  # the profile's language from the first page on
    club = make_club(organiser, time_zone="America/Port_of_Spain")

    open_club_from_home(page, club)
    page.fill("#id_name", "Copa Baloot")
    refresh_by(page, "#id_format", "double_elimination")
    expect(page.locator("#id_grand_final_reset")).to_be_checked()
    page.get_by_test_id("create-competition").click()
    expect(page.get_by_test_id("competition-name")).to_have_text("Copa Baloot")
    competition = Competition.objects.get(name="Copa Baloot")
    assert competition.grand_final_reset is True
    expect(page.get_by_test_id("grand-final-reset")).to_have_text(re.compile("se vuelve a jugar|يُعاد النهائي"))

    page.get_by_test_id("edit-competition").click()
    expect(page.locator("#id_grand_final_reset")).to_be_checked()
    page.fill("#id_name", "Copa Baloot de invierno")
    page.fill("#id_grace", "9")
    page.get_by_test_id("save-competition").click()
    expect(page.get_by_test_id("competition-name")).to_have_text("Copa Baloot de invierno")
    competition.refresh_from_db()
    assert competition.grace.total_seconds() == 540 and competition.grand_final_reset is True
    assert AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.EDITED,
                                     actor=organiser).exists()

    human_pairs(competition, 1)
    page.reload()
    page.get_by_test_id("start-now").click()
    expect(page.locator(".messages .message.error")).to_contain_text(re.compile("solo tiene una|ثنائي واحد فقط"))
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("Inscripción abierta|التسجيل مفتوح"))
    competition.refresh_from_db()
    assert competition.status == Competition.Status.OPEN
    if width <= 390:
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
