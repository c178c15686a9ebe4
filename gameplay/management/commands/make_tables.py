"""Tables for load and conformance tools (docs/contracts/protocol.md, "Fixtures").

    python manage.py make_tables --game allfours --tables 50 [--options '{"target_score": 7}']
                                 [--bots 0] [--clock SECONDS] [--prefix lt]
    python manage.py make_tables --cleanup --prefix lt

Prints {"tables": [{"match", "ws", "seats": [{"seat", "user", "cookie"}]}]} on stdout.
"""

import json

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from gameplay import services
from gameplay.models import Match
from gameplay.rules import ScenarioError, get_game
from gameplay.services import SeatSpec


class Command(BaseCommand):
    help = "Create started tables with logged-in users, for load tests and outside tools."

    def add_arguments(self, parser):
        parser.add_argument("--game", default="allfours")
        parser.add_argument("--tables", type=int, default=1)
        parser.add_argument("--options", default="{}", help="variant options as a JSON object")
        parser.add_argument("--bots", type=int, default=0, help="the last K seats are bots")
        parser.add_argument("--clock", type=int, default=0, help="seconds per decision (0: untimed)")
        parser.add_argument("--prefix", default="lt", help="user names start with this")
        parser.add_argument("--cleanup", action="store_true", help="delete what this prefix made")

    def handle(self, *args, **opts):
        prefix = opts["prefix"]
        if not prefix or "-" in prefix:
            raise CommandError("--prefix must be a non-empty word without '-'")
        if opts["cleanup"]:
            return self.cleanup(prefix)
        try:
            options = json.loads(opts["options"])
            engine = get_game(opts["game"])
            players = engine.players(engine.resolve_options(options))
        except (ValueError, ScenarioError) as error:
            raise CommandError(str(error)) from None
        if not 0 <= opts["bots"] <= players or opts["tables"] < 0:
            raise CommandError(f"--bots must be 0..{players} and --tables not negative")
        tables = [self.make_table(opts["game"], options, players, opts["bots"], opts["clock"], prefix)
                  for _ in range(opts["tables"])]
        self.stdout.write(json.dumps({"tables": tables}))

    @transaction.atomic
    def make_table(self, game, options, players, bots, clock, prefix) -> dict:
        match = services.create_match(game, options, [], time_control=clock)
        humans = players - bots
        seats, specs = [], []
        for seat in range(players):
            if seat < humans:
                user = get_user_model().objects.create_user(f"{prefix}-{match.pk}-{seat}")
                specs.append(SeatSpec(user=user))
                seats.append({"seat": seat, "user": user.username, "cookie": session_cookie(user)})
            else:
                specs.append(SeatSpec(bot="random"))
        for seat, spec in enumerate(specs):
            match.seats.filter(seat=seat).update(user=spec.user, bot=spec.bot)
        services.start_if_ready(match)
        return {"match": match.pk, "ws": f"/ws/matches/{match.pk}/", "seats": seats}

    def cleanup(self, prefix):
        users = get_user_model().objects.filter(username__startswith=f"{prefix}-")
        matches = Match.objects.filter(seats__user__in=users).distinct()
        counts = {"matches": matches.count(), "users": users.count()}
        matches.delete()
        users.delete()
        self.stdout.write(json.dumps({"deleted": counts}))


def session_cookie(user) -> str:
    """A logged-in session for `user`, as a Cookie header value."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
