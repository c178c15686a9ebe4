"""`python manage.py recompute_ratings [--game G]`: rebuild every rating from the match history.

Replays each game's rated matches in finished order with the game's lock held, and writes only
the rows that differ (so on a healthy database it writes nothing). See docs/ratings.md.
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from gameplay.api import Game
from tournaments.ratings import services
from tournaments.ratings.rebuild import rebuild_game


class Command(BaseCommand):
    help = "Rebuild every rating (Elo and Glicko-2) from the finished matches, in finished order."

    def add_arguments(self, parser):
        parser.add_argument("--game", choices=Game.values, help="only this game (default: every game)")

    def handle(self, *args, game=None, **options):
        for key in [game] if game else Game.values:
            with transaction.atomic():
                services.lock(key)
                report = rebuild_game(key)
            self.stdout.write(f"{key}: {report.matches} rated matches replayed, "
                              f"{report.changes_written} rating changes and {report.ratings_written} ratings written")
