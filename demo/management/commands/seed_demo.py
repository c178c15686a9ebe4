"""Demo data for `make run`: an admin, a demo club and its players, and the club in mid-season
(_demo_world.py: a league, a Swiss, a finished knockout, ratings, an archive, bot tables in play).
Safe to run again: the second run finds the league and leaves everything as it is."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test.utils import override_settings

from demo.management.commands._demo_world import seed_world
from clubs.models import Club, Membership, Player
from config import embedded_redis

DEMO_PASSWORD = "chalk-demo"  # development only: `make run` prints it; production never seeds
ADMIN = {"username": "admin", "email": "admin@example.com", "display_name": "Club Admin", "language": "en"}
PLAYERS = [
    {"username": "amina", "email": "amina@example.com", "display_name": "Amina", "language": "ar"},
    {"username": "carlos", "email": "carlos@example.com", "display_name": "Carlos", "language": "es"},
    {"username": "devi", "email": "devi@example.com", "display_name": "Devi", "language": "en"},
    {"username": "omar", "email": "omar@example.com", "display_name": "Omar", "language": "ar"},
]
# Club regulars: the other half of the league (they log in with the same password).
REGULARS = [
    {"username": "lina", "email": "lina@example.com", "display_name": "Lina", "language": "en"},
    {"username": "marco", "email": "marco@example.com", "display_name": "Marco", "language": "es"},
    {"username": "sara", "email": "sara@example.com", "display_name": "Sara", "language": "ar"},
    {"username": "yusuf", "email": "yusuf@example.com", "display_name": "Yusuf", "language": "en"},
]
CLUB = {
    "slug": "demo-club",
    "name": "Demo Card Club",
    "description": "A club to try Chalk with: All Fours on Mondays, Baloot on Thursdays, Cuatrola at weekends.",
}


class Command(BaseCommand):
    help = "Create the demo admin, club and players, and the club's season, if they do not exist yet."

    def handle(self, *args, **options):
        # `make run` seeds before it starts Redis: the tasks and broadcasts that follow a commit
        # need one, so the embedded server runs for the seed's duration (None: one answers already).
        redis = embedded_redis.start(settings.VAR_DIR) if settings.REDIS_EMBEDDED else None
        try:
            # The weeks played in the past e-mail no one (their notifications stay on the site).
            with override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"), \
                    transaction.atomic():
                club, users, seeded = seed()
        finally:
            embedded_redis.stop(redis)
        names = ", ".join(spec["username"] for spec in [ADMIN, *PLAYERS])
        season = "seeded" if seeded else "already there"
        self.stdout.write(f"Demo data ready: club '{club.name}' (season {season}), users {names} "
                          f"(password: {DEMO_PASSWORD})")


def seed():
    admin = ensure_user(ADMIN, staff=True)
    club, _ = Club.objects.get_or_create(
        slug=CLUB["slug"], defaults={"name": CLUB["name"], "description": CLUB["description"], "created_by": admin,
                                     "home_games": ["allfours", "baloot", "cuatrola"]}
    )
    Membership.objects.get_or_create(club=club, user=admin, defaults={"role": Membership.Role.OWNER})
    users = []
    for spec in [*PLAYERS, *REGULARS]:
        user = ensure_user(spec)
        Membership.objects.get_or_create(club=club, user=user, defaults={"role": Membership.Role.MEMBER})
        users.append(user)
    pairs = [users[i:i + 2] for i in range(0, len(users), 2)]  # amina & carlos, devi & omar, ...
    return club, users, seed_world(club, admin, pairs)


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
