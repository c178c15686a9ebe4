"""Groups then knockout, the Django side: whether the pairs entered fit the groups (in words a
person reads), and each group's table for the competition page (docs/competitions.md)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.formats import groups_knockout
from tournaments.models import Competition, Entry
from tournaments.services.loading import format_options, snapshot


def groups_problem(pairs: int, size: int, through: int) -> str:
    """Why `pairs` pairs cannot play groups of `size` with `through` going through ('' if they can)."""
    try:
        groups_knockout.group_sizes(pairs, size, through)
    except groups_knockout.GroupsImpossible as error:
        if error.reason == "qualifiers":
            return _("Fewer pairs must go through than a group holds (%(size)d).") % {"size": size}
        if error.reason == "too_few":
            return _("With %(pairs)d pairs there is one group and one pair through: there is no knockout. "
                     "Let more pairs through or make the groups smaller.") % {"pairs": pairs}
        return _("Pairs entered: %(pairs)d. In groups of %(size)d the smallest group would have %(smallest)d, "
                 "no more than the %(through)d going through from it. Choose another group size.") % {
            "pairs": pairs, "size": size, "smallest": error.smallest, "through": through}
    return ""


def problem_of(competition: Competition) -> str:
    """The groups problem with the confirmed pairs of `competition` ('' if none, or not groups)."""
    if not competition.is_groups:
        return ""
    pairs = Entry.objects.filter(competition=competition, status=Entry.Status.CONFIRMED).count()
    return groups_problem(pairs, competition.group_size, competition.group_qualifiers)


@dataclass
class GroupRow:
    rank: int
    entry: Entry
    played: int
    won: int
    drawn: int
    lost: int
    points: float
    games: int
    through: bool


@dataclass
class GroupTable:
    letter: str
    rows: list
    over: bool  # every group's matches are decided: the marked pairs are through


def group_tables(competition: Competition) -> list[GroupTable]:
    """Each group's standings (the round robin's order), the pairs going through marked; empty
    before the draw. Two queries (entries, pairings) and one for the names."""
    snap = snapshot(competition)
    if not snap.field:
        return []
    options = format_options(competition)
    try:
        tables = groups_knockout.group_tables(snap.field, snap.values, snap.results, options)
    except groups_knockout.GroupsImpossible:
        return []
    names = Entry.objects.in_bulk([e.id for e in snap.field])
    over = groups_knockout.groups_complete(snap.values, snap.results,
                                           groups_knockout.plan(snap.field, options).offset)
    return [GroupTable(groups_knockout.letter(index), [
        GroupRow(row.rank, names[row.entry], row.played, row.won, row.drawn, row.lost, row.match_points,
                 row.game_difference, position < options.group_qualifiers)
        for position, row in enumerate(table)], over) for index, table in enumerate(tables)]
