"""What the club and player pages show, loaded in a fixed number of queries whatever the size
of the club (tests/clubs/test_query_counts.py holds it to that).
"""

from __future__ import annotations

from django.db.models import Count, Q

from clubs import permissions
from clubs.models import Club, JoinRequest, Membership, Player
from clubs import online
from gameplay import api as gameplay

Role = Membership.Role
ROLE_ORDER = {Role.OWNER: 0, Role.ORGANISER: 1, Role.MEMBER: 2}
RESULTS_SHOWN = 10
PENDING_SHOWN = 20


def sorted_memberships(club: Club) -> list[Membership]:
    rows = list(club.memberships.select_related("user__player"))
    rows.sort(key=lambda m: (ROLE_ORDER.get(m.role, 9), m.user.player.name.casefold()))
    return rows


def remember_viewer(user, club: Club, memberships: list[Membership]) -> None:
    """The member list already says the viewer's role: spare the permission check its query."""
    if getattr(user, "is_authenticated", False):
        mine = next((m.role for m in memberships if m.user_id == user.pk), None)
        permissions.remember_role(user, club, mine)


def abilities(user, club: Club) -> dict:
    """The permission answers a club template needs, asked once."""
    return {
        "member": permissions.is_member(user, club),
        "owner": permissions.is_owner(user, club),
        "organise": permissions.can_organise(user, club),
        "edit": permissions.can_edit_club(user, club),
        "invite": permissions.can_invite(user, club),
        "decide": permissions.can_decide_requests(user, club),
        "roles": permissions.can_manage_roles(user, club),
        "request": permissions.can_request_to_join(user, club),
        "leave": permissions.can_leave(user, club),
        "play": permissions.can_play_in(user, club),
        "audit": permissions.can_view_audit(user, club),
    }


def club_context(user, club: Club) -> dict:
    memberships = sorted_memberships(club)
    remember_viewer(user, club, memberships)
    can = abilities(user, club)
    context = {"club": club, "memberships": memberships, "role": permissions.role_of(user, club), "can": can,
               "results": recent_results(club), "upcoming": upcoming_tables(club),
               "online": online.online_among(m.user_id for m in memberships)}
    if can["decide"]:
        pending = club.join_requests.filter(status=JoinRequest.Status.PENDING)
        context["pending"] = list(pending.select_related("user__player")[:PENDING_SHOWN])
        context["pending_count"] = len(context["pending"]) if len(context["pending"]) < PENDING_SHOWN else pending.count()
    elif can["request"]:
        context["my_request"] = club.join_requests.filter(user=user, status=JoinRequest.Status.PENDING).exists()
    return context


def members_context(user, club: Club) -> dict:
    memberships = sorted_memberships(club)
    remember_viewer(user, club, memberships)
    rows = [{"membership": m, "can_remove": permissions.can_remove_member(user, club, m)} for m in memberships]
    return {"club": club, "rows": rows, "can": abilities(user, club), "roles": Role.choices}


def club_members(club: Club):
    return Membership.objects.filter(club=club).values("user_id")


def recent_results(club: Club) -> list:
    """Public finished matches with at least one member of the club seated, newest first."""
    return gameplay.recent_results_of(club_members(club), RESULTS_SHOWN)


def upcoming_tables(club: Club) -> list:
    return gameplay.upcoming_tables_of(club_members(club), RESULTS_SHOWN)


def club_list_context(user) -> dict:
    clubs = Club.objects.annotate(member_count=Count("memberships"))
    mine = []
    if getattr(user, "is_authenticated", False):
        mine = list(clubs.filter(memberships__user=user).order_by("name"))
    visible = clubs.filter(is_public=True).exclude(pk__in=[c.pk for c in mine])
    return {"mine": mine, "clubs": list(visible.order_by("name"))}


def player_context(viewer, user) -> dict:
    """A player's page: clubs the viewer may see, a rating per game, recent matches the viewer may see."""
    memberships = user.memberships.select_related("club").order_by("club__name")
    if not (getattr(viewer, "is_authenticated", False) and (viewer.pk == user.pk or viewer.is_staff)):
        shared = Membership.objects.filter(user_id=getattr(viewer, "pk", None)).values("club_id")
        memberships = memberships.filter(Q(club__is_public=True) | Q(club_id__in=shared))
    recent = gameplay.finished_matches_of_player(user, viewer, RESULTS_SHOWN)
    return {"subject": user, "player": user.player, "memberships": list(memberships),
            "games": gameplay.Game.choices, "matches": recent}


def creator_zone(user) -> str:
    """The zone a new club starts in: its creator's (the profile's), else UTC."""
    return Player.objects.filter(user=user).values_list("time_zone", flat=True).first() or "UTC"
