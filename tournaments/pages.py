"""What the pages show, read in a bounded number of queries whatever the size of the field.

Entry names are stored on the entry (kept in step by the services), so a 512-pair standings or
bracket page reads the stored rows with their entries in one query each.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from clubs.permissions import can_organise, can_view_club, is_member
from gameplay import api as gameplay
from tournaments.models import Competition, Entry, EntryPlayer, Pairing, Round, Standing
from tournaments.standings import TIEBREAKS_BY_FORMAT

BOX_W, BOX_H, GAP_X, GAP_Y = 190, 44, 40, 12


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


def tiebreak_names(competition: Competition) -> tuple[str, ...]:
    return TIEBREAKS_BY_FORMAT.get(competition.format, ())


def pairings_with_names(competition: Competition, **filters):
    """The pairings with their pairs' names and, as `pairing.table`, their match's result (or None)."""
    pairings = list(Pairing.objects.filter(competition=competition, **filters)
                    .select_related("home", "away", "winner").order_by("round_number", "slot"))
    results = gameplay.results_of(p.match_id for p in pairings)
    for pairing in pairings:
        pairing.table = results.get(pairing.match_id)
    return pairings


def now_playing(competition: Competition):
    return pairings_with_names(competition, match__in=gameplay.matches_with_status(gameplay.Status.PLAYING))


@dataclass
class Box:
    pairing: Pairing
    x: int
    y: int


@dataclass
class BracketDrawing:
    name: str
    width: int
    height: int
    boxes: list
    lines: list  # (x1, y1, x2, y2)
    columns: list  # (x, round number)


def bracket_drawings(pairings) -> list[BracketDrawing]:
    """Lay the pairings of each bracket out in columns by round; a column half the size of the
    previous one is joined to it by lines (the winners of two boxes meet in one)."""
    by_bracket: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for pairing in pairings:
        by_bracket[pairing.bracket][pairing.round_number].append(pairing)
    drawings = []
    for name, rounds in by_bracket.items():
        columns = [rounds[number] for number in sorted(rounds)]
        tallest = max(len(c) for c in columns)
        height = tallest * (BOX_H + GAP_Y) + GAP_Y
        boxes, lines, heads, previous = [], [], [], None
        for index, column in enumerate(columns):
            x = GAP_X // 2 + index * (BOX_W + GAP_X)
            step = height / len(column)
            placed = [Box(p, x, int(step * (i + 0.5) - BOX_H / 2)) for i, p in enumerate(column)]
            if previous and len(previous) == 2 * len(placed):
                for i, box in enumerate(placed):
                    for feeder in previous[2 * i:2 * i + 2]:
                        lines.append((feeder.x + BOX_W, feeder.y + BOX_H // 2, box.x, box.y + BOX_H // 2))
            boxes += placed
            heads.append((x, column[0].round_number))
            previous = placed
        width = len(columns) * (BOX_W + GAP_X)
        drawings.append(BracketDrawing(name, width, height, boxes, lines, heads))
    return drawings


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
    return {"entry": entry, "invited": place.accepted_at is None, "pairing": pairing,
            "checked_in": user.pk in checked, "check_ins": len(checked)}


def entry_list(competition: Competition):
    return list(Entry.objects.filter(competition=competition).order_by("seed", "pk"))
