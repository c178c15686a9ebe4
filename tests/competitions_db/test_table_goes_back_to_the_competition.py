"""After a competition's match the table offers the way back to the competition, not the lobby
(issue 31: "after a competition match the table offers 'Back to the lobby'")."""

import pytest
from django.urls import reverse

from gameplay.api import SeatSpec, create_match
from tests.competitions_db.helpers import human_pairs, make_competition, make_user
from tournaments.models import Pairing
from tournaments.services import manager

pytestmark = pytest.mark.django_db


def test_a_competition_table_sends_its_players_back_to_the_competition(client):
    competition = make_competition(format="single_elimination")
    pairs = human_pairs(competition, 2)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition)
    for _entry, users in pairs:
        for user in users:
            manager.check_in(user, pairing.pk)
    match_id = Pairing.objects.get(pk=pairing.pk).match_id
    client.force_login(pairs[0][1][0])
    boot = client.get(reverse("gameplay:table", args=[match_id])).context["boot"]
    assert boot["lobby"] == reverse("tournaments:detail", args=[competition.pk])
    assert boot["labels"]["text"][boot["lobby_label"]] == "Back to the competition"


def test_a_casual_table_sends_its_players_back_to_the_lobby(client):
    creator = make_user()
    match_id = create_match("allfours", {}, [SeatSpec(user=creator)], created_by=creator)
    client.force_login(creator)
    boot = client.get(reverse("gameplay:table", args=[match_id])).context["boot"]
    assert boot["lobby"] == reverse("gameplay:lobby")
    assert boot["labels"]["text"][boot["lobby_label"]] == "Back to the lobby"
