from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = _("Live play")

    def ready(self):
        # Register every Celery task of live play in every process (web, commands, worker):
        # the periodic ones are defined in tasks.py, which imports those the services define
        # and call (services/moves.py, services/clocks.py).
        from gameplay import tasks  # noqa: F401
