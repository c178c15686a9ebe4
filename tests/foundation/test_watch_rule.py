"""Who may watch a match is one rule: the table page's answer for one match (`reader_for`) and
the lists' filter (`watchable_by`: lobby, archive, club and player pages) agree for every kind
of viewer, public and private tables alike."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from gameplay import services
from gameplay.access import reader_for, watchable_by
from gameplay.models import Match
from gameplay.services import SeatSpec

pytestmark = pytest.mark.django_db


def user(name: str, **fields):
    return get_user_model().objects.create_user(name, f"{name}@example.com", "pw-12345678", **fields)


@pytest.fixture
def cast():
    people = {"seated": user("seated"), "creator": user("creator"), "stranger": user("stranger"),
              "staff": user("staffer", is_staff=True), "anonymous": AnonymousUser()}
    seats = [SeatSpec(user=people["seated"])] + [SeatSpec(bot="random")] * 3
    tables = {public: services.create_match("allfours", {}, seats[:1], created_by=people["creator"],
                                            is_public=public) for public in (True, False)}
    return people, tables


@pytest.mark.parametrize("viewer", ["seated", "creator", "stranger", "staff", "anonymous"])
@pytest.mark.parametrize("public", [True, False])
def test_a_viewer_sees_a_table_in_the_lists_exactly_when_they_may_watch_it(cast, viewer, public):
    people, tables = cast
    match = tables[public]

    listed = Match.objects.filter(watchable_by(people[viewer]), pk=match.pk).exists()

    assert listed == reader_for(match, people[viewer]).may_watch


def test_a_private_table_is_watched_only_by_its_players_its_creator_and_staff(cast):
    people, tables = cast
    watchers = {name for name, person in people.items() if reader_for(tables[False], person).may_watch}
    assert watchers == {"seated", "creator", "staff"}
