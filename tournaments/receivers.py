"""Signal receivers: they enqueue a task with the id after the commit (STYLE.md §9), or, for a
club's personal invitation (already sent after its commit), write the invitee's notification."""

from django.db import transaction
from django.urls import reverse

from tournaments.services.notify import mark_read, notify


def enqueue_result(sender, match_id, **kwargs):
    """`gameplay.signals.match_finished`: let the match's competition (if any) record it."""
    from tournaments.tasks import record_match_result

    transaction.on_commit(lambda: record_match_result.delay(match_id))


def notify_club_invitation(sender, invitation, **kwargs):
    """`clubs.signals.member_invited` (after the commit): the invitee's notification and e-mail."""
    inviter = invitation.invited_by
    name = inviter.player.name if inviter is not None else invitation.club.name
    notify(invitation.user, club_invitation_key(invitation), "club_invited",
           {"name": name, "club": invitation.club.name}, url=reverse("home"))


def read_club_invitation(sender, invitation, **kwargs):
    """`clubs.signals.member_invitation_answered`: the notification of it has been dealt with."""
    mark_read(invitation.user, club_invitation_key(invitation))


def club_invitation_key(invitation) -> str:
    return f"club-invite:{invitation.pk}"
