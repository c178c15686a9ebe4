import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, Membership, Player


@pytest.mark.django_db
def test_seed_demo_creates_an_admin_a_club_and_players_and_can_run_twice():
    call_command("seed_demo", verbosity=0)
    call_command("seed_demo", verbosity=0)

    User = get_user_model()
    assert User.objects.get(username="admin").is_superuser
    assert User.objects.count() == 5
    assert Club.objects.get(slug="demo-club").memberships.count() == 5
    assert Membership.objects.get(user__username="admin").role == Membership.Role.OWNER
    assert Player.objects.get(user__username="amina").preferred_language == "ar"
    assert User.objects.get(username="carlos").check_password("chalk-demo")
