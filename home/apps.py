from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HomeConfig(AppConfig):
    name = "home"
    verbose_name = _("Home")

    def ready(self):
        # Connected here, once the other apps are loaded: neither gameplay, tournaments nor clubs
        # imports the players' pages, they send signals that the per-user channel listens to.
        from django.db.models.signals import post_delete, post_save

        from gameplay import api as gameplay
        from home import alerts, queries
        from tournaments import signals as competitions
        from tournaments.services import notify

        gameplay.match_started.connect(alerts.on_match_started, dispatch_uid="dashboard-table-opened")
        notify.notifications_changed.connect(alerts.on_notifications_changed, dispatch_uid="dashboard-notifications")
        # the home's kept parts (home/queries.py) are forgotten on each event that changes them
        gameplay.match_started.connect(queries.on_match_event, dispatch_uid="dashboard-forget-started")
        gameplay.match_finished.connect(queries.on_match_event, dispatch_uid="dashboard-forget-finished")
        notify.notifications_changed.connect(queries.on_notifications_changed, dispatch_uid="dashboard-forget-notified")
        competitions.competition_changed.connect(queries.on_competition_changed, dispatch_uid="dashboard-forget-step")
        competitions.ratings_changed.connect(queries.on_ratings_changed, dispatch_uid="dashboard-forget-ratings")
        post_save.connect(queries.on_audited, sender="tournaments.AuditEntry", dispatch_uid="dashboard-forget-audited")
        for model in ("clubs.Membership", "clubs.MemberInvitation", "tournaments.EntryPlayer", "clubs.Player"):
            for name, signal in (("saved", post_save), ("deleted", post_delete)):
                signal.connect(queries.on_row_changed, sender=model, dispatch_uid=f"dashboard-forget-{model}-{name}")
