"""What the pages show, read in a bounded number of queries whatever the size of the field.

Entry names are stored on the entry (kept in step by the services), so a 512-pair standings or
bracket page reads the stored rows with their entries in one query each.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.permissions import can_organise, can_view_club, is_member
from gameplay import api as gameplay
from tournaments.models import CheckIn, Competition, Entry, EntryPlayer, Pairing, Round, Standing
from tournaments.standings import tiebreak_order


def can_follow(user, competition: Competition) -> bool:
    if not can_view_club(user, competition.club):
        return False
    return competition.is_public or is_member(user, competition.club) or bool(
        getattr(user, "is_staff", False))


def can_manage(user, competition: Competition) -> bool:
    return can_organise(user, competition.club)


def visible_competitions(user):
    """Competitions a user may follow: public ones of public clubs, and those of the user's clubs."""
    query = Q(visibility=Competition.Visibility.PUBLIC, club__is_public=True)
    if getattr(user, "is_authenticated", False):
        query |= Q(club__memberships__user=user)
    return Competition.objects.filter(query).distinct()


def standings_rows(competition: Competition, limit: int | None = None):
    """The stored standings in order; `limit` rows at most (the competition page shows the top)."""
    rows = Standing.objects.filter(competition=competition).select_related("entry").order_by("position")
    return list(rows[:limit] if limit else rows)


def link_preview(competition: Competition) -> dict:
    """What a shared link to the competition's page shows (Open Graph): its name, and the game, the
    format, its dates in the club's zone and the club, in the reader's language."""
    from config.formatting import date_time
    zone = competition.club.time_zone or "UTC"
    when = _("Starts %(when)s") % {"when": date_time(competition.starts_at, zone)}
    if competition.finished_at:
        when = _("Played %(start)s to %(end)s") % {"start": date_time(competition.starts_at, zone),
                                                   "end": date_time(competition.finished_at, zone)}
    parts = [competition.get_game_display(), competition.get_format_display(), when, competition.club.name]
    return {"title": competition.name, "description": " · ".join(str(part) for part in parts)}


def tiebreak_names(competition: Competition) -> tuple[str, ...]:
    return () if competition.is_duplicate else tiebreak_order(competition.format, competition.tiebreak_order)


def pairings_with_names(competition: Competition, **filters):
    """The pairings with their pairs' names and, as `pairing.table`, their match's result (or None)."""
    pairings = list(Pairing.objects.filter(competition=competition, **filters)
                    .select_related("home", "away", "winner").order_by("round_number", "slot"))
    return with_tables(pairings)


def with_tables(pairings: list) -> list:
    """Each pairing's `table` (its match's result from gameplay.api, or None), in one query."""
    results = gameplay.results_of(p.match_id for p in pairings)
    for pairing in pairings:
        pairing.table = results.get(pairing.match_id)
    return pairings


def now_playing(competition: Competition):
    return pairings_with_names(competition, match_id__in=gameplay.matches_with_status(gameplay.Status.PLAYING))


def champion(competition: Competition, top_rows=None) -> list:
    """The winners (one pair; more only if the format ends in a true tie) once it is over; from
    `top_rows` (standings_rows' first rows) when the page has them already."""
    if competition.status != Competition.Status.FINISHED:
        return []
    rows = top_rows if top_rows is not None else Standing.objects.filter(competition=competition, rank=1)
    return [row.entry for row in rows if row.rank == 1]


def my_part(user, competition: Competition) -> dict:
    """The signed-in player's pair, open invitation and current pairing, in four queries."""
    if not getattr(user, "is_authenticated", False):
        return {}
    place = (EntryPlayer.objects.filter(competition=competition, user=user).select_related("entry").first())
    if place is None:
        return {}
    entry = place.entry
    pairing = (Pairing.objects.filter(Q(home=entry) | Q(away=entry), competition=competition,
                                      decided_at__isnull=True, round__status=Round.Status.OPEN)
               .select_related("round", "home", "away").first())
    checked = set(pairing.check_ins.values_list("user_id", flat=True)) if pairing else set()
    # A pairing the organiser moved later: its check-in waits for its own opening.
    waits = pairing is not None and pairing.starts_at is not None and timezone.now() < (
        pairing.starts_at - (competition.check_in if not competition.is_league else timedelta(0)))
    return {"entry": entry, "invited": place.accepted_at is None, "pairing": pairing,
            "checked_in": user.pk in checked, "check_ins": len(checked), "check_in_later": waits}


def entry_list(competition: Competition):
    return list(Entry.objects.filter(competition=competition).order_by("seed", "pk"))


def waiting_list(competition: Competition) -> list:
    """The pairs on the waiting list in the order they move up (docs/entries.md)."""
    return list(Entry.objects.filter(competition=competition, status=Entry.Status.WAITING)
                .order_by("waiting_since", "pk"))


ANNOUNCEMENTS_SHOWN = 20


def announcements(competition: Competition) -> list:
    """The latest announcements to the entrants, newest first."""
    return list(competition.announcements.select_related("author__player")[:ANNOUNCEMENTS_SHOWN])


def round_pairings_query():
    """Pairings with what a round page shows: both pairs and their players, check-ins (the table:
    `pairing.table`, from gameplay.api)."""
    return (Pairing.objects.select_related("home", "away", "winner", "round", "competition__club")
            .prefetch_related("check_ins", "home__players__user__player", "away__players__user__player"))


def round_pairings(round_row: Round) -> list:
    return with_tables(list(round_pairings_query().filter(round=round_row).order_by("slot")))


def free_members(competition: Competition) -> list:
    """Club members not playing in this competition: who may come in as a substitute."""
    from django.contrib.auth import get_user_model
    playing = EntryPlayer.objects.filter(competition=competition).values("user_id")
    return list(get_user_model().objects.filter(memberships__club=competition.club_id)
                .exclude(pk__in=playing).select_related("player").order_by("username"))


# ----- a club's competitions, for its page (templates/clubs/partials/competitions.html) -------

CLUB_COMPETITIONS_SHOWN = 20
CLUB_ROUNDS_SHOWN = 10


def club_competitions(club, include_drafts: bool = False, member: bool = False) -> dict:
    """Running and coming competitions and the next rounds, for the club page (through the
    `club_competitions` tag: clubs reads no competition row). Non-members do not see members-only
    competitions; only organisers see drafts."""
    from django.db.models import Count

    query = Competition.objects.filter(club=club)
    if not member:
        query = query.filter(visibility=Competition.Visibility.PUBLIC)
    coming = [Competition.Status.OPEN, *([Competition.Status.DRAFT] if include_drafts else [])]
    running = query.filter(status=Competition.Status.RUNNING).order_by("name")
    upcoming = query.filter(status__in=coming).order_by("starts_at", "name")
    counts = query.aggregate(running=Count("pk", filter=Q(status=Competition.Status.RUNNING)),
                             upcoming=Count("pk", filter=Q(status__in=coming)))
    return {"available": True, "running": list(running[:CLUB_COMPETITIONS_SHOWN]),
            "upcoming": list(upcoming[:CLUB_COMPETITIONS_SHOWN]), "counts": counts,
            "next_rounds": club_next_rounds(query.filter(status__in=[Competition.Status.RUNNING, *coming]))}


def club_next_rounds(competitions) -> list:
    """The next scheduled or open rounds (the club's upcoming fixtures), soonest first."""
    rounds = Round.objects.filter(competition__in=competitions, status__in=[Round.Status.SCHEDULED, Round.Status.OPEN],
                                  starts_at__gte=timezone.now() - timedelta(hours=12))
    return list(rounds.select_related("competition").order_by("starts_at")[:CLUB_ROUNDS_SHOWN])


# ----- a player's own competitions, for their home (home/) ----------------------------

HOME_LIST_SIZE = 12
STATUS_WORDS = dict(Competition.Status.choices)  # a competition's status in words, by its value
DONE = (Competition.Status.FINISHED, Competition.Status.CANCELLED)


@dataclass(frozen=True)
class NextMatch:
    """The player's next competition match: when it starts and whether they may check in."""

    pairing: Pairing
    starts_at: datetime
    can_check_in: bool
    checked_in: bool
    check_in_opens: datetime | None = None

    @property
    def competition(self) -> Competition:
        return self.pairing.competition

    @property
    def started(self) -> bool:
        """Its start has come: the home says "starting now", never "starts in now"."""
        return self.starts_at <= timezone.now()

    @property
    def check_in_later(self) -> bool:
        return self.check_in_opens is not None and self.check_in_opens > timezone.now()


def next_match_of(user) -> NextMatch | None:
    """The earliest undecided pairing of the player's pairs whose round is scheduled or open and
    whose table has not finished."""
    entries = EntryPlayer.objects.filter(user=user, accepted_at__isnull=False).values("entry_id")
    ended = gameplay.matches_with_status(gameplay.Status.FINISHED, gameplay.Status.ABORTED)
    pairing = (Pairing.objects.filter(Q(home_id__in=entries) | Q(away_id__in=entries), decided_at__isnull=True,
                                      away__isnull=False,
                                      round__status__in=[Round.Status.SCHEDULED, Round.Status.OPEN])
               .exclude(match_id__in=ended)
               .select_related("round", "competition", "home", "away")
               .only("competition_id", "round_number", "match_id", "starts_at", "round__status", "round__starts_at",
                     "competition__name", "competition__format", "competition__check_in", "home__name", "away__name")
               .order_by(Coalesce("starts_at", "round__starts_at"), "pk").first())
    if pairing is None:
        return None
    checked = CheckIn.objects.filter(pairing=pairing, user=user).exists()
    starts = pairing.starts_at or pairing.round.starts_at  # a pairing the organiser moved keeps its own time
    opens = starts if pairing.competition.is_league else starts - pairing.competition.check_in
    moved_later = pairing.starts_at is not None and timezone.now() < opens  # its own check-in opens then
    is_open = pairing.round.status == Round.Status.OPEN and pairing.match_id is None and not moved_later
    return NextMatch(pairing, starts, is_open and not checked, checked, None if is_open else opens)


def player_ids_of(competition_id: int) -> list[int]:
    """Everyone entered in the competition, invited partners included (one query)."""
    return list(EntryPlayer.objects.filter(competition_id=competition_id)
                .values_list("user_id", flat=True).distinct())


def partner_invitations_of(user) -> list[dict]:
    """Pairs a partner entered with this player, still waiting for their answer: the place's pk,
    who invited them (their shown name, else the pair's) and the competition's name."""
    rows = (EntryPlayer.objects.filter(user=user, accepted_at__isnull=True, competition__status=Competition.Status.OPEN)
            .order_by("-entry__created_at")
            .values("pk", "entry__name", "entry__created_by__username", "entry__created_by__player__display_name",
                    "competition__name")[:HOME_LIST_SIZE])
    return [{"pk": row["pk"], "competition": row["competition__name"],
             "by": (row["entry__created_by__player__display_name"] or row["entry__created_by__username"]
                    or row["entry__name"])} for row in rows]


def partner_place_of(user, place_id: int) -> EntryPlayer | None:
    """The player's own place in a pair (an invitation they may answer), or None."""
    return EntryPlayer.objects.select_related("entry__competition").filter(pk=place_id, user=user).first()


def competitions_of(user) -> list[dict]:
    """Current competitions the player is entered in (accepted), soonest first: id, name, club
    name and status (its words from Competition.Status at render)."""
    rows = (Competition.objects.filter(entries__players__user=user, entries__players__accepted_at__isnull=False)
            .exclude(status__in=DONE).distinct().order_by("starts_at", "pk")
            .values("pk", "name", "status", "starts_at", "club__name")[:HOME_LIST_SIZE])
    return [{"pk": row["pk"], "name": row["name"], "status": row["status"], "club": row["club__name"]} for row in rows]


def audit_lines(competition: Competition, limit: int = 50) -> list:
    """The latest audit entries, each naming what it touched: its pairing's pairs (select_related)
    and, as `who`, the players its detail names by id ("Omar out, Rosa in", the absent player), in one
    more query at most (words, not an arrow, which would point the wrong way in Arabic)."""
    rows = list(competition.audit_entries.select_related("actor__player", "entry", "pairing__home",
                                                         "pairing__away")[:limit])
    ids = {row.detail.get(key) for row in rows for key in ("absent", "out", "in")} - {None}
    ids |= {user_id for row in rows for user_id in row.detail.get("reminded", ())}
    names = {}
    if ids:
        users = get_user_model().objects.filter(pk__in=ids).select_related("player")
        names = {user.pk: getattr(getattr(user, "player", None), "name", user.get_username()) for user in users}
    for row in rows:
        detail = row.detail
        if "out" in detail and "in" in detail:
            row.who = _("%(out)s out, %(in)s in") % {"out": names.get(detail["out"], "?"),
                                                      "in": names.get(detail["in"], "?")}
        elif "absent" in detail:
            row.who = names.get(detail["absent"], "")
        elif detail.get("reminded"):
            row.who = ", ".join(names.get(user_id, "?") for user_id in detail["reminded"])
        else:
            row.who = ""
    return rows
