"""Issue 31, entries as clubs run them, in a real Chromium by clicks only, in Spanish: in a league
under way a player is substituted after week 1 was played, and week 1 still reads as it was (the
pair's name, who played) while week 2 says who plays now; then a pair is withdrawn from the
competition page through its confirmation page, which says the league's rule."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Membership, Player
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in
from tests.competitions_db.helpers import make_club, make_competition
from tournaments.models import AuditEntry, Entry, EntryPlayer, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def pair(competition, club, first, second):
    users = []
    for name in (first, second):
        user = get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)
        Membership.objects.create(club=club, user=user)
        users.append(user)
    entry = Entry.objects.create(competition=competition, name=f"{first} & {second}", status=Entry.Status.CONFIRMED)
    for position, user in enumerate(users):
        EntryPlayer.objects.create(entry=entry, competition=competition, user=user, position=position,
                                   accepted_at=competition.created_at)
    return entry


def test_a_substitute_leaves_earlier_rounds_as_they_were_and_a_pair_is_withdrawn_by_clicks(
        page, browser, asgi_live):  # noqa: F811
    page.set_viewport_size({"width": 1280, "height": 900})
    page.context.set_extra_http_headers({"Accept-Language": "es-ES"})
    page.on("dialog", lambda dialog: dialog.accept())
    organiser = get_user_model().objects.create_user("organiser", "organiser@example.com", PASSWORD)
    Player.objects.update_or_create(user=organiser, defaults={"preferred_language": "es"})
    log_in(page, "organiser")
    club = make_club(organiser, time_zone="America/Port_of_Spain")
    league = make_competition(club, format="league", starts_in=timedelta(days=1),
                              round_interval=timedelta(days=7), created_by=organiser)
    ours = pair(league, club, "carlos", "omar")
    pair(league, club, "ana", "beto")
    pair(league, club, "dora", "elias")
    leaving = pair(league, club, "fede", "gala")
    rosa = get_user_model().objects.create_user("rosa", "rosa@example.com", PASSWORD)
    Membership.objects.create(club=club, user=rosa)

    page.goto(league.get_absolute_url())
    page.get_by_test_id("start-now").click()
    expect(page.get_by_test_id("competition-status")).to_have_text("En curso")

    # Week 1: the organiser records a walkover in the pairing of Carlos & Omar.
    week_one = Pairing.objects.filter(competition=league, round_number=1, home=ours).first() or \
        Pairing.objects.get(competition=league, round_number=1, away=ours)
    page.get_by_role("link", name="Ronda 1", exact=True).click()
    row = page.locator(f"#pairing-{week_one.pk}")
    row.get_by_text("Controles del organizador").click()
    walkover = row.get_by_test_id("control-walkover")
    walkover.locator("select").select_option(index=0)
    walkover.locator("input[type=text], textarea").first.fill("No vinieron")
    walkover.locator("button").click()
    row = page.locator(f"#pairing-{week_one.pk}")
    expect(row.get_by_test_id("pairing-result")).to_contain_text("Incomparecencia")

    # Rosa comes in for Omar, from the same row's controls.
    row.get_by_text("Controles del organizador").click()
    substitute = row.get_by_test_id("control-substitute")
    substitute.locator("select").nth(0).select_option(label="omar")
    substitute.locator("select").nth(1).select_option(label="rosa")
    substitute.locator("button").click()
    expect(page.locator(f"#pairing-{week_one.pk}").get_by_test_id("control-message")).to_be_visible()

    # Week 1 reads as it was: the pair's name, and nobody "played by" Rosa.
    page.reload()
    played = page.locator(f"#pairing-{week_one.pk} tr").first  # the row read, not its controls
    expect(played).to_contain_text("carlos & omar")
    expect(played).not_to_contain_text("rosa")
    expect(page.get_by_test_id("round-pairings").get_by_test_id("played-by")).to_have_count(0)
    # Week 2: the same pair's name, and who plays for it now.
    page.goto(league.get_absolute_url())
    page.get_by_role("link", name="Ronda 2", exact=True).click()
    table = page.get_by_test_id("round-pairings")
    expect(table).to_contain_text("carlos & omar")
    expect(table.get_by_test_id("played-by")).to_have_text("jugado por carlos & rosa")
    # The competition page: the pair keeps its name, and the audit says who went out and in.
    page.goto(league.get_absolute_url())
    expect(page.get_by_test_id("entries")).to_contain_text("carlos & omar")
    expect(page.get_by_test_id("audit-who").first).to_contain_text(re.compile("omar.*rosa"))

    # Withdraw Fede & Gala: the confirmation page says the league's rule.
    page.get_by_test_id("entries").get_by_role("listitem").filter(has_text="fede & gala") \
        .get_by_test_id("withdraw-pair").click()
    expect(page.get_by_test_id("withdraw-rule")).to_contain_text("cada encuentro que le queda")
    page.fill("#id_reason", "Se mudan")
    page.get_by_test_id("confirm-withdraw").click()
    expect(page.get_by_test_id("entries").get_by_role("listitem").filter(has_text="fede & gala")) \
        .to_contain_text("Retirada")
    expect(page.get_by_test_id("audit-log")).to_contain_text("fede & gala")
    leaving.refresh_from_db()
    assert leaving.status == Entry.Status.WITHDRAWN
    assert AuditEntry.objects.get(competition=league, action=AuditEntry.Action.WITHDRAWN).entry_id == leaving.pk
    week_one_of_leaving = Pairing.objects.filter(competition=league, round_number=1, away=leaving).first() or \
        Pairing.objects.get(competition=league, round_number=1, home=leaving)
    assert week_one_of_leaving.walkover and week_one_of_leaving.winner_id != leaving.pk

    # On a phone: the competition page (announcements, entries), a round page with its Remind and
    # its "played by", and a withdraw confirmation scroll no page sideways.
    page.set_viewport_size({"width": 390, "height": 800})
    ours_url = f"/competitions/{league.pk}/entries/{ours.pk}/withdraw-pair/"
    for url in (league.get_absolute_url(), f"/competitions/{league.pk}/rounds/1/", f"/competitions/{league.pk}/rounds/2/",
                ours_url):
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), url
