"""The signed-in home in Chromium: the next match with a live countdown, and a player on any
other Chalk page taken to their table the moment it opens."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from gameplay import services
from tests.browser.play_helpers import log_in, shot
from tests.competitions_db.helpers import make_competition, make_user
from tournaments.models import Entry, EntryPlayer, Pairing, Round

pytestmark = pytest.mark.browser


def pair(competition, users, name):
    entry = Entry.objects.create(competition=competition, name=name, status=Entry.Status.CONFIRMED)
    for position, user in enumerate(users):
        EntryPlayer.objects.create(entry=entry, competition=competition, user=user, position=position,
                                   accepted_at=timezone.now())
    return entry


def schedule_match_for(user, starts_in):
    competition = make_competition(starts_in=starts_in)
    competition.name = "Thursday League"
    competition.save(update_fields=["name"])
    home = pair(competition, [user, make_user()], "Aces")
    away = pair(competition, [make_user(), make_user()], "Kings")
    starts = timezone.now() + starts_in
    round_row = Round.objects.create(competition=competition, number=1, status=Round.Status.OPEN,
                                     starts_at=starts, deadline=starts + timedelta(minutes=10))
    return Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=0,
                                  home=home, away=away)


def test_the_dashboard_shows_the_next_match_and_its_countdown_runs(page):
    log_in(page, "amina")
    schedule_match_for(get_user_model().objects.get(username="amina"), timedelta(minutes=10))
    page.goto("/")
    next_match = page.get_by_test_id("next-match")
    expect(next_match).to_contain_text("Thursday League")
    expect(next_match).to_contain_text("Aces")
    countdown = page.get_by_test_id("countdown")
    expect(countdown).to_have_text(re.compile(r"^0:(09|10):\d\d$"))
    first = countdown.inner_text()
    expect(countdown).not_to_have_text(first, timeout=3000)  # it ticks without a reload
    expect(next_match.get_by_test_id("check-in")).to_be_visible()
    shot(page, "dashboard")


def test_a_player_on_another_chalk_page_is_taken_to_their_table_when_it_opens(page):
    log_in(page, "samir")
    samir = get_user_model().objects.get(username="samir")
    page.goto("/clubs/")
    expect(page.locator("html")).to_have_attribute("data-me-socket", "open")
    title = page.title()

    match = services.create_match("allfours", {}, [services.SeatSpec(user=samir)]
                                  + [services.SeatSpec(bot="random")] * 3)

    expect(page.locator("#me-alert")).to_be_visible()
    page.wait_for_function("original => document.title !== original", arg=title)  # the title flashes
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))


def test_the_notification_count_updates_without_a_reload(page):
    log_in(page, "rosa")
    page.goto("/play/")
    expect(page.locator("html")).to_have_attribute("data-me-socket", "open")
    badge = page.get_by_test_id("nav-notifications").locator("[data-notification-count]")
    expect(badge).to_be_hidden()
    from tournaments.services.notify import notify

    notify(get_user_model().objects.get(username="rosa"), "x", "round_open", {"competition": "Cup", "number": 2},
           email=False)
    expect(badge).to_be_visible()
    expect(badge.locator("[data-count]")).to_have_text("1")
