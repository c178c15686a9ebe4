"""Seeds set by hand (issue 31): the organiser numbers the pairs before the start; repeats and gaps are
refused beside their boxes with every number kept; the draw follows the saved seeds; audited per pair."""

from datetime import timedelta

import pytest
from django.urls import reverse

from tests.competitions_db.helpers import bot_pairs, drive, make_club, make_competition, make_user
from tournaments.models import AuditEntry, Competition, Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("organiser")


@pytest.fixture
def knockout(organiser):
    competition = make_competition(make_club(organiser), format="single_elimination", seeding="hand",
                                   starts_in=timedelta(days=1))
    return competition, bot_pairs(competition, 4)


def seeds_url(competition):
    return reverse("tournaments:seeds", args=[competition.pk])


def test_the_competition_page_offers_the_seeds_page_when_seeded_by_hand(client, organiser, knockout):
    competition, _pairs = knockout
    client.force_login(organiser)
    assert seeds_url(competition) in client.get(competition.get_absolute_url()).text
    Competition.objects.filter(pk=competition.pk).update(seeding="rating")
    assert seeds_url(competition) not in client.get(competition.get_absolute_url()).text
    assert client.get(seeds_url(competition)).status_code == 302


def test_saved_seeds_decide_the_draw_and_are_listed_and_audited(client, organiser, knockout):
    competition, pairs = knockout
    client.force_login(organiser)
    order = [pairs[2], pairs[0], pairs[3], pairs[1]]  # seed 1 is Bots 3, seed 4 Bots 2
    response = client.post(seeds_url(competition), {f"seed_{e.pk}": n for n, e in enumerate(order, start=1)})
    assert response.status_code == 302
    page = client.get(competition.get_absolute_url()).text
    assert page.index("Bots 3") < page.index("Bots 1") < page.index("Bots 4") < page.index("Bots 2")
    assert 'data-testid="entry-seed"' in page
    audited = {a.entry.name: a.detail["seed"] for a in AuditEntry.objects.filter(action=AuditEntry.Action.SEEDED)}
    assert audited == {"Bots 3": 1, "Bots 1": 2, "Bots 4": 3, "Bots 2": 4}
    Competition.objects.filter(pk=competition.pk).update(starts_at=competition.starts_at - timedelta(days=2))
    drive(competition, steps=2)
    first = {frozenset((p.home.name, p.away.name)) for p in Pairing.objects.filter(competition=competition, round_number=1)}
    assert first == {frozenset(("Bots 3", "Bots 2")), frozenset(("Bots 1", "Bots 4"))}  # 1 v 4, 2 v 3


@pytest.mark.parametrize("numbers, refused", [
    ((1, 2, 2, 4), [2]),   # a repeat: the second box holding 2 is marked
    ((1, 2, 3, 5), [3]),   # a gap: 4 is missing, the 5 is marked
])
def test_seeds_that_repeat_or_skip_are_refused_beside_the_box_keeping_every_number(client, organiser, knockout,
                                                                                 numbers, refused):
    competition, pairs = knockout
    client.force_login(organiser)
    response = client.post(seeds_url(competition), {f"seed_{e.pk}": n for e, n in zip(pairs, numbers)},
                           HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    form = response.context["form"]
    assert sorted(form.errors) == sorted(f"seed_{pairs[i].pk}" for i in refused)
    for entry, number in zip(pairs, numbers):
        assert f'name="seed_{entry.pk}" value="{number}"' in response.text
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.SEEDED).exists()
    assert all(e.seed is None for e in competition.entries.all())


def test_a_member_who_does_not_organise_cannot_set_seeds(client, knockout):
    competition, pairs = knockout
    client.force_login(make_user())
    response = client.post(seeds_url(competition), {f"seed_{e.pk}": n for n, e in enumerate(pairs, start=1)})
    assert response.status_code in (403, 404)
    assert all(e.seed is None for e in competition.entries.all())
