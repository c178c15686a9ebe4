"""Write the SVG card faces to static/cards/ (gameplay/cardfaces.py draws them).

    python manage.py make_card_faces [--output static/cards]
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from gameplay.cardfaces import write_faces


class Command(BaseCommand):
    help = "Draw the French and Spanish card faces and the card back as SVG files."

    def add_arguments(self, parser):
        parser.add_argument("--output", default=str(Path(settings.BASE_DIR) / "static" / "cards"))

    def handle(self, *args, output, **options):
        count = write_faces(Path(output))
        self.stdout.write(f"wrote {count} card faces to {output}")
