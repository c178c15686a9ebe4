from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Competitions")

    def ready(self):
        from clubs.signals import member_invitation_answered, member_invited
        from gameplay import api as gameplay

        from tournaments.receivers import (enqueue_result, notify_club_invitation, notify_table_invitation,
                                           read_club_invitation, read_table_invitation)

        gameplay.match_finished.connect(enqueue_result, sender=gameplay.match_signal_sender(),
                                        dispatch_uid="tournaments.enqueue_result")
        member_invited.connect(notify_club_invitation, dispatch_uid="tournaments.notify_club_invitation")
        member_invitation_answered.connect(read_club_invitation, dispatch_uid="tournaments.read_club_invitation")
        gameplay.seat_invited.connect(notify_table_invitation, dispatch_uid="tournaments.notify_table_invitation")
        gameplay.seat_invitation_closed.connect(read_table_invitation, dispatch_uid="tournaments.read_table_invitation")
