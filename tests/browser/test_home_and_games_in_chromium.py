"""In Chromium: invitations answered in place on the home page (a club's by name, a friend's
table), and the game-over panel of a best-of-3 with the games score between games."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Membership
from clubs.services import invite_member
from gameplay import services
from gameplay.models import Match
from tests.browser.play_helpers import log_in, play_until, shot
from tests.competitions_db.helpers import make_club, make_user

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def user_named(name):
    return get_user_model().objects.get(username=name)


def test_a_club_invitation_is_accepted_in_place_on_the_home_page(page):
    log_in(page, "layla")
    organiser = make_user()
    club = make_club(organiser)
    club.name = "Port of Spain Fours"
    club.save(update_fields=["name"])
    invite_member(organiser, club, "layla")
    page.goto("/")
    invitation = page.get_by_test_id("club-invitation")
    expect(invitation).to_contain_text("Port of Spain Fours")
    expect(invitation).to_contain_text("(UTC)")  # the answer-by time names its zone
    shot(page, "home-club-invitation")
    invitation.get_by_test_id("accept-club").click()
    expect(page.get_by_test_id("invitation-notice")).to_have_text("Welcome to Port of Spain Fours!")
    expect(page.get_by_test_id("club-invitation")).to_have_count(0)
    expect(page.get_by_test_id("my-clubs")).to_contain_text("Port of Spain Fours")  # updated in place too
    assert Membership.objects.filter(club=club, user=user_named("layla")).exists()


def test_a_friend_takes_the_seat_kept_for_them_and_lands_at_the_table(page):
    log_in(page, "omar")
    host = make_user()
    match = services.create_match("allfours", {}, [services.SeatSpec(user=host),
                                                   services.SeatSpec(bot="random"),
                                                   services.SeatSpec(user=user_named("omar"), invited=True),
                                                   services.SeatSpec(bot="random")], created_by=host)
    page.goto("/")
    invitation = page.get_by_test_id("table-invitation")
    expect(invitation).to_contain_text("as their partner")
    invitation.get_by_test_id("take-seat").click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    match.refresh_from_db()
    assert match.status == "playing"


def test_a_best_of_three_shows_the_game_over_panel_with_the_games_score_between_games(page):
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, "keisha")
    keisha = user_named("keisha")
    match = services.create_match("allfours", {"target_score": 5}, [services.SeatSpec(user=keisha)],
                                  games_to_win=2, created_by=keisha)
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame"
                           " && window.chalkTable.frame.status === 'waiting'")
    services.fill_with_bots(match, "random")  # the table starts while the page listens
    page.wait_for_function("() => window.chalkTable.frame.status === 'playing'")

    play_until(page, "[data-testid=game-over]")
    panel = page.get_by_test_id("game-over")
    expect(panel).to_contain_text("Game 1 is over")
    expect(panel).to_contain_text(re.compile(r"Your team (won|lost) the game"))
    expect(panel.get_by_test_id("games-score")).to_have_text(re.compile(r"\b1\b.*\b0\b|\b0\b.*\b1\b"))
    shot(page, "best-of-3-game-over")
    match.refresh_from_db()
    assert match.status == "playing" and match.game_number == 1 and sorted(match.games_won) == [0, 1]

    panel.get_by_test_id("close-game-over").click()
    expect(panel).to_be_hidden()
    expect(page.get_by_test_id("hand").locator(".hand-card")).not_to_have_count(0)  # game 2 is dealt
