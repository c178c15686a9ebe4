"""Signal receivers: they enqueue a task with the id after the commit (docs/style.md §9), or, for a
club's personal invitation or a seat kept at a friend's table (both sent after their commit),
write the invitee's notification and mark it read once the invitation is answered."""

from django.contrib.auth import get_user_model
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


def notify_table_invitation(sender, match_id, user_id, host_id=None, game="", **kwargs):
    """`gameplay.api.seat_invited`: a friend keeps a seat for this player at a new table."""
    users = get_user_model().objects.select_related("player").in_bulk([user_id, host_id] if host_id else [user_id])
    invitee, host = users.get(user_id), users.get(host_id)
    if invitee is None:
        return
    name = (getattr(getattr(host, "player", None), "name", "") or host.get_username()) if host is not None else ""
    notify(invitee, table_invitation_key(match_id, user_id), "table_invited", {"name": name, "game": game},
           url=reverse("home"))


def read_table_invitation(sender, match_id, user_id, **kwargs):
    """`gameplay.api.seat_invitation_closed`: taken, declined or withdrawn, nothing is left to answer."""
    invitee = get_user_model().objects.filter(pk=user_id).first()
    if invitee is not None:
        mark_read(invitee, table_invitation_key(match_id, user_id))


def table_invitation_key(match_id: int, user_id: int) -> str:
    return f"table-invite:{match_id}:{user_id}"
