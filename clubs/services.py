"""Every change to a club goes through here: check the permission, write in one transaction,
record who did what in the audit log (AuditEntry). Views stay thin and turn ClubError into a
message or a form error.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs import permissions
from clubs.models import AuditEntry, Club, Invitation, JoinRequest, MemberInvitation, Membership, Player
from clubs.signals import member_invitation_answered, member_invited
from config.formatting import valid_zone_names

Role = Membership.Role
Action = AuditEntry.Action
DEFAULT_INVITATION_DAYS = 7


class ClubError(Exception):
    """A refused change, with a reason in words (shown to the user) and a stable code (for tests)."""

    def __init__(self, code: str, message):
        super().__init__(str(message))
        self.code = code
        self.message = message


def _require(allowed: bool) -> None:
    if not allowed:
        raise ClubError("forbidden", _("You are not allowed to do that in this club."))


def record(club: Club, actor, action: str, target=None, **detail) -> AuditEntry:
    return AuditEntry.objects.create(club=club, actor=actor if getattr(actor, "pk", None) else None,
                                     action=action, target=target, detail=detail)


# ----- the club itself -------------------------------------------------------------------------

CLUB_FIELDS = ("name", "slug", "description", "home_games", "time_zone", "default_language", "is_public")


@transaction.atomic
def create_club(user, **fields) -> Club:
    """A new club owned by its creator. A taken slug is a ClubError (the form checks it first)."""
    _require(permissions.can_create_club(user))
    try:
        with transaction.atomic():
            club = Club.objects.create(created_by=user, **{k: fields[k] for k in CLUB_FIELDS if k in fields})
    except IntegrityError:
        raise ClubError("slug_taken", _("A club with this address already exists.")) from None
    Membership.objects.create(club=club, user=user, role=Role.OWNER)
    permissions.remember_role(user, club, Role.OWNER)
    record(club, user, Action.CREATED)
    return club


@transaction.atomic
def update_club(user, club: Club, **fields) -> Club:
    _require(permissions.can_edit_club(user, club))
    changed = [k for k in CLUB_FIELDS if k in fields and getattr(club, k) != fields[k]]
    for key in changed:
        setattr(club, key, fields[key])
    if changed:
        club.save(update_fields=changed)
        record(club, user, Action.EDITED, fields=changed)
    return club


# ----- invitations -----------------------------------------------------------------------------

@transaction.atomic
def create_invitation(user, club: Club, *, days: int = DEFAULT_INVITATION_DAYS,
                      max_uses: int | None = None) -> Invitation:
    _require(permissions.can_invite(user, club))
    if days < 1 or (max_uses is not None and max_uses < 1):
        raise ClubError("invalid", _("An invitation must last at least a day and allow at least one use."))
    invitation = Invitation.objects.create(club=club, created_by=user, max_uses=max_uses,
                                           expires_at=timezone.now() + timedelta(days=days))
    record(club, user, Action.INVITED, invitation=invitation.pk, days=days, max_uses=max_uses)
    return invitation


@transaction.atomic
def revoke_invitation(user, invitation: Invitation) -> Invitation:
    _require(permissions.can_invite(user, invitation.club))
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        record(invitation.club, user, Action.REVOKED, invitation=invitation.pk)
    return invitation


def invitation_problem(invitation: Invitation) -> str | None:
    """Why this link cannot be used any more, in words; None while it can."""
    if invitation.revoked_at is not None:
        return _("This invitation link has been revoked.")
    if invitation.is_expired:
        return _("This invitation link has expired.")
    if invitation.is_used_up:
        return _("This invitation link has been used as many times as it allows.")
    return None


@transaction.atomic
def accept_invitation(user, token: str) -> Membership:
    """Join through a link. The invitation row is locked, so its reuse limit holds under races."""
    invitation = Invitation.objects.select_for_update().select_related("club").filter(token=token).first()
    if invitation is None:
        raise ClubError("unknown", _("This invitation link does not exist."))
    club = invitation.club
    if permissions.is_member(user, club):
        raise ClubError("already_member", _("You are already a member of this club."))
    _require(permissions.can_accept_invitation(user, club))
    problem = invitation_problem(invitation)
    if problem:
        raise ClubError("unusable", problem)
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    membership = _add_member(user, club)
    JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).update(
        status=JoinRequest.Status.APPROVED, decided_at=timezone.now())
    record(club, user, Action.JOINED, invitation=invitation.pk)
    return membership


def _add_member(user, club: Club, role: str = Role.MEMBER) -> Membership:
    membership = Membership.objects.create(club=club, user=user, role=role)
    permissions.remember_role(user, club, role)
    return membership


# ----- personal invitations: one player, by user name or e-mail -------------------------------

def find_player(who: str):
    """The active user with this user name or e-mail address (either, case-insensitive); None if none."""
    who = (who or "").strip()
    if not who:
        return None
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(Q(username__iexact=who) | Q(email__iexact=who)).order_by("pk").first() if "@" in who \
        else users.filter(username__iexact=who).first()


@transaction.atomic
def invite_member(user, club: Club, who: str, *, days: int = DEFAULT_INVITATION_DAYS) -> MemberInvitation:
    """An organiser invites one player; they answer from their home (and are notified)."""
    _require(permissions.can_invite(user, club))
    if not 1 <= days <= 365:
        raise ClubError("invalid", _("An invitation must last between 1 and 365 days."))
    invitee = find_player(who)
    if invitee is None:
        raise ClubError("unknown", _("There is no player with this user name or e-mail address."))
    if Membership.objects.filter(club=club, user=invitee).exists():
        raise ClubError("already_member", _("This player is already a member of the club."))
    pending = MemberInvitation.objects.select_for_update().filter(
        club=club, user=invitee, status=MemberInvitation.Status.PENDING).first()
    if pending is not None and not pending.is_expired:
        raise ClubError("pending", _("This player already has an invitation waiting for an answer."))
    if pending is not None:  # an expired one no one answered makes way for the new one
        pending.status, pending.answered_at = MemberInvitation.Status.REVOKED, timezone.now()
        pending.save(update_fields=["status", "answered_at"])
    invitation = MemberInvitation.objects.create(club=club, user=invitee, invited_by=user,
                                                 expires_at=timezone.now() + timedelta(days=days))
    record(club, user, Action.INVITED_MEMBER, target=invitee, invitation=invitation.pk, days=days)
    transaction.on_commit(lambda: member_invited.send(sender=MemberInvitation, invitation=invitation))
    return invitation


@transaction.atomic
def answer_member_invitation(user, invitation_id: int, accept: bool) -> MemberInvitation:
    """The invitee accepts (a member now) or declines (the invitation is gone). Refused, with
    the reason, when it is not theirs, already answered, revoked or expired."""
    invitation = (MemberInvitation.objects.select_for_update().select_related("club")
                  .filter(pk=invitation_id, user=user).first())
    if invitation is None:
        raise ClubError("unknown", _("This invitation does not exist."))
    if invitation.status == MemberInvitation.Status.REVOKED:
        raise ClubError("revoked", _("This invitation has been withdrawn."))
    if invitation.status != MemberInvitation.Status.PENDING:
        raise ClubError("answered", _("You have already answered this invitation."))
    if invitation.is_expired:
        raise ClubError("expired", _("This invitation has expired. Ask the club for a new one."))
    club = invitation.club
    if accept and permissions.is_member(user, club):
        raise ClubError("already_member", _("You are already a member of this club."))
    invitation.status = MemberInvitation.Status.ACCEPTED if accept else MemberInvitation.Status.DECLINED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    if accept:
        _add_member(user, club)
        JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).update(
            status=JoinRequest.Status.APPROVED, decided_at=timezone.now())
        record(club, user, Action.JOINED, member_invitation=invitation.pk)
    else:
        record(club, user, Action.INVITATION_DECLINED, member_invitation=invitation.pk)
    transaction.on_commit(lambda: member_invitation_answered.send(sender=MemberInvitation, invitation=invitation))
    return invitation


@transaction.atomic
def revoke_member_invitation(user, invitation: MemberInvitation) -> MemberInvitation:
    _require(permissions.can_invite(user, invitation.club))
    invitation = MemberInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.status == MemberInvitation.Status.PENDING:
        invitation.status, invitation.answered_at = MemberInvitation.Status.REVOKED, timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
        record(invitation.club, user, Action.REVOKED, target=invitation.user, member_invitation=invitation.pk)
    return invitation


# ----- join requests ---------------------------------------------------------------------------

@transaction.atomic
def request_to_join(user, club: Club, message: str = "") -> JoinRequest:
    if permissions.is_member(user, club):
        raise ClubError("already_member", _("You are already a member of this club."))
    _require(permissions.can_request_to_join(user, club))
    if JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).exists():
        raise ClubError("pending", _("You have already asked to join; an organiser will answer."))
    join_request = JoinRequest.objects.create(club=club, user=user, message=message.strip())
    record(club, user, Action.REQUESTED)
    return join_request


@transaction.atomic
def decide_request(user, join_request: JoinRequest, approve: bool) -> JoinRequest:
    club = join_request.club
    _require(permissions.can_decide_requests(user, club))
    join_request = JoinRequest.objects.select_for_update().get(pk=join_request.pk)
    if join_request.status != JoinRequest.Status.PENDING:
        raise ClubError("decided", _("This request has already been answered."))
    join_request.status = JoinRequest.Status.APPROVED if approve else JoinRequest.Status.DECLINED
    join_request.decided_by, join_request.decided_at = user, timezone.now()
    join_request.save(update_fields=["status", "decided_by", "decided_at"])
    if approve and not Membership.objects.filter(club=club, user_id=join_request.user_id).exists():
        Membership.objects.create(club=club, user_id=join_request.user_id, role=Role.MEMBER)
    record(club, user, Action.APPROVED if approve else Action.DECLINED, target=join_request.user)
    return join_request


# ----- leaving, removing, roles ----------------------------------------------------------------

def _owners_left_without(club: Club, membership: Membership) -> int:
    """Owners the club would keep if ``membership`` stopped being an owner (rows locked)."""
    owners = (Membership.objects.select_for_update().filter(club=club, role=Role.OWNER)
              .exclude(pk=membership.pk).values_list("pk", flat=True))
    return len(list(owners))


def _require_another_owner(club: Club, membership: Membership) -> None:
    if membership.role == Role.OWNER and _owners_left_without(club, membership) == 0:
        raise ClubError("last_owner", _("A club needs an owner: make another member an owner first."))


@transaction.atomic
def leave(user, club: Club) -> None:
    _require(permissions.can_leave(user, club))
    membership = Membership.objects.select_for_update().get(club=club, user=user)
    _require_another_owner(club, membership)
    membership.delete()
    permissions.remember_role(user, club, None)
    record(club, user, Action.LEFT, role=membership.role)


@transaction.atomic
def remove_member(user, membership: Membership) -> None:
    club = membership.club
    _require(permissions.can_remove_member(user, club, membership))
    _require_another_owner(club, membership)
    membership.delete()
    record(club, user, Action.REMOVED, target=membership.user, role=membership.role)


@transaction.atomic
def change_role(user, membership: Membership, new_role: str) -> Membership:
    club = membership.club
    _require(permissions.can_change_role(user, club, membership, new_role))
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    old_role = membership.role
    if old_role == new_role:
        return membership
    if new_role != Role.OWNER:
        _require_another_owner(club, membership)
    membership.role = new_role
    membership.save(update_fields=["role"])
    if membership.user_id == user.pk:
        permissions.remember_role(user, club, new_role)
    record(club, user, Action.ROLE_CHANGED, target=membership.user, old=old_role, new=new_role)
    return membership


# ----- a player's own profile ------------------------------------------------------------------

def profile_of(user) -> Player:
    """The user's profile, made now for a user created outside sign-up (the admin, a script)."""
    player, _created = Player.objects.get_or_create(user=user)
    return player


def save_profile(player: Player, display_name: str, preferred_language: str, time_zone: str = "",
                 table_alerts: bool = False, **settings) -> Player:
    """The profile as the form gave it; `settings` are the table settings and the digits
    (save_settings), each kept as it was when not given. A zone that differs from the stored one
    was picked by the person: the browser's no longer replaces it (follow_browser_zone)."""
    stored_zone = Player.objects.filter(pk=player.pk).values_list("time_zone", flat=True).first()
    if time_zone != stored_zone:
        player.zone_follows_browser = False
    player.display_name, player.preferred_language, player.time_zone = display_name, preferred_language, time_zone
    player.table_alerts = table_alerts  # sound and browser notification when a table opens (dashboard)
    player.save(update_fields=["display_name", "preferred_language", "time_zone", "table_alerts",
                               "zone_follows_browser"])
    return save_settings(player, **settings)


SETTINGS = ("hand_order", "four_colour_deck", "card_size", "turn_alert", "digits")


def save_settings(player: Player, **settings) -> Player:
    """The table settings (hand order, four-colour deck, card size, turn alert) and the digits of
    Arabic pages, already checked against their choices by the form (clubs/forms.py)."""
    unknown = set(settings) - set(SETTINGS)
    if unknown:
        raise ValueError(f"not a player setting: {sorted(unknown)}")
    for name, value in settings.items():
        setattr(player, name, value)
    if settings:
        player.save(update_fields=list(settings))
    return player


def follow_browser_zone(user, zone: str) -> bool:
    """The zone the player's browser reports, kept while they have not picked one themselves
    (from sign-up on). True when it changed the profile; a zone that is not real changes nothing."""
    if zone not in valid_zone_names():
        return False
    changed = Player.objects.filter(user=user, zone_follows_browser=True).exclude(time_zone=zone).update(time_zone=zone)
    return bool(changed)


def remember_language(user, language: str) -> None:
    """The language a signed-in player switched to, kept for their next visit."""
    Player.objects.update_or_create(user=user, defaults={"preferred_language": language})
