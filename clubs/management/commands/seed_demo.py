"""Demo data for `make run`: an admin, a demo club and a few players. Safe to run again."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from clubs.models import Club, Membership, Player

DEMO_PASSWORD = "chalk-demo"  # development only: `make run` prints it; production never seeds
ADMIN = {"username": "admin", "email": "admin@example.com", "display_name": "Club Admin", "language": "en"}
PLAYERS = [
    {"username": "amina", "email": "amina@example.com", "display_name": "Amina", "language": "ar"},
    {"username": "carlos", "email": "carlos@example.com", "display_name": "Carlos", "language": "es"},
    {"username": "devi", "email": "devi@example.com", "display_name": "Devi", "language": "en"},
    {"username": "omar", "email": "omar@example.com", "display_name": "Omar", "language": "ar"},
]
CLUB = {
    "slug": "demo-club",
    "name": "Demo Card Club",
    "description": "A club to try Chalk with: All Fours on Mondays, Baloot on Thursdays, Cuatrola at weekends.",
}


class Command(BaseCommand):
    help = "Create the demo admin, club and players if they do not exist yet."

    @transaction.atomic
    def handle(self, *args, **options):
        admin = ensure_user(ADMIN, staff=True)
        club, _ = Club.objects.get_or_create(
            slug=CLUB["slug"], defaults={"name": CLUB["name"], "description": CLUB["description"], "created_by": admin,
                                         "home_games": ["allfours", "baloot", "cuatrola"]}
        )
        Membership.objects.get_or_create(club=club, user=admin, defaults={"role": Membership.Role.OWNER})
        for spec in PLAYERS:
            user = ensure_user(spec)
            Membership.objects.get_or_create(club=club, user=user, defaults={"role": Membership.Role.MEMBER})
        names = ", ".join(spec["username"] for spec in [ADMIN, *PLAYERS])
        self.stdout.write(f"Demo data ready: club '{club.name}', users {names} (password: {DEMO_PASSWORD})")


def ensure_user(spec, staff=False):
    """Create the user once; never overwrite a password someone changed since."""
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=spec["username"], defaults={"email": spec["email"], "is_staff": staff, "is_superuser": staff}
    )
    if created:
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
        mark_email_verified(user)
    Player.objects.update_or_create(
        user=user, defaults={"display_name": spec["display_name"], "preferred_language": spec["language"]}
    )
    return user


def mark_email_verified(user):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.get_or_create(
        user=user, email=user.email, defaults={"verified": True, "primary": True}
    )
