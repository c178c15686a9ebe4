"""The cup before it starts (issue 32): the draw is made when round 1's check-in opens, every
later round exists with its time, and a player's home shows the next match with a countdown and
the check-in, then "Starting now" at the start (never "starts in now")."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.competitions_db.helpers import bot_pairs, drive, human_pairs, make_competition
from tournaments import pages
from tournaments.models import Competition, Pairing, Round
from tournaments.services import manager

pytestmark = pytest.mark.django_db


def home_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_ten_minutes_before_a_cup_starts_the_home_shows_round_one_with_a_countdown_and_check_in():
    cup = make_competition(format="single_elimination", check_in=timedelta(minutes=15),
                           starts_in=timedelta(minutes=10))
    (_entry, (player, _partner)), *_rest = human_pairs(cup, 4)

    manager.step(cup.pk)

    cup.refresh_from_db()
    assert cup.status == Competition.Status.RUNNING
    html = home_of(player)
    assert "No scheduled match" not in html
    assert 'data-testid="countdown"' in html and 'data-testid="check-in"' in html
    assert 'data-testid="check-in-open"' in html and 'data-before hidden' not in html
    pairing = Pairing.objects.get(competition=cup, round_number=1, home__players__user=player) \
        if Pairing.objects.filter(competition=cup, home__players__user=player).exists() else \
        Pairing.objects.get(competition=cup, round_number=1, away__players__user=player)
    manager.check_in(player, pairing.pk)  # checking in works before the start
    assert 'data-testid="checked-in"' in home_of(player)


def test_before_check_in_opens_nothing_is_drawn_and_entries_stay_open():
    cup = make_competition(format="single_elimination", check_in=timedelta(minutes=15),
                           starts_in=timedelta(minutes=20))
    human_pairs(cup, 2)

    assert manager.step(cup.pk) is False
    cup.refresh_from_db()
    assert cup.status == Competition.Status.OPEN and not cup.rounds.exists()
    assert cup.pk in manager.due_competitions(timezone.now() + timedelta(minutes=6))
    assert cup.pk not in manager.due_competitions()


def test_when_entries_close_early_the_draw_is_made_then_and_the_home_says_when_check_in_opens():
    cup = make_competition(format="single_elimination", check_in=timedelta(minutes=15),
                           starts_in=timedelta(hours=3), entries_close_at=timezone.now() - timedelta(minutes=1))
    (_entry, (player, _partner)), *_rest = human_pairs(cup, 2)

    manager.step(cup.pk)

    round_one = Round.objects.get(competition=cup, number=1)
    assert round_one.status == Round.Status.SCHEDULED and round_one.pairings.count() == 1
    html = home_of(player)
    assert 'data-testid="countdown"' in html and 'data-testid="check-in-opens"' in html
    assert 'data-testid="check-in"' not in html


def test_a_knockouts_later_rounds_exist_with_their_times_and_fill_in_when_drawn():
    cup = make_competition(format="single_elimination", round_interval=timedelta(minutes=30))
    bot_pairs(cup, 8)
    manager.step(cup.pk)

    rounds = list(Round.objects.filter(competition=cup).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3]
    assert [r.starts_at - cup.starts_at for r in rounds] == [timedelta(0), timedelta(minutes=30), timedelta(hours=1)]
    assert [r.pairings.count() for r in rounds] == [4, 0, 0]

    quick = make_competition(format="single_elimination")  # no time between rounds: played out now
    bot_pairs(quick, 8)
    quick = drive(quick, steps=40)
    assert quick.status == Competition.Status.FINISHED
    assert [r.pairings.count() for r in Round.objects.filter(competition=quick).order_by("number")] == [4, 2, 1]


def test_a_swiss_later_rounds_exist_without_pairings_until_drawn_and_an_unneeded_reset_goes():
    swiss = make_competition(format="swiss", swiss_rounds=3)
    bot_pairs(swiss, 4)
    manager.step(swiss.pk)
    assert list(Round.objects.filter(competition=swiss).values_list("number", flat=True)) == [1, 2, 3]
    assert not Pairing.objects.filter(competition=swiss, round_number__gt=1).exists()

    double = make_competition(format="double_elimination", grand_final_reset=True)
    bot_pairs(double, 4)
    double = drive(double, steps=60)
    assert double.status == Competition.Status.FINISHED
    assert not Round.objects.filter(competition=double).exclude(pairings__isnull=False).exists()


def test_at_its_start_the_home_says_starting_now_not_starts_in_now():
    cup = make_competition(format="single_elimination", check_in=timedelta(minutes=15),
                           starts_in=timedelta(minutes=-1))
    (_entry, (player, _partner)), *_rest = human_pairs(cup, 2)
    manager.step(cup.pk)

    html = home_of(player)
    assert 'data-testid="starting"' in html and "<span data-before hidden>" in html
    assert 'data-testid="starting" hidden' not in html


def test_a_pairing_moved_later_counts_down_to_its_own_start_and_says_when_its_check_in_opens():
    cup = make_competition(format="single_elimination", check_in=timedelta(minutes=15),
                           starts_in=timedelta(minutes=10))
    (_entry, (player, _partner)), *_rest = human_pairs(cup, 2)
    manager.step(cup.pk)
    later = timezone.now() + timedelta(hours=2)
    Pairing.objects.filter(competition=cup).update(starts_at=later)

    found = pages.next_match_of(player)

    assert found.starts_at == later and not found.can_check_in
    assert found.check_in_opens == later - timedelta(minutes=15)
    html = home_of(player)
    assert 'data-testid="check-in-opens"' in html and 'data-testid="check-in"' not in html
