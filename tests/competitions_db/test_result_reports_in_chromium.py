"""Players report a match played at the club, in a real Chromium, by clicks: a Spanish player
reports it from the competition's round page; an Arabic player of the other pair, on a 390 px
phone, follows the notification and confirms it; the result counts (issue 31)."""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tests.competitions_db.test_organiser_journey_in_chromium import open_menu_on_a_phone
from tournaments.models import Pairing
from tournaments.services import manager

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_player_reports_and_the_other_pair_confirms_on_a_phone_in_arabic(page, browser, asgi_live):  # noqa: F811
    club = make_club(make_user("organiser"))
    competition = make_competition(club, format="single_elimination", players_report=True)
    competition.name = "Copa del jueves"
    competition.save(update_fields=["name"])
    pairs = human_pairs(competition, 2)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition)
    home_users = next(users for entry, users in pairs if entry.pk == pairing.home_id)
    away_users = next(users for entry, users in pairs if entry.pk == pairing.away_id)
    for user, language in ((home_users[0], "es"), (away_users[1], "ar")):
        Player.objects.filter(user=user).update(preferred_language=language)
        Membership.objects.create(club=club, user=user)
        user.set_password(PASSWORD)
        user.save()

    log_in(page, home_users[0].username)
    page.locator("header nav a[href='/competitions/']").click()
    page.get_by_role("link", name="Copa del jueves").click()
    page.locator(f"a[href='/competitions/{competition.pk}/rounds/1/']").click()
    form = page.get_by_test_id("report-form")
    form.locator(f"[name=r{pairing.pk}-winner]").select_option("home")
    form.locator(f"[name=r{pairing.pk}-home_points]").fill("3")  # nonsense first: kept, refused beside the box
    form.get_by_test_id("send-report").click()
    expect(page.get_by_test_id("report-form")).to_contain_text("En una partida a un solo juego")
    expect(page.locator(f"[name=r{pairing.pk}-home_points]")).to_have_value("3")
    page.locator(f"[name=r{pairing.pk}-home_points]").fill("1")
    page.get_by_test_id("send-report").click()
    expect(page.get_by_test_id("report-state")).to_contain_text("Esperando a que la otra pareja lo confirme")

    phone = browser.new_context(base_url=asgi_live.url, locale="ar", viewport={"width": 390, "height": 844})
    opponent = phone.new_page()
    opponent.on("dialog", lambda dialog: dialog.accept())
    log_in(opponent, away_users[1].username)
    open_menu_on_a_phone(opponent)
    opponent.get_by_test_id("nav-notifications").click()
    opponent.get_by_test_id("notifications").get_by_role("link").first.click()
    expect(opponent.get_by_test_id("report-state")).to_contain_text("بانتظار أن يؤكّدها الثنائي الآخر")
    assert opponent.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    opponent.get_by_test_id("confirm-report").click()
    expect(opponent.locator(f"#pairing-{pairing.pk}").get_by_test_id("pairing-result")).to_contain_text("1–0")
    pairing.refresh_from_db()
    assert (pairing.winner_id, pairing.source) == (pairing.home_id, Pairing.Source.CLUB)
    phone.close()
