from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameplayConfig(AppConfig):
    name = "gameplay"
    verbose_name = _("Live play")

    def ready(self):
        # Register the Celery tasks in every process (web, commands, worker): the services
        # schedule them by name (gameplay/services/aftermath.py), and only a worker imports
        # task modules by itself.
        from gameplay import tasks  # noqa: F401
