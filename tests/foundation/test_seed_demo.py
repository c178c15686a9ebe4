import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, Membership, Player
from gameplay.models import Match
from tournaments import pages
from tournaments.models import Competition, Pairing, Round
from tournaments.services import manager

DEMO_PLAYERS = ("amina", "carlos", "devi", "omar")


@pytest.fixture
def seeded(db):
    call_command("seed_demo", verbosity=0)
    return Club.objects.get(slug="demo-club")


def test_seed_demo_creates_an_admin_a_club_and_players_and_can_run_twice(seeded):
    counts = (Match.objects.count(), Competition.objects.count(), Pairing.objects.count())
    call_command("seed_demo", verbosity=0)

    User = get_user_model()
    assert User.objects.get(username="admin").is_superuser
    assert User.objects.count() == 9  # the admin, the four demo players and four club regulars
    assert seeded.memberships.count() == 9
    assert Membership.objects.get(user__username="admin").role == Membership.Role.OWNER
    assert Player.objects.get(user__username="amina").preferred_language == "ar"
    assert User.objects.get(username="carlos").check_password("chalk-demo")
    assert (Match.objects.count(), Competition.objects.count(), Pairing.objects.count()) == counts


def test_each_demo_player_home_counts_down_to_a_match_and_offers_a_check_in_once_open(seeded, client):
    User = get_user_model()
    for name in DEMO_PLAYERS:
        client.force_login(User.objects.get(username=name))
        html = client.get("/").content.decode()
        assert 'data-testid="countdown"' in html, name
        assert "Monday League" in html, name
        assert 'data-testid="check-in"' not in html, name

    league = Competition.objects.get(club=seeded, slug="monday-league")
    week = Round.objects.get(competition=league, number=3)
    manager.step(league.pk, now=week.starts_at)  # the week opens (the beat does this in `make run`)
    for name in DEMO_PLAYERS:
        client.force_login(User.objects.get(username=name))
        html = client.get("/").content.decode()
        assert 'data-testid="check-in"' in html, name


def test_the_season_has_something_to_show_everywhere(seeded, client):
    """One seed for every page that reads the season (a seed takes seconds)."""
    league_has_played_weeks_and_the_next_one_scheduled(seeded)
    knockout_is_finished_with_its_whole_bracket_and_a_champion(seeded)
    swiss_is_in_its_second_round_with_tables_in_play(seeded)
    archive_ratings_and_lobby_have_something_to_show(client)


def league_has_played_weeks_and_the_next_one_scheduled(seeded):
    league = Competition.objects.get(club=seeded, slug="monday-league")
    assert league.status == Competition.Status.RUNNING
    statuses = dict(Round.objects.filter(competition=league).values_list("number", "status"))
    assert [statuses.pop(1), statuses.pop(2)] == [Round.Status.COMPLETE, Round.Status.COMPLETE]
    assert statuses and set(statuses.values()) == {Round.Status.SCHEDULED}  # week 3 on, home and away
    played = Pairing.objects.filter(competition=league, round_number__in=[1, 2])
    assert played.count() == 4
    assert all(p.source == Pairing.Source.PLAYED and p.match.status == Match.Status.FINISHED for p in played)


def knockout_is_finished_with_its_whole_bracket_and_a_champion(seeded):
    cup = Competition.objects.get(club=seeded, slug="winter-cup")
    assert cup.status == Competition.Status.FINISHED
    assert Pairing.objects.filter(competition=cup, decided_at__isnull=False).count() == 7  # 8 pairs: 4 + 2 + 1
    assert len(pages.champion(cup)) == 1


def swiss_is_in_its_second_round_with_tables_in_play(seeded):
    swiss = Competition.objects.get(club=seeded, slug="thursday-swiss")
    assert Round.objects.get(competition=swiss, number=1).status == Round.Status.COMPLETE
    assert Pairing.objects.filter(competition=swiss, round_number=2, match__status=Match.Status.PLAYING).count() == 2


def archive_ratings_and_lobby_have_something_to_show(client):
    amina = get_user_model().objects.get(username="amina")
    league_match = Pairing.objects.filter(competition__slug="monday-league", round_number=1).first().match

    archive = client.get("/matches/?kind=competition").content.decode()
    assert f"/matches/{league_match.pk}/" in archive
    assert client.get(f"/matches/{league_match.pk}/replay/").status_code == 200

    board = client.get("/ratings/allfours/").content.decode()
    assert "Amina" in board and "Yusuf" in board

    client.force_login(amina)
    lobby = client.get("/play/").content.decode()
    playing = Match.objects.filter(status=Match.Status.PLAYING, is_public=True)
    assert playing.filter(game="baloot").exists() and playing.filter(game="cuatrola").exists()
    for match in playing:
        assert all(seat.bot for seat in match.seats.all())
        assert f"/matches/{match.pk}/" in lobby
        assert client.get(f"/matches/{match.pk}/").status_code == 200  # anyone may watch
