from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Competitions")

    def ready(self):
        from gameplay.models import Match
        from gameplay.signals import match_finished

        from tournaments.receivers import enqueue_result

        match_finished.connect(enqueue_result, sender=Match, dispatch_uid="tournaments.enqueue_result")
