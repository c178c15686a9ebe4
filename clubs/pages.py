"""What the club and player pages show, loaded in a fixed number of queries whatever the size
of the club (tests/clubs/test_query_counts.py holds it to that).
"""

from __future__ import annotations

from datetime import timedelta

from django.apps import apps
from django.db.models import Count, Q
from django.utils import timezone

from clubs import permissions
from clubs.dashboard import online
from clubs.models import Club, JoinRequest, Membership
from gameplay import api as gameplay

Role = Membership.Role
ROLE_ORDER = {Role.OWNER: 0, Role.ORGANISER: 1, Role.MEMBER: 2}
RESULTS_SHOWN = 10
COMPETITIONS_SHOWN = 20
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
               "competitions": club_competitions(club, include_drafts=can["organise"], member=can["member"]),
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


def competition_model(name: str = "Competition"):
    """A tournaments model whose competitions belong to a club; None before that lands."""
    try:
        model = apps.get_model("tournaments", name)
    except LookupError:
        return None
    if name == "Competition":
        return model if "club" in {field.name for field in model._meta.get_fields()} else None
    return model if competition_model() is not None else None


def club_competitions(club: Club, include_drafts: bool = False, member: bool = False) -> dict:
    """Running and coming competitions and the next rounds, for templates/clubs/partials/competitions.html.
    Non-members do not see members-only competitions; only organisers see drafts."""
    model = competition_model()
    if model is None:
        return {"available": False}
    query = model.objects.filter(club=club)
    if not member and hasattr(model, "Visibility"):
        query = query.filter(visibility=model.Visibility.PUBLIC)
    states = getattr(model, "Status", None)
    known = set(states.values) if states else set()
    coming = [s for s in ("open", "draft" if include_drafts else None) if s in known]
    running = query.filter(status="running").order_by("name")
    upcoming = query.filter(status__in=coming).order_by("starts_at", "name")
    counts = query.aggregate(running=Count("pk", filter=Q(status="running")),
                             upcoming=Count("pk", filter=Q(status__in=coming)))
    return {"available": True, "running": list(running[:COMPETITIONS_SHOWN]),
            "upcoming": list(upcoming[:COMPETITIONS_SHOWN]), "counts": counts,
            "next_rounds": next_rounds(query.filter(status__in=["running", *coming]))}


def next_rounds(competitions) -> list:
    """The next scheduled or open rounds (the club's upcoming fixtures), soonest first."""
    model = competition_model("Round")
    if model is None:
        return []
    rounds = model.objects.filter(competition__in=competitions, status__in=["scheduled", "open"],
                                  starts_at__gte=timezone.now() - timedelta(hours=12))
    return list(rounds.select_related("competition").order_by("starts_at")[:RESULTS_SHOWN])


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
