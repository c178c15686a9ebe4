"""Entries as clubs run them (issue 31): substitutions kept in history, a pair withdrawn mid-event
by the format's rule, announcements, an entry cap with its waiting list, the check-in Remind
action and late entries. Each rule through its service and its page; bad input refused beside the
field, changing nothing."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tournaments.models import AuditEntry, Pairing
from tournaments.services import CompetitionError, controls, manager, organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss():
    return make_user("organiser")


@pytest.fixture
def club(boss):
    return make_club(boss, time_zone="Europe/Madrid")


def members(club, pairs):
    for _entry, users in pairs:
        for user in users:
            Membership.objects.create(club=club, user=user)


def started(club, boss, format="swiss", count=2, **fields):
    competition = make_competition(club, format=format, created_by=boss, **fields)
    pairs = human_pairs(competition, count)
    members(club, pairs)
    manager.step(competition.pk)
    competition.refresh_from_db()
    return competition, pairs


def walk_over_round(competition, number, boss):
    for pairing in Pairing.objects.filter(competition=competition, round_number=number, decided_at__isnull=True,
                                          away__isnull=False):
        controls.award_walkover(competition, pairing.pk, "home", boss, "not here")


def names(pairing, side):
    return [name for _id, name in pairing.lineup[side]]


# ----- substitutions kept in history -----------------------------------------------------------

def test_a_substitute_plays_the_later_rounds_and_the_earlier_ones_keep_who_played_them(client, club, boss):
    competition, pairs = started(club, boss, format="league", count=2, round_interval=timedelta(days=7))
    entry, (carlos, omar) = pairs[0]
    first_name = entry.name
    walk_over_round(competition, 1, boss)
    rosa = make_user("rosa")
    Membership.objects.create(club=club, user=rosa)

    organiser.replace_player(entry, omar, rosa, boss, "Omar is away")

    entry.refresh_from_db()
    assert entry.name == first_name  # the pair keeps the name it entered with
    played = Pairing.objects.get(competition=competition, round_number=1)
    later = Pairing.objects.get(competition=competition, round_number=2)
    side = lambda p: "home" if p.home_id == entry.pk else "away"  # noqa: E731
    assert names(played, side(played)) == [carlos.username, omar.username]
    assert names(later, side(later)) == [carlos.username, rosa.username]
    client.force_login(boss)
    round_one = client.get(reverse("tournaments:round", args=[competition.pk, 1])).text
    round_two = client.get(reverse("tournaments:round", args=[competition.pk, 2])).text
    escaped = first_name.replace("&", "&amp;")
    assert escaped in round_one and 'data-testid="played-by"' not in round_one
    assert escaped in round_two and f"played by {carlos.username} &amp; {rosa.username}" in round_two
    page = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    assert f"{carlos.username} &amp; {rosa.username}" not in page.split('data-testid="audit-log"')[0]
    line = AuditEntry.objects.get(action=AuditEntry.Action.REPLACED)
    assert (line.entry_id, line.detail) == (entry.pk, {"out": omar.pk, "in": rosa.pk})


def test_a_table_already_open_keeps_the_players_who_sat_down(club, boss):
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=2)
    pairing = Pairing.objects.get(competition=competition, round_number=1)
    controls.start_pairing_now(competition, pairing.pk, boss)
    entry, (carlos, omar) = pairs[0]
    rosa = make_user("rosa")
    Membership.objects.create(club=club, user=rosa)

    organiser.replace_player(entry, omar, rosa, boss)

    pairing.refresh_from_db()
    side = "home" if pairing.home_id == entry.pk else "away"
    assert names(pairing, side) == [carlos.username, omar.username]


def test_a_substitution_by_someone_already_playing_is_refused_beside_the_field_and_changes_nothing(client, club,
                                                                                                  boss):
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=2)
    (entry, (carlos, omar)), (_other, (ana, _beto)) = pairs
    with pytest.raises(CompetitionError) as refused:
        organiser.replace_player(entry, omar, ana, boss)
    assert refused.value.field == "new" and "already plays" in refused.value.message

    pairing = Pairing.objects.get(competition=competition, round_number=1)
    client.force_login(boss)
    url = reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, "substitute"])
    response = client.post(url, {f"p{pairing.pk}-old": omar.pk, f"p{pairing.pk}-new": ana.pk,
                                 f"p{pairing.pk}-reason": "ill"}, HTTP_HX_REQUEST="true")
    html = response.text
    assert "does not already play in this competition" in html
    assert 'class="errorlist' in html and "ill" in html  # beside the field, the reason kept
    assert entry.players.filter(user=omar).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.REPLACED).exists()
