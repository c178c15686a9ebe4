"""Issue 31, groups then knockout, in a real Chromium in Spanish by clicks: the organiser creates
the competition from the club page (groups of 4, the best 2 through), adds pairs, starts it, reads
"Ganador del grupo A" in the bracket, enters every match's face-to-face result from the round pages,
and reads the group tables, the crossover semi-finals and the champion.

Setup that is not the organiser's journey (players who exist and are members, six of the eight
pairs entered, the scheduler's beat between rounds) is done through the services."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Player
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import human_pairs, make_club
from tests.competitions_db.test_organiser_journey_in_chromium import act_on, members, open_club_from_home, refresh_by
from tournaments.models import Competition, Pairing
from tournaments.services import groups, manager

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def enter_results_of_round(page, competition, number):
    """Every match of the round decided at the club: the better seed wins 1-0."""
    page.goto(competition.get_absolute_url())
    page.locator(f"a[href='/competitions/{competition.pk}/rounds/{number}/']").first.click()
    for pairing in Pairing.objects.filter(competition=competition, round_number=number,
                                          away__isnull=False).select_related("home", "away").order_by("slot"):
        home_better = pairing.home.seed < pairing.away.seed
        act_on(page, pairing, "club", winner="home" if home_better else "away",
               home_points="1" if home_better else "0", away_points="0" if home_better else "1")
    manager.step(competition.pk)  # the scheduler's beat draws the next round


def test_groups_then_knockout_of_eight_pairs_from_entries_to_champion_by_clicks_in_spanish(page, browser, asgi_live):  # noqa: F811
    page.context.set_extra_http_headers({"Accept-Language": "es-ES"})
    page.on("dialog", lambda dialog: dialog.accept())
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.com", PASSWORD)
    Player.objects.update_or_create(user=organiser, defaults={"preferred_language": "es"})
    log_in(page, "organiser")
    club = make_club(organiser, time_zone="America/Port_of_Spain")
    members(club, "amina", "bilal", "carla", "dev")

    open_club_from_home(page, club)
    page.fill("#id_name", "Copa de grupos")
    refresh_by(page, "#id_format", "groups_knockout")
    expect(page.locator("#id_group_size")).to_be_visible()
    page.fill("#id_group_size", "4")
    page.fill("#id_group_qualifiers", "4")  # as many as a group holds: refused beside the field
    page.get_by_test_id("create-competition").click()
    expect(page.locator("#id_group_qualifiers").locator("xpath=..")).to_contain_text("Deben pasar menos parejas")
    expect(page.locator("#id_name")).to_have_value("Copa de grupos")
    page.fill("#id_group_qualifiers", "2")
    page.get_by_test_id("create-competition").click()
    expect(page.get_by_test_id("competition-name")).to_have_text("Copa de grupos")
    competition = Competition.objects.get(name="Copa de grupos")
    assert (competition.format, competition.group_size, competition.group_qualifiers) == ("groups_knockout", 4, 2)
    expect(page.get_by_test_id("groups-facts")).to_contain_text("grupos de 4")

    page.get_by_test_id("add-pairs").click()
    for first, second in (("amina", "bilal"), ("carla", "dev")):
        form = page.get_by_test_id("tool-add_pair")
        form.locator("[name=first]").fill(first)
        form.locator("[name=second]").fill(second)
        form.locator("button").click()
    human_pairs(competition, 6)
    page.goto(competition.get_absolute_url())
    expect(page.get_by_test_id("bracket").locator("text=Ganador del grupo A")).to_have_count(1)
    page.get_by_test_id("start-now").click()
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("En curso"))
    expect(page.get_by_test_id("group-table")).to_have_count(2)
    expect(page.get_by_test_id("bracket").locator("text=Segundo del grupo B")).to_have_count(1)

    for number in (1, 2, 3):
        enter_results_of_round(page, competition, number)
    page.goto(competition.get_absolute_url())
    expect(page.get_by_test_id("through")).to_have_count(4)
    tables = groups.group_tables(competition)
    a1, a2, b1, b2 = (tables[0].rows[0].entry, tables[0].rows[1].entry, tables[1].rows[0].entry,
                      tables[1].rows[1].entry)
    semis = {frozenset((p.home_id, p.away_id)) for p in Pairing.objects.filter(competition=competition, round_number=4)}
    assert semis == {frozenset((a1.pk, b2.pk)), frozenset((b1.pk, a2.pk))}
    expect(page.get_by_test_id("bracket")).to_contain_text(a1.name)

    for number in (4, 5):
        enter_results_of_round(page, competition, number)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    page.get_by_test_id("bracket-link").click()
    champion = competition.standings.get(rank=1).entry
    assert champion.pk == min((a1, b1), key=lambda e: e.seed).pk
    expect(page.get_by_test_id("champion")).to_contain_text(champion.name)
