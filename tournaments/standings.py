"""Standings: match points, then the tiebreaks of each format, all pure.

| format             | order of ranking                                              | defined in |
|--------------------|---------------------------------------------------------------|------------|
| swiss              | match points, Buchholz, Sonneborn-Berger, head-to-head, game points difference | FIDE C.07 |
| round_robin        | match points, head-to-head, Sonneborn-Berger, game points difference, game points | FIDE C.07 |
| league             | match points (2/1/0), game points difference, game points, head-to-head | our rule (football-style league table) |
| single_elimination | bracket place (round reached; third-place match if played); pairs still in: match points, game difference | formats/bracket.py |
| double_elimination | bracket place (losers' round reached); pairs still in: match points, game difference | formats/bracket.py |
| groups_knockout    | knockout place, then group place for the pairs not through; pairs still in: match points, game difference | formats/groups_knockout.py |

Definitions (FIDE Handbook C.07 "Tie-Break Regulations", effective 1 August
2024; names as there, our wording):

* Match points: win 1, draw 1/2, loss 0 (league: 2, 1, 0). A bye scores a win.
  A double forfeit is a loss for both sides.
* Game points: games won inside the best-of-N matches (``Result.home_points``
  / ``away_points``); difference = for - against.
* Head-to-head (FIDE "Direct Encounter"): among the entries still tied, the
  match points each scored in the matches between them - applied only when
  every two of them have met (otherwise it leaves the tie unbroken).
* Buchholz: the sum of the final match points of the entry's opponents.
  Decision, after C.07's treatment of unplayed rounds: a bye counts as an
  opponent with the entry's own match points ("dummy opponent").
* Sonneborn-Berger: the sum, over the matches played, of the entry's result
  (1, 1/2, 0) times that opponent's final match points; byes add nothing.

Walkovers count as the result recorded (the pairing existed). Entries equal on
every criterion share a rank and are listed in seed order. A tiebreak is a
function of the standings ``Table`` and the group of tied entries, so adding
one touches one function and the ``TIEBREAKS`` registry.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Optional

from .formats import double_elimination, groups_knockout, single_elimination
from .formats.base import Entry, EntryId, Options, Pairing, Result, results_by_key
from .formats.seeding import in_seed_order


@dataclass(frozen=True)
class Points:
    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0


LEAGUE_POINTS = Points(2, 1, 0)


@dataclass(frozen=True)
class Row:
    entry: EntryId
    rank: int
    played: int
    won: int
    drawn: int
    lost: int
    match_points: float
    game_points_for: int
    game_points_against: int
    tiebreaks: tuple[tuple[str, Optional[float]], ...] = ()

    @property
    def game_difference(self) -> int:
        return self.game_points_for - self.game_points_against


@dataclass
class _Line:
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: float = 0.0
    games_for: int = 0
    games_against: int = 0
    byes: int = 0
    # (opponent, my result 1/0.5/0, my match points from that match)
    meetings: list = field(default_factory=list)


@dataclass(frozen=True)
class Table:
    """Per-entry totals from which every tiebreak is computed."""

    lines: dict


def _score(pairing: Pairing, result: Result) -> tuple[float, float]:
    if result.winner is None:
        return (0.0, 0.0) if result.walkover else (0.5, 0.5)
    return (1.0, 0.0) if result.winner == pairing.home else (0.0, 1.0)


def _add(line: _Line, opponent, score: float, games: tuple[int, int], points: Points) -> None:
    line.played += 1
    line.won += score == 1.0
    line.drawn += score == 0.5
    line.lost += score == 0.0
    earned = points.win if score == 1.0 else points.draw if score == 0.5 else points.loss
    line.points += earned
    line.games_for += games[0]
    line.games_against += games[1]
    line.meetings.append((opponent, score, earned))


def tally(entries: Sequence[Entry], pairings: Iterable[Pairing], results: Iterable[Result],
          points: Points = Points()) -> Table:
    """Totals per entry from the finished pairings (byes count as wins)."""
    lines = {entry.id: _Line() for entry in entries}
    done = results_by_key(results)
    for p in pairings:
        if p.is_bye:
            line = lines.setdefault(p.home, _Line())
            line.byes += 1
            line.points += points.win
            continue
        result = done.get(p.key)
        if result is None:
            continue
        home, away = _score(p, result)
        _add(lines.setdefault(p.home, _Line()), p.away, home, (result.home_points, result.away_points), points)
        _add(lines.setdefault(p.away, _Line()), p.home, away, (result.away_points, result.home_points), points)
    return Table(lines)


def game_difference(table: Table, entry, tied) -> float:
    line = table.lines[entry]
    return line.games_for - line.games_against


def game_points(table: Table, entry, tied) -> float:
    return table.lines[entry].games_for


def buchholz(table: Table, entry, tied) -> float:
    line = table.lines[entry]
    return sum(table.lines[opp].points for opp, _, _ in line.meetings) + line.byes * line.points


def sonneborn_berger(table: Table, entry, tied) -> float:
    return sum(score * table.lines[opp].points for opp, score, _ in table.lines[entry].meetings)


def head_to_head(table: Table, entry, tied) -> Optional[float]:
    """Match points against the other tied entries, if all of them have met."""
    others = set(tied) - {entry}
    if any(len(table.lines[a].meetings) < len(others) for a in tied):
        return None
    if any(not _all_met(table, a, set(tied) - {a}) for a in tied):
        return None
    return sum(earned for opp, _, earned in table.lines[entry].meetings if opp in others)


def _all_met(table: Table, entry, others: set) -> bool:
    return others <= {opp for opp, _, _ in table.lines[entry].meetings}


Tiebreak = Callable[[Table, EntryId, Sequence[EntryId]], Optional[float]]

TIEBREAKS: dict[str, Tiebreak] = {
    "head_to_head": head_to_head,
    "buchholz": buchholz,
    "sonneborn_berger": sonneborn_berger,
    "game_difference": game_difference,
    "game_points": game_points,
}

TIEBREAKS_BY_FORMAT: dict[str, tuple[str, ...]] = {
    "swiss": ("buchholz", "sonneborn_berger", "head_to_head", "game_difference"),
    "round_robin": ("head_to_head", "sonneborn_berger", "game_difference", "game_points"),
    "league": ("game_difference", "game_points", "head_to_head"),
    "single_elimination": (),
    "double_elimination": (),
    "groups_knockout": (),
}

# Formats ranked by the place their bracket gives (groups then knockout: the knockout, then the
# group places of the pairs that did not go through).
PLACES = {"single_elimination": single_elimination.places, "double_elimination": double_elimination.places,
          "groups_knockout": groups_knockout.places}

DEFAULT_TIEBREAKS = ("game_difference", "game_points")  # a format with no entry above

POINTS_BY_FORMAT = {"league": LEAGUE_POINTS}


def tiebreak_order(format_key: str, chosen: Sequence[str] = ()) -> tuple[str, ...]:
    """The tiebreaks a competition applies, in order: the organiser's choice (names of ``TIEBREAKS``,
    unknown ones dropped), else the format's own. A bracket ranks by its places and uses none."""
    if format_key in ("single_elimination", "double_elimination"):
        return ()
    picked = tuple(name for name in chosen if name in TIEBREAKS)
    return picked or TIEBREAKS_BY_FORMAT.get(format_key, DEFAULT_TIEBREAKS)


def _split(table: Table, groups: list[list], name: str, values: dict) -> list[list]:
    """Refine every tied group by one tiebreak (higher is better, None last)."""
    refined = []
    for group in groups:
        if len(group) == 1:
            refined.append(group)
            continue
        for entry in group:
            values[(name, entry)] = TIEBREAKS[name](table, entry, group)
        key = {e: (values[(name, e)] is not None, values[(name, e)] or 0) for e in group}
        ordered = sorted(group, key=lambda e: key[e], reverse=True)
        refined += _runs(ordered, key)
    return refined


def _runs(ordered: list, key: dict) -> list[list]:
    runs: list[list] = []
    for entry in ordered:
        if runs and key[runs[-1][0]] == key[entry]:
            runs[-1].append(entry)
        else:
            runs.append([entry])
    return runs


def rank_table(entries: Sequence[Entry], table: Table, tiebreaks: Sequence[str]) -> tuple[Row, ...]:
    """Rows in ranking order: match points, then each tiebreak in turn."""
    seeded = [entry.id for entry in in_seed_order(entries)]
    by_points = sorted(seeded, key=lambda e: -table.lines[e].points)
    groups = _runs(by_points, {e: table.lines[e].points for e in by_points})
    values: dict = {}
    for name in tiebreaks:
        groups = _split(table, groups, name, values)
    rows, position = [], 1
    for group in groups:
        rows += [_row(table, entry, position, tiebreaks, values) for entry in group]
        position += len(group)
    return tuple(rows)


def _row(table: Table, entry, rank: int, tiebreaks: Sequence[str], values: dict) -> Row:
    line = table.lines[entry]
    named = tuple((name, values.get((name, entry))) for name in tiebreaks)
    return Row(entry, rank, line.played, line.won, line.drawn, line.lost, line.points,
               line.games_for, line.games_against, named)


def _bracket_rows(format_key: str, entries, pairings, results, options, table) -> tuple[Row, ...]:
    places = PLACES[format_key](entries, pairings, results, options)
    seeded = [entry.id for entry in in_seed_order(entries)]
    key = {e: _bracket_key(table, e, places[e]) for e in seeded}
    ordered = sorted(seeded, key=lambda e: key[e])
    ranks, position = {}, 0
    for index, entry in enumerate(ordered):
        if index == 0 or key[entry] != key[ordered[index - 1]]:
            position = index + 1
        ranks[entry] = position
    return tuple(_row(table, e, ranks[e], (), {}) for e in ordered)


def _bracket_key(table: Table, entry, place: int) -> tuple:
    """Pairs still in (place 1 until the end) are ordered by what they have won so far, then games;
    pairs out at the same stage share their place (the bracket's own rule)."""
    if place != 1:
        return (place, 0, 0)
    line = table.lines[entry]
    return (1, -line.points, -(line.games_for - line.games_against))


def standings(format_key: str, entries: Sequence[Entry], pairings: Sequence[Pairing],
              results: Iterable[Result], options: Options = Options(),
              tiebreaks: Optional[Sequence[str]] = None,
              points: Optional[Points] = None) -> tuple[Row, ...]:
    """The standings of a competition of ``format_key`` from its pairings and results."""
    results = list(results)
    table = tally(entries, pairings, results, points or POINTS_BY_FORMAT.get(format_key, Points()))
    if format_key in PLACES:
        return _bracket_rows(format_key, entries, pairings, results, options, table)
    chosen = TIEBREAKS_BY_FORMAT.get(format_key, DEFAULT_TIEBREAKS) if tiebreaks is None else tuple(tiebreaks)
    return rank_table(entries, table, chosen)
