"""What a signed-in player's home shows, each part in one or two queries.

Read-only. Every function takes the user and returns plain rows or small value objects the
template lays out; nothing here writes. Tables come from gameplay.api, competitions from
tournaments.pages, ratings from tournaments.ratings.services.
"""

from __future__ import annotations

from django.utils import timezone

from clubs.models import Club, MemberInvitation, Membership
from gameplay import api as gameplay
from tournaments import pages as competitions
from tournaments.ratings import services as ratings
from tournaments.services import notify

RECENT_RESULTS = 8
LIST_SIZE = 12


def club_invitations(user) -> list[MemberInvitation]:
    """Clubs whose organisers invited this player by name, still open to an answer."""
    return list(MemberInvitation.objects.filter(user=user, status=MemberInvitation.Status.PENDING,
                                                expires_at__gt=timezone.now())
                .select_related("club", "invited_by__player").order_by("expires_at"))


def invitations(user) -> dict:
    """Every invitation waiting for the player's answer: clubs, partners, tables."""
    return {"club_invitations": club_invitations(user),
            "invitations": competitions.partner_invitations_of(user),
            "table_invitations": gameplay.table_invitations_of(user)}


def memberships(user) -> dict:
    """The player's competitions and clubs (an answered invitation may change both)."""
    return {"competitions": competitions.competitions_of(user), "clubs": my_clubs(user),
            "organised": organised_clubs(user)}


def my_clubs(user):
    return list(Club.objects.filter(memberships__user=user).order_by("name")[:LIST_SIZE])


def organised_clubs(user):
    """Clubs where the player may create a competition (owners and organisers)."""
    roles = [Membership.Role.OWNER, Membership.Role.ORGANISER]
    return list(Club.objects.filter(memberships__user=user, memberships__role__in=roles).order_by("name"))


def unread_notifications(user) -> int:
    return notify.unread_count(user)


def dashboard(user) -> dict:
    """Everything the signed-in home shows, by part."""
    return {"next_match": competitions.next_match_of(user), "tables": gameplay.tables_of(user, LIST_SIZE),
            **invitations(user), **memberships(user),
            "results": ratings.recent_changes(user, RECENT_RESULTS)}
