"""Every competition and club page, in English, Arabic and Spanish, shows people words: never an
identifier (snake_case keys such as trinidad_standard, third_place or forfeit_match) nor a duration
written as a clock (0:15:00)."""

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from clubs.models import Invitation, JoinRequest, Membership
from tests.competitions_db.helpers import (
    big_finished_competition, human_pairs, make_club, make_competition, make_user,
)
from tournaments.models import Notification
from tournaments.services import manager

pytestmark = pytest.mark.django_db

IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
CLOCK_DURATION = re.compile(r"\b\d+:\d\d:\d\d\b")
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")


class ShownText(HTMLParser):
    """The text a person reads: text nodes outside script/style, plus labelling attributes."""

    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self.hidden += 1
        self.parts += [value for name, value in attrs if name in SHOWN_ATTRIBUTES and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def shown_text(html: str) -> str:
    parser = ShownText()
    parser.feed(html)
    return " ".join(parser.parts)


@pytest.fixture
def world():
    organiser = make_user("organiser")
    club = make_club(organiser, time_zone="America/Port_of_Spain")
    Membership.objects.filter(club=club, user=organiser).update(role=Membership.Role.OWNER)
    finished = {key: big_finished_competition(key, 6, rounds=3) for key in
                ("swiss", "round_robin", "league", "single_elimination", "double_elimination")}
    for competition in finished.values():
        type(competition).objects.filter(pk=competition.pk).update(club=club, third_place_match=True)
    running = make_competition(club, format="single_elimination", check_in=timedelta(minutes=15), created_by=organiser)
    pairs = human_pairs(running, 3)
    for _entry, users in pairs:
        for user in users:
            Membership.objects.create(club=club, user=user)
    manager.step(running.pk)
    coming = make_competition(club, format="double_elimination", game="baloot", preset="source",
                              starts_in=timedelta(days=3))
    human_pairs(coming, 2)
    Invitation.objects.create(club=club, created_by=organiser, expires_at=running.starts_at + timedelta(days=7))
    JoinRequest.objects.create(club=club, user=make_user("asker"), message="hello")
    Notification.objects.create(user=organiser, key="invited:1", kind="invited",
                                params={"name": "Rosa", "competition": running.name}, text="")
    return organiser, club, list(finished.values()), running, coming


def pages(club, finished, running, coming):
    urls = [reverse("clubs:list"), club.get_absolute_url(), reverse("clubs:members", args=[club.slug]),
            reverse("clubs:log", args=[club.slug]), reverse("clubs:invitations", args=[club.slug]),
            reverse("clubs:requests", args=[club.slug]), reverse("clubs:edit", args=[club.slug]),
            reverse("profile"), reverse("tournaments:list"), reverse("tournaments:archive"),
            reverse("tournaments:notifications")]
    for game in ("allfours", "baloot", "cuatrola"):
        for format in ("swiss", "single_elimination", "double_elimination", "round_robin", "league"):
            urls.append(reverse("tournaments:new", args=[club.slug]) + f"?game={game}&format={format}&name=x")
    for competition in (*finished, running, coming):
        urls += [reverse(name, args=[competition.pk]) for name in
                 ("tournaments:detail", "tournaments:standings", "tournaments:bracket", "tournaments:manage")]
        urls += [reverse("tournaments:round", args=[competition.pk, r.number]) for r in competition.rounds.all()[:2]]
    return urls


@pytest.mark.parametrize("language", ["en", "ar", "es"])
def test_no_competition_or_club_page_shows_an_identifier_to_people(client, world, language):
    organiser, club, finished, running, coming = world
    client.force_login(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    found = {}
    for url in pages(club, finished, running, coming):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        text = shown_text(response.text)
        bad = set(IDENTIFIER.findall(text)) | set(CLOCK_DURATION.findall(text))
        if bad:
            found[url] = sorted(bad)
    assert not found
