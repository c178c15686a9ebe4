from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class DashboardConfig(AppConfig):
    name = "dashboard"
    verbose_name = _("Players' pages")

    def ready(self):
        from dashboard import alerts
        from gameplay.models import Match
        from tournaments.models import Notification

        post_save.connect(alerts.on_match_saved, sender=Match, dispatch_uid="dashboard-table-opened")
        post_save.connect(alerts.on_notification_saved, sender=Notification, dispatch_uid="dashboard-notifications")
