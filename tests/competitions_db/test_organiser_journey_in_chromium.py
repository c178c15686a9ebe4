"""In a real Chromium, by clicks only: an organiser runs a whole Swiss from the home page (in
English and in Spanish), and a knockout of 6 pairs shows its whole bracket before a match is played.

Setup that is not the organiser's journey (players who exist and are members, a partner's own
acceptance, the scheduler's beat between rounds) is done through the services."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Membership
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import human_pairs, make_club
from tournaments.models import AuditEntry, Competition
from tournaments.services import entries, manager

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def members(club, *names):
    users = get_user_model().objects
    made = [users.create_user(name, f"{name}@example.com", PASSWORD) for name in names]
    for user in made:
        Membership.objects.create(club=club, user=user)
    return made


def open_menu_on_a_phone(page):
    """On a phone the header's links are behind Menu (templates/base.html): tap it, as a person would."""
    toggle = page.get_by_test_id("nav-toggle")
    if toggle.is_visible():
        toggle.click()


def open_club_from_home(page, club):
    page.goto("/")
    open_menu_on_a_phone(page)
    page.locator("header nav a[href='/clubs/']").click()
    page.locator(f"a[href='/clubs/{club.slug}/']").first.click()
    page.get_by_test_id("new-competition").first.click()


def refresh_by(page, selector, value):
    """Change a select that refreshes the form with htmx and wait until the new form has replaced
    the old one (a response alone is not enough: the next change must not land on the old form)."""
    page.locator("#competition-form").evaluate("form => { form.dataset.replaced = 'not yet'; }")
    with page.expect_response(re.compile(r"/competitions/new/")):
        page.select_option(selector, value)
    expect(page.locator("#competition-form[data-replaced]")).to_have_count(0)
    expect(page.locator("#competition-form")).to_have_count(1)


def fill_the_form_changing_game_twice_and_format_once(page, name):
    page.fill("#id_name", name)
    page.fill("#id_grace", "7")
    starts = page.locator("#id_starts_at").input_value()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d", starts), starts  # usable in every language
    refresh_by(page, "#id_game", "baloot")
    refresh_by(page, "#id_game", "cuatrola")
    refresh_by(page, "#id_format", "single_elimination")
    expect(page.locator("#id_name")).to_have_value(name)
    expect(page.locator("#id_grace")).to_have_value("7")
    expect(page.locator("#id_starts_at")).to_have_value(starts)
    expect(page.locator("#id_third_place_match")).to_be_visible()
    expect(page.locator("#id_swiss_rounds")).to_have_count(0)
    expect(page.locator("#id_preset")).to_have_value("standard")


def act_on(page, pairing, action, **fields):
    """Open a pairing's controls, fill the control's form, confirm, and wait for the row to change."""
    row = page.locator(f"#pairing-{pairing.pk}")
    row.get_by_test_id("pairing-controls").locator("summary").click()
    form = row.get_by_test_id(f"control-{action}")
    for name, value in fields.items():
        field = form.locator(f"[name=p{pairing.pk}-{name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    with page.expect_response(re.compile(rf"/pairings/{pairing.pk}/control/{action}/")):
        form.locator("button").click()
    expect(page.locator(f"#pairing-{pairing.pk}").get_by_test_id("control-message")).to_be_visible()


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_an_organiser_runs_a_swiss_of_four_pairs_to_its_champion_by_clicks(page, browser, asgi_live, locale):  # noqa: F811
    page.context.set_extra_http_headers({"Accept-Language": locale})
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, "organiser")
    organiser = get_user_model().objects.get(username="organiser")
    club = make_club(organiser, time_zone="Europe/Madrid")
    amina, bilal, carla, dev, eva, femi, gus, hana, sub = members(
        club, "amina", "bilal", "carla", "dev", "eva", "femi", "gus", "hana", "sub")

    open_club_from_home(page, club)
    fill_the_form_changing_game_twice_and_format_once(page, "Winter Swiss")
    refresh_by(page, "#id_format", "swiss")
    page.fill("#id_swiss_rounds", "2")
    page.get_by_test_id("create-competition").click()
    expect(page.get_by_test_id("competition-name")).to_have_text("Winter Swiss")
    competition = Competition.objects.get(name="Winter Swiss")
    assert (competition.game, competition.grace.total_seconds()) == ("cuatrola", 420)

    for inviter, partner in ((amina, bilal), (carla, dev)):  # entered by partner invitation
        entries.answer_invitation(entries.enter(competition, inviter, partner), partner, True)
    page.get_by_test_id("add-pairs").click()
    for first, second in (("eva", "femi"), ("gus", "hana")):
        form = page.get_by_test_id("tool-add_pair")
        form.locator("[name=first]").fill(first)
        form.locator("[name=second]").fill(second)
        form.locator("button").click()
    page.goto(competition.get_absolute_url())
    page.get_by_test_id("start-now").click()
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("Running|En curso"))

    page.locator(f"a[href='/competitions/{competition.pk}/rounds/1/']").click()
    first, second = competition.pairings.order_by("slot")
    leaving = first.home.players.first().user
    act_on(page, first, "substitute", old=str(leaving.pk), new=str(sub.pk), reason="ill")
    act_on(page, first, "walkover", winner="home", reason="no show")
    act_on(page, second, "walkover", winner="away", reason="no show")
    act_on(page, first, "correct", winner="away", home_points="0", away_points="1", reason="the check-in failed")

    manager.step(competition.pk)  # the scheduler's beat opens round 2
    page.goto(f"/competitions/{competition.pk}/rounds/2/")
    for pairing in competition.pairings.filter(round_number=2).order_by("slot"):
        act_on(page, pairing, "walkover", winner="home", reason="no show")

    manager.step(competition.pk)
    page.goto(f"/competitions/{competition.pk}/standings/")
    champion = competition.standings.get(position=1).entry
    expect(page.get_by_test_id("champion")).to_contain_text(champion.name)
    expect(page.get_by_test_id("standings").locator("tbody tr")).to_have_count(4)
    page.goto(competition.get_absolute_url())
    log = page.get_by_test_id("audit-log")
    expect(log).to_contain_text("the check-in failed")
    expect(log).to_contain_text("organiser")
    assert AuditEntry.objects.filter(competition=competition, actor=organiser,
                                     action=AuditEntry.Action.STARTED).exists()
    assert competition.entries.filter(players__user=sub).exists()


def test_a_knockout_of_six_shows_three_rounds_with_byes_and_future_boxes_before_any_match(page, browser, asgi_live):  # noqa: F811
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, "organiser")
    organiser = get_user_model().objects.get(username="organiser")
    club = make_club(organiser)
    open_club_from_home(page, club)
    page.fill("#id_name", "Spring Knockout")
    refresh_by(page, "#id_format", "single_elimination")
    page.get_by_test_id("create-competition").click()
    competition = Competition.objects.get(name="Spring Knockout")
    human_pairs(competition, 6)  # nobody checks in: no match is played while we look
    page.goto(competition.get_absolute_url())
    page.get_by_test_id("start-now").click()
    page.get_by_test_id("bracket-link").click()

    heads = page.get_by_test_id("bracket-round")
    expect(heads).to_have_text(["Quarter-finals", "Semi-finals", "Final"])
    bracket = page.get_by_test_id("bracket")
    expect(bracket.locator("text=bye")).to_have_count(2)
    expect(bracket.locator("g.future")).to_have_count(3)
    expect(bracket.locator("text=/Winner of Quarter-finals/")).to_have_count(2)
    links = bracket.get_by_test_id("bracket-match")
    expect(links).to_have_count(4)
    hrefs = {links.nth(i).get_attribute("href") for i in range(4)}
    pairings = competition.pairings.filter(round_number=1)
    assert all(href.startswith(f"/competitions/{competition.pk}/rounds/1/") or "/matches/" in href for href in hrefs)
    assert pairings.count() == 4
