"""Who may do what in a club: the one place that decides (docs/permissions.md is the table).

Every function takes the acting user (possibly anonymous) and a Club, and answers from one
membership lookup, cached on the user object for the rest of the request, so a page may ask
many questions about the same club for one query. Views turn a "no" into an HTTP answer with
clubs.views.club_for (404 when the club is hidden, a login redirect for anonymous users,
403 otherwise); templates ask through the `club_perms` filters; services re-check before writing.

Names are stable: tournaments, gameplay and the API import them.
"""

from __future__ import annotations

from clubs.models import Club, Membership

Role = Membership.Role
_CACHE_ATTR = "_chalk_club_roles"


def _authenticated(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def role_of(user, club: Club) -> Role | None:
    """The user's role in the club, or None for anonymous users and non-members."""
    if not _authenticated(user) or club is None or club.pk is None:
        return None
    cache = user.__dict__.setdefault(_CACHE_ATTR, {})
    if club.pk not in cache:
        value = Membership.objects.filter(club_id=club.pk, user_id=user.pk).values_list("role", flat=True).first()
        cache[club.pk] = Role(value) if value else None
    return cache[club.pk]


def remember_role(user, club: Club, role: str | None) -> None:
    """Tell the cache a role already known (after loading memberships, or after a change)."""
    if _authenticated(user) and club is not None and club.pk is not None:
        user.__dict__.setdefault(_CACHE_ATTR, {})[club.pk] = Role(role) if role else None


def is_member(user, club: Club) -> bool:
    """Any role at all: member, organiser or owner."""
    return role_of(user, club) is not None


def is_owner(user, club: Club) -> bool:
    return role_of(user, club) == Role.OWNER


def can_organise(user, club: Club) -> bool:
    """Owners and organisers: run competitions, invite, decide join requests, see the log."""
    return role_of(user, club) in (Role.OWNER, Role.ORGANISER)


def can_view_club(user, club: Club) -> bool:
    """Public clubs: everyone. Private clubs: members, and staff (who also have the admin)."""
    if club.is_public:
        return True
    return is_member(user, club) or bool(_authenticated(user) and user.is_staff)


def can_create_club(user) -> bool:
    return _authenticated(user)


def can_edit_club(user, club: Club) -> bool:
    """Name, description, games, time zone, language and privacy: owners only."""
    return is_owner(user, club)


def can_manage_roles(user, club: Club) -> bool:
    """Promote and demote (including to and from owner): owners only."""
    return is_owner(user, club)


def can_change_role(user, club: Club, target: Membership, new_role: str) -> bool:
    """Owners change any role; the last-owner rule is checked by the service (it needs a count)."""
    return can_manage_roles(user, club) and target.club_id == club.pk and new_role in Role.values


def can_invite(user, club: Club) -> bool:
    """Create and revoke invitation links."""
    return can_organise(user, club)


def can_decide_requests(user, club: Club) -> bool:
    """Approve or decline join requests."""
    return can_organise(user, club)


def can_view_members(user, club: Club) -> bool:
    return can_view_club(user, club)


def can_view_audit(user, club: Club) -> bool:
    return can_organise(user, club)


def can_remove_member(user, club: Club, target: Membership) -> bool:
    """Owners remove anyone but themselves; organisers remove plain members. Leaving is not removing."""
    if target.club_id != club.pk or target.user_id == getattr(user, "pk", None):
        return False
    role = role_of(user, club)
    if role == Role.OWNER:
        return True
    return role == Role.ORGANISER and target.role == Role.MEMBER


def can_request_to_join(user, club: Club) -> bool:
    """Signed-in non-members of a public club (a private club is joined by invitation only)."""
    return _authenticated(user) and club.is_public and not is_member(user, club)


def can_accept_invitation(user, club: Club) -> bool:
    """Anyone signed in who is not a member yet; the invitation itself must still be usable."""
    return _authenticated(user) and not is_member(user, club)


def can_leave(user, club: Club) -> bool:
    """Members may leave; the service refuses if that would leave the club without an owner."""
    return is_member(user, club)


def can_play_in(user, club: Club) -> bool:
    """Start a club table ("play now") and enter the club's competitions."""
    return is_member(user, club)


def can_create_competition(user, club: Club) -> bool:
    return can_organise(user, club)


def clubs_for_new_competitions(user) -> list[Club]:
    """The clubs `user` may create competitions in (can_create_competition's), by name, in one query."""
    if not _authenticated(user):
        return []
    return list(Club.objects.filter(memberships__user=user, memberships__role__in=[Role.OWNER, Role.ORGANISER])
                .order_by("name"))


def can_manage_competition(user, club: Club) -> bool:
    return can_organise(user, club)
