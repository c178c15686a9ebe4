"""In a real Chromium: an organiser creates a tournament, two pairs enter (one by invitation, one
added by the organiser), the round opens and the players reach their table."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Membership
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import log_in
from tests.competitions_db.helpers import make_club
from tournaments.models import Competition, Pairing
from tournaments.services import manager

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def context_for(browser, base_url, username):  # noqa: F811
    context = browser.new_context(base_url=base_url, locale="en-US")
    context.set_default_timeout(15_000)
    tab = context.new_page()
    log_in(tab, username)
    return tab


def test_organiser_creates_a_tournament_pairs_enter_and_players_reach_their_table(page, browser, asgi_live):  # noqa: F811
    log_in(page, "organiser")
    club = make_club()
    Membership.objects.create(club=club, user=get_user_model().objects.get(username="organiser"),
                              role=Membership.Role.ORGANISER)

    page.goto(f"/competitions/new/{club.slug}/")
    page.fill("#id_name", "Friday Knockout")
    page.select_option("#id_format", "single_elimination")
    page.fill("#id_starts_at", "2030-01-01T19:00")
    page.get_by_test_id("create-competition").click()
    expect(page.get_by_test_id("competition-name")).to_have_text("Friday Knockout")
    competition = Competition.objects.get(name="Friday Knockout")

    amina = context_for(browser, asgi_live.url, "amina")
    get_user_model().objects.create_user("bilal", "bilal@example.com", "x-unused-1234")
    amina.goto(f"/competitions/{competition.pk}/")
    amina.fill("#id_partner", "bilal")
    amina.get_by_test_id("enter").click()
    expect(amina.get_by_test_id("my-pair")).to_contain_text("Waiting for the partner")
    bilal = browser.new_context(base_url=asgi_live.url, locale="en-US").new_page()
    bilal.goto("/accounts/login/")
    bilal.fill("input[name=login]", "bilal")
    bilal.fill("input[name=password]", "x-unused-1234")
    bilal.locator("main form button[type=submit]").click()
    bilal.goto(f"/competitions/{competition.pk}/")
    bilal.get_by_test_id("accept-invitation").click()
    expect(bilal.get_by_test_id("my-pair")).to_contain_text("Entered")

    users = get_user_model().objects
    carla, dev = users.create_user("carla"), users.create_user("dev")
    page.goto(f"/competitions/{competition.pk}/manage/")
    form = page.get_by_test_id("tool-add_pair")
    form.locator("[name=first]").fill("carla")
    form.locator("[name=second]").fill("dev")
    form.locator("button").click()
    page.once("dialog", lambda dialog: dialog.accept())  # Start now asks for confirmation
    with page.expect_navigation():
        page.get_by_test_id("tool-start_now").locator("button").click()
    page.goto(f"/competitions/{competition.pk}/")
    expect(page.get_by_test_id("competition-status")).to_have_text("Running")
    expect(page.get_by_test_id("entries")).to_contain_text("carla & dev")

    pairing = Pairing.objects.get(competition=competition)
    for user in (carla, dev):
        manager.check_in(user, pairing.pk)
    amina.goto(f"/competitions/{competition.pk}/")
    amina.get_by_test_id("check-in").click()
    expect(amina.get_by_test_id("checked-in")).to_be_visible()
    bilal.goto(f"/competitions/{competition.pk}/")
    bilal.get_by_test_id("check-in").click()  # the fourth player: the table is made at once

    pairing.refresh_from_db()
    expect(bilal).to_have_url(re.compile(rf"/matches/{pairing.match_id}/$"))
    # The table-opened alert takes amina there from the competition page (dashboard/alerts.py)
    expect(amina).to_have_url(re.compile(rf"/matches/{pairing.match_id}/$"))
    seats = {s.user.username: s.seat for s in pairing.match.seats.select_related("user")}
    home_is_amina = pairing.home.players.filter(user__username="amina").exists()
    assert {seats["amina"], seats["bilal"]} == ({0, 2} if home_is_amina else {1, 3})
