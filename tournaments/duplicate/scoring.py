"""Scoring a duplicate: each result compared with the same board in the same seats (docs/duplicate.md).

A table's result on a board is the points each side scored on it (``board_points`` reads them
from the engine's deal records). A side's *net* is its points minus the other side's; an N/S net
is compared with every other N/S net on the board, an E/W net with every other E/W net.

- **Matchpoints** (the default): 2 for each result beaten, 1 for each tie. With ``n`` results
  on a board the top is ``2(n - 1)``, and a table's N/S and E/W matchpoints add up to the top.
- **Neuberg's formula**: a board played by ``n`` tables where the event expects ``N`` (the most
  any board is played) is factored to ``(MP + 1) * N / n - 1``, so its top is ``2(N - 1)`` like
  every other board and its average stays half the top.
- **Cross-points** (the organiser's alternative): a side's net minus each other table's net in the
  same seats, summed and divided by the number of those tables: how many points better than the
  field's average. A board played by fewer tables needs no factor (it is already an average).

Values are exact ``Fraction``s; percentages are out of 100. Pure Python, no Django.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from .errors import ScoringError

MATCHPOINTS, CROSS_POINTS = "matchpoints", "cross_points"
METHODS = (MATCHPOINTS, CROSS_POINTS)
NS, EW = "NS", "EW"  # N/S is the engine's team 0 (seats 0 and 2), E/W team 1 (seats 1 and 3)
HALF = Fraction(1, 2)


@dataclass(frozen=True)
class TableResult:
    """One table's result on one board: the pairs in each direction and the points each scored."""
    board: int
    ns_pair: int
    ew_pair: int
    ns_points: int
    ew_points: int

    @property
    def ns_net(self) -> int:
        return self.ns_points - self.ew_points


@dataclass(frozen=True)
class BoardScore:
    """A table's result scored against the field: matchpoints (factored) or cross-points."""
    result: TableResult
    ns: Fraction
    ew: Fraction
    top: int | None          # the board's top in matchpoints, 2 * (expected - 1); None for cross-points
    tables: int              # how many tables played the board
    expected: int            # how many the event expects (Neuberg's N)

    @property
    def factored(self) -> bool:
        return self.top is not None and self.tables != self.expected

    @property
    def ns_percent(self) -> Fraction | None:
        return None if self.top is None else percent(self.ns, self.top)

    @property
    def ew_percent(self) -> Fraction | None:
        return None if self.top is None else percent(self.ew, self.top)


@dataclass(frozen=True)
class PairStanding:
    rank: int
    pair: int
    boards: int
    score: Fraction               # total matchpoints, or total cross-points
    top: int | None               # the most the pair could have scored (matchpoints only)
    percent: Fraction | None      # score as a percentage of top (matchpoints only)
    average: Fraction             # score per board played
    directions: tuple[str, ...]   # the directions the pair sat: ("NS",), ("EW",) or both


@dataclass(frozen=True)
class RatedBoard:
    """A board as a rated game between the two pairs at the table (docs/duplicate.md, "Ratings")."""
    board: int
    ns_pair: int
    ew_pair: int
    ns_score: Fraction  # 1 the N/S pair did better than the E/W pair against the field, 1/2 as well, 0 worse


def matchpoints(nets: Sequence[int]) -> list[int]:
    """Each net's matchpoints among ``nets``: 2 for each other net beaten, 1 for each tie."""
    return [sum(2 if mine > other else 1 if mine == other else 0 for other in nets) - 1 for mine in nets]


def neuberg(points: Fraction | int, tables: int, expected: int) -> Fraction:
    """Matchpoints on a board played by ``tables`` tables, factored to ``expected`` tables."""
    return (Fraction(points) + 1) * Fraction(expected, tables) - 1


def cross_points(nets: Sequence[int]) -> list[Fraction]:
    """Each net minus every other net, summed and divided by the number of others (0 if alone)."""
    others = len(nets) - 1
    total = sum(nets)
    return [Fraction(len(nets) * mine - total, others) if others else Fraction(0) for mine in nets]


def percent(points: Fraction | int, top: int) -> Fraction:
    """Points as a percentage of the top; a top of 0 (a board alone in its field) is an average."""
    return Fraction(50) if top == 0 else Fraction(points) * 100 / top


def score_board(results: Sequence[TableResult], method: str = MATCHPOINTS,
                expected: int | None = None) -> list[BoardScore]:
    """Every table's result on one board scored against the others, in the order given."""
    _check_method(method)
    if not results:
        return []
    _check_board(results)
    tables = len(results)
    expected = tables if expected is None else expected
    if type(expected) is not int or expected < tables:
        raise ScoringError(f"board {results[0].board} was played by {tables} tables; "
                           f"the expected count {expected!r} cannot be fewer")
    nets = [r.ns_net for r in results]
    if method == CROSS_POINTS:
        return [BoardScore(r, c, -c, None, tables, expected) for r, c in zip(results, cross_points(nets))]
    top = 2 * (expected - 1)
    return [BoardScore(r, neuberg(ns, tables, expected), neuberg(2 * (tables - 1) - ns, tables, expected),
                       top, tables, expected) for r, ns in zip(results, matchpoints(nets))]


def score_event(results: Iterable[TableResult], method: str = MATCHPOINTS,
                expected: int | None = None) -> dict[int, list[BoardScore]]:
    """Every board's scores, by board number. ``expected`` defaults to the most tables any
    board was played by (a movement's ``plays_per_board`` is the count to give while it runs)."""
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for result in results:
        by_board[result.board].append(result)
    if expected is None:
        expected = max((len(r) for r in by_board.values()), default=0)
    return {board: score_board(rs, method, expected) for board, rs in sorted(by_board.items())}


def rank_pairs(results: Iterable[TableResult], method: str = MATCHPOINTS,
               expected: int | None = None, exclude: Iterable[int] = ()) -> list[PairStanding]:
    """The ranking over all boards: by percentage (matchpoints) or by cross-points per board.

    Equal pairs share a rank; ``exclude`` leaves out pairs that are not ranked (a bot pair)."""
    totals: dict[int, list] = {}
    for scores in score_event(results, method, expected).values():
        for s in scores:
            for pair, points, direction in ((s.result.ns_pair, s.ns, NS), (s.result.ew_pair, s.ew, EW)):
                entry = totals.setdefault(pair, [0, Fraction(0), 0, set()])
                entry[0] += 1
                entry[1] += points
                entry[2] += s.top or 0
                entry[3].add(direction)
    skip = set(exclude)
    rows = [_standing(pair, *entry, method) for pair, entry in totals.items() if pair not in skip]
    key = (lambda row: row.percent) if method == MATCHPOINTS else (lambda row: row.average)
    rows.sort(key=lambda row: (-key(row), row.pair))
    return [_ranked(row, 1 + sum(1 for other in rows if key(other) > key(row))) for row in rows]


def rating_games(scores: Iterable[BoardScore], exclude: Iterable[int] = ()) -> list[RatedBoard]:
    """Each board at each table as a game between its two pairs, won by the pair that did
    better against the field (more matchpoints, or positive cross-points), drawn when equal."""
    skip = set(exclude)
    games = []
    for s in scores:
        if s.result.ns_pair in skip or s.result.ew_pair in skip:
            continue
        ns_score = Fraction(1) if s.ns > s.ew else HALF if s.ns == s.ew else Fraction(0)
        games.append(RatedBoard(s.result.board, s.result.ns_pair, s.result.ew_pair, ns_score))
    return games


def board_points(deal_records: Sequence[dict], exhausted: bool = False) -> tuple[int, int] | None:
    """A board's points for N/S (team 0) and E/W (team 1) from the engine's deal records.

    A board is its first deal that is not redone: every record up to and including that one
    counts (an All Fours pack that ran out keeps its kick points; a Baloot deal everyone passed
    scores nothing). None while no such deal has been scored; with ``exhausted`` (the spare deals
    are used up and the engine waits for another) the points so far."""
    total = [0, 0]
    for record in deal_records:
        total = [total[0] + record["delta"][0], total[1] + record["delta"][1]]
        if not is_redeal(record):
            return total[0], total[1]
    return (total[0], total[1]) if exhausted else None


def is_redeal(record: dict) -> bool:
    """Whether a deal record is a deal the rules redo (All Fours R9.6, Baloot R4.5 / S4)."""
    detail = record.get("detail") or {}
    return detail.get("redeal") is True or detail.get("result") == "annulled"


def _check_method(method: str) -> None:
    if method not in METHODS:
        raise ScoringError(f"unknown scoring method {method!r}; the methods are {', '.join(METHODS)}")


def _check_board(results: Sequence[TableResult]) -> None:
    board = results[0].board
    seen: set[int] = set()
    for r in results:
        if r.board != board:
            raise ScoringError(f"results of boards {board} and {r.board} cannot be scored as one board")
        if any(type(v) is not int for v in (r.ns_points, r.ew_points)):
            raise ScoringError(f"board {board}: points must be whole numbers; got {r.ns_points!r}, {r.ew_points!r}")
        for pair in (r.ns_pair, r.ew_pair):
            if pair in seen:
                raise ScoringError(f"board {board}: pair {pair} has more than one result on it")
            seen.add(pair)


def _standing(pair, boards, score, top, directions, method) -> PairStanding:
    shown_top = top if method == MATCHPOINTS else None
    share = percent(score, top) if method == MATCHPOINTS else None
    return PairStanding(0, pair, boards, score, shown_top, share, score / boards,
                        tuple(d for d in (NS, EW) if d in directions))


def _ranked(row: PairStanding, rank: int) -> PairStanding:
    return PairStanding(rank, row.pair, row.boards, row.score, row.top, row.percent, row.average,
                        row.directions)
