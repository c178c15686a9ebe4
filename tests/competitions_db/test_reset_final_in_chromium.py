"""Issue 31 in a real Chromium, by clicks, in Spanish: a double elimination of four pairs is run
to a reset final with every result entered as played face to face at the club, and the pages
show those results as such (no replay) and the champion of the decider."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Player
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import human_pairs, make_club
from tests.competitions_db.test_organiser_journey_in_chromium import act_on, open_club_from_home, refresh_by
from tournaments.models import Competition, Pairing
from tournaments.services import manager

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def losses(competition) -> dict[int, int]:
    lost: dict[int, int] = {}
    for pairing in competition.pairings.exclude(decided_at=None).exclude(away=None):
        loser = pairing.away_id if pairing.winner_id == pairing.home_id else pairing.home_id
        lost[loser] = lost.get(loser, 0) + 1
    return lost


def test_a_double_elimination_runs_to_its_reset_final_on_results_entered_at_the_club(page, browser, asgi_live):  # noqa: F811
    page.context.set_extra_http_headers({"Accept-Language": "es-ES"})
    page.on("dialog", lambda dialog: dialog.accept())
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.com", PASSWORD)
    Player.objects.update_or_create(user=organiser, defaults={"preferred_language": "es"})
    log_in(page, "organiser")
    club = make_club(organiser, time_zone="Europe/Madrid")

    open_club_from_home(page, club)
    page.fill("#id_name", "Copa doble")
    refresh_by(page, "#id_format", "double_elimination")
    expect(page.locator("#id_grand_final_reset")).to_be_checked()
    page.get_by_test_id("create-competition").click()
    competition = Competition.objects.get(name="Copa doble")
    human_pairs(competition, 4)
    page.reload()
    page.get_by_test_id("start-now").click()
    expect(page.get_by_test_id("competition-status")).to_have_text(re.compile("En curso"))

    for _ in range(12):  # rounds: the scheduler's beat between them, every result by clicks
        manager.step(competition.pk)
        competition.refresh_from_db()
        waiting = list(competition.pairings.filter(decided_at=None).exclude(away=None).order_by("round_number", "slot"))
        if not waiting:
            break
        for pairing in waiting:
            page.goto(f"/competitions/{competition.pk}/rounds/{pairing.round_number}/")
            # Before the grand final the home pair wins; in it the pair that has lost once wins, forcing the reset.
            side = "home"
            if pairing.label == "GF":
                side = "away" if losses(competition).get(pairing.away_id) == 1 else "home"
                assert losses(competition).get(pairing.home_id if side == "away" else pairing.away_id, 0) == 0
            act_on(page, pairing, "club", winner=side, home_points="1" if side == "home" else "0",
                   away_points="0" if side == "home" else "1")
            row = page.locator(f"#pairing-{pairing.pk}")
            expect(row.get_by_test_id("pairing-result")).to_contain_text("1–0 Jugada en el club" if side == "home" else "0–1 Jugada en el club")
    competition.refresh_from_db()

    final, decider = Pairing.objects.get(competition=competition, label="GF"), Pairing.objects.get(
        competition=competition, label="GF2")
    assert final.source == decider.source == Pairing.Source.CLUB and decider.decided_at
    assert competition.status == Competition.Status.FINISHED
    assert not competition.pairings.exclude(match=None).exists()  # nothing played at a table: no replay
    page.goto(competition.get_absolute_url())
    expect(page.get_by_test_id("grand-final-reset")).to_be_visible()
    expect(page.get_by_test_id("champion")).to_contain_text(decider.winner.name)
    page.goto(f"/competitions/{competition.pk}/rounds/{decider.round_number}/")
    expect(page.locator(f"#pairing-{decider.pk}")).not_to_contain_text("Repetición")
