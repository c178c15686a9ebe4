from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "clubs"
    verbose_name = _("Clubs and players")

    def ready(self):
        # Connected here, once the other apps are loaded: neither gameplay nor tournaments imports
        # the players' pages, they send signals that the per-user channel listens to.
        from clubs import signals  # noqa: F401  (connects the profile-creation receiver)
        from clubs.dashboard import alerts
        from gameplay import api as gameplay
        from tournaments.services import notify

        gameplay.match_started.connect(alerts.on_match_started, dispatch_uid="dashboard-table-opened")
        notify.notifications_changed.connect(alerts.on_notifications_changed, dispatch_uid="dashboard-notifications")
