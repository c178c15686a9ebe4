"""Issue 31, a competition's life, in a real Chromium by clicks from the competition page, in Spanish
and in Arabic at 390 px: Run it again with its entries (the copy opens in its edit form), start it,
edit it after the start, cancel after the confirmation, reopen, delete."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Player
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import human_pairs, make_club, make_competition
from tournaments.models import AuditEntry, Competition

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("locale, width", [("es-ES", 1280), ("ar", 390)])
def test_run_again_edit_after_the_start_cancel_reopen_and_delete_by_clicks(page, browser, asgi_live,  # noqa: F811
                                                                          locale, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.context.set_extra_http_headers({"Accept-Language": locale})
    page.on("dialog", lambda dialog: dialog.accept())
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.com", PASSWORD)
    Player.objects.update_or_create(user=organiser, defaults={"preferred_language": locale[:2]})
    log_in(page, "organiser")
    club = make_club(organiser, time_zone="America/Port_of_Spain")
    original = make_competition(club, starts_in=timedelta(days=1), check_in=timedelta(minutes=15))
    Competition.objects.filter(pk=original.pk).update(name="Copa de otoño")
    human_pairs(original, 2)

    page.goto(original.get_absolute_url())
    page.get_by_test_id("run-again").click()
    page.fill("#id_starts_at", "2031-01-10T19:00")
    page.locator("#id_with_entries").check()
    page.get_by_test_id("confirm-run-again").click()
    copy = Competition.objects.exclude(pk=original.pk).get()
    expect(page.locator("#id_name")).to_have_value("Copa de otoño")  # the copy, in its edit form
    assert copy.entries.count() == 2
    page.fill("#id_name", "Copa de invierno")
    page.get_by_test_id("save-competition").click()
    expect(page.get_by_test_id("competition-name")).to_have_text("Copa de invierno")

    page.goto(original.get_absolute_url())
    page.get_by_test_id("start-now").click()
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("En curso|جارية"))
    page.get_by_test_id("edit-competition").click()
    expect(page.locator("#id_format")).to_have_count(0)  # after the start: only what can still change
    page.fill("#id_name", "Copa de otoño (club)")
    page.fill("#id_description", "Premios en la barra")
    page.get_by_test_id("save-competition").click()
    expect(page.get_by_test_id("competition-name")).to_have_text("Copa de otoño (club)")
    expect(page.get_by_test_id("competition-description")).to_have_text("Premios en la barra")
    assert AuditEntry.objects.filter(competition=original, action=AuditEntry.Action.EDITED_LIVE).exists()

    page.get_by_test_id("cancel-competition").click()
    expect(page.get_by_test_id("cancel-plan")).to_contain_text(re.compile("4 inscritos|4 مشاركين"))
    page.get_by_test_id("confirm-cancel").click()
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("Cancelada|ملغاة"))

    page.get_by_test_id("reopen-competition").click()
    page.fill("#id_starts_at", "2031-02-01T19:00")
    page.get_by_test_id("confirm-reopen").click()
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("Inscripción abierta|التسجيل مفتوح"))

    page.get_by_test_id("delete-competition").click()
    page.get_by_test_id("confirm-delete").click()
    expect(page).to_have_url(re.compile(rf"/clubs/{club.slug}/$"))
    assert not Competition.objects.filter(pk=original.pk).exists()
    if width <= 390:
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
