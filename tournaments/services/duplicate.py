"""A duplicate competition's Django side (docs/duplicate.md): its boards, its tables' boards, the
board results of its tables and its ranking.

- `prepare(competition, entries)` when it starts: a bot pair for an odd count (if the organiser
  chose one), the movement checked against the pairs (another that fits is taken, and said, when
  the chosen one does not), and the board set made from the recorded seed (or the imported set
  checked to be long enough);
- `boards_for(competition, pairing)`: the boards a table plays, as gameplay's board match takes them;
- `table_results(competition)`: every board finished at every table, as the scoring's TableResult;
- `ranking(competition)` and `standing_values(competition)`: the pairs ranked by the scoring
  method, stored as standings (`points` is the percentage, or cross-points per board).

The engine reaches the pure board code only through gameplay/api.py (`engine_game`, `engine_games`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.utils.translation import gettext as _

from gameplay import api as gameplay
from tournaments.duplicate import (
    BOT_PAIR, BoardSet, DuplicateError, TableResult, board_set_from_json, fitting, make_board_set, make_movement,
    rank_pairs, rating_games, score_event,
)
from tournaments.duplicate.movements import Movement
from tournaments.formats.duplicate import board_group
from tournaments.models import Competition, Entry, Pairing

SEED_LIMIT = 2**62
FIELDS = ["rank", "position", "played", "won", "drawn", "lost", "points", "games_for", "games_against", "tiebreaks"]


def nothing_fits() -> str:
    return _("No movement fits %(n)s pairs: a Howell takes 4 to 16 pairs and a Mitchell 6 to 60; with an odd "
             "number, choose a bot pair (three pairs fit only so).")


class DuplicateSetupError(Exception):
    """A duplicate that cannot start as set up; `message` says why in the reader's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def new_seed() -> int:
    return random.SystemRandom().randrange(SEED_LIMIT)


def seed_used_in_club(club_id: int, seed: int, exclude: int | None = None) -> bool:
    """Whether another competition of the club already played (or will play) boards of this seed."""
    found = Competition.objects.filter(club_id=club_id, format=Competition.Format.DUPLICATE, boards_seed=seed)
    if exclude is not None:
        found = found.exclude(pk=exclude)
    return found.exists()


def board_set_of(competition: Competition) -> BoardSet | None:
    """The competition's boards (None before they are made)."""
    if not competition.board_set:
        return None
    return board_set_from_json(competition.board_set, gameplay.engine_games())


def read_board_set(data, game: str, options: dict) -> BoardSet:
    """An imported board set, checked by the engine under the competition's rules (the deals are
    what count): DuplicateError, the board and card named, if a deal is bad or the set is for
    another game."""
    if isinstance(data, dict) and isinstance(data.get("game"), str) and data["game"] != game:
        raise DuplicateError(f"these boards are for {data['game']}, not {game}")
    if isinstance(data, dict):
        data = {**data, "options": options}
    return board_set_from_json(data, gameplay.engine_games())


def movements_that_fit(competition: Competition) -> tuple[int, list]:
    """The confirmed pairs of a duplicate not yet started, and the movements that fit them (each a
    tournaments.duplicate.Fit), the odd count handled as the organiser chose."""
    pairs = Entry.objects.filter(competition=competition, status=Entry.Status.CONFIRMED).count()
    return pairs, (fitting(pairs, competition.odd_pairs) if pairs >= 2 else [])


def movement_of(competition: Competition, pairs: int | None = None) -> Movement:
    """The competition's movement for its seeded field (a bot pair included)."""
    if pairs is None:
        pairs = Entry.objects.filter(competition=competition, seed__isnull=False).count()
    return make_movement(competition.movement, pairs, competition.boards_per_round)


def prepare(competition: Competition, entries: list[Entry]) -> tuple[list[Entry], str]:
    """Before seeding: the entries to seed (a bot pair added for an odd count if so chosen) and a
    note for the audit when another movement than the chosen one had to be taken; saves the board
    set and the movement on the competition. DuplicateSetupError when nothing fits."""
    entries = list(entries)
    if len(entries) % 2 and competition.odd_pairs == BOT_PAIR:
        entries.append(Entry.objects.create(competition=competition, name=_("Bot pair"), bot=competition.substitute_bot,
                                            status=Entry.Status.CONFIRMED, evens_the_count=True))
    note = ""
    try:
        plan = make_movement(competition.movement, len(entries), competition.boards_per_round)
    except DuplicateError as error:
        fits = fitting(len(entries))
        if not fits:
            raise DuplicateSetupError(nothing_fits() % {"n": len(entries)}) from None
        note = str(error)
        competition.movement = fits[0].kind
        plan = make_movement(competition.movement, len(entries), competition.boards_per_round)
    if competition.board_set:
        boards = board_set_of(competition)
        if len(boards.boards) < plan.board_count:
            raise DuplicateSetupError(_("The imported board set has %(have)s boards; this movement needs %(need)s.")
                                      % {"have": len(boards.boards), "need": plan.board_count})
    else:
        if competition.boards_seed is None:
            competition.boards_seed = new_seed()
        boards = make_board_set(gameplay.engine_game(competition.game), competition.boards_seed, plan.board_count,
                                competition.options)
        competition.board_set = boards.to_json()
    competition.save(update_fields=["movement", "boards_seed", "board_set"])
    return entries, note


def boards_for(competition: Competition, pairing: Pairing, boards: BoardSet | None = None) -> list[dict]:
    """The boards of the pairing's group, as gameplay's board match takes them."""
    boards = boards or board_set_of(competition)
    group = board_group(pairing.label)
    per_round = competition.boards_per_round
    numbers = range((group - 1) * per_round + 1, group * per_round + 1)
    return [boards.board(number).to_json() for number in numbers]


@dataclass(frozen=True)
class Table:
    """One table of a round as the pages and the scoring see it."""

    pairing_id: int
    round: int
    table: int
    ns: int            # entry ids
    ew: int
    match_id: int | None
    boards: tuple[int, ...]


def tables_of(competition: Competition) -> list[Table]:
    rows = (Pairing.objects.filter(competition=competition, away__isnull=False)
            .order_by("round_number", "slot")
            .values_list("pk", "round_number", "slot", "home_id", "away_id", "match_id", "label"))
    per_round = competition.boards_per_round
    tables = []
    for pk, number, slot, home, away, match_id, label in rows:
        group = board_group(label)
        tables.append(Table(pk, number, slot, home, away, match_id,
                            tuple(range((group - 1) * per_round + 1, group * per_round + 1))))
    return tables


def table_results(competition: Competition, tables: list[Table] | None = None) -> list[tuple[Table, TableResult]]:
    """Every board finished at every table (one replay per table still in play)."""
    tables = tables_of(competition) if tables is None else tables
    by_match = gameplay.board_results_of([t.match_id for t in tables if t.match_id is not None])
    found = []
    for table in tables:
        for board in by_match.get(table.match_id, []):
            found.append((table, TableResult(board.board, table.ns, table.ew, board.points[0], board.points[1])))
    return found


def unranked_entries(competition: Competition) -> set[int]:
    """The bot pair that evens an odd count: it plays every round but is not ranked."""
    return set(Entry.objects.filter(competition=competition, evens_the_count=True).values_list("pk", flat=True))


def expected_tables(competition: Competition) -> int | None:
    """How many tables play each board (Neuberg's N), from the movement."""
    try:
        return movement_of(competition).plays_per_board
    except DuplicateError:
        return None


def ranking(competition: Competition, results: list[TableResult] | None = None):
    """The pairs ranked (bot pairs left out), as tournaments.duplicate.PairStanding rows whose
    `pair` is the entry id."""
    if results is None:
        results = [result for _table, result in table_results(competition)]
    if not results:
        return []
    expected = expected_tables(competition)
    most = max(sum(1 for r in results if r.board == b) for b in {r.board for r in results})
    return rank_pairs(results, competition.scoring, max(expected or most, most), exclude=unranked_entries(competition))


def standing_values(competition: Competition) -> list[tuple[int, dict]]:
    """The ranking as standings rows (services.ranking writes what changed): `points` the
    percentage (matchpoints) or cross-points per board, `played` the boards, `games_for` the
    matchpoints rounded."""
    values = []
    for position, row in enumerate(ranking(competition), start=1):
        shown = row.percent if row.percent is not None else row.average
        values.append((row.pair, {"rank": row.rank, "position": position, "played": row.boards, "won": 0, "drawn": 0,
                                  "lost": 0, "points": round(float(shown), 2),
                                  "games_for": int(round(row.score)) if row.score > 0 else 0,
                                  "games_against": 0, "tiebreaks": []}))
    return values


# ----- ratings: each board a game between the two pairs at the table (docs/duplicate.md) -------

@dataclass(frozen=True)
class RatedTableBoard:
    """A board at a table as a rated game: the table's match, the board, and the N/S pair's score
    (1 it did better against the field than the E/W pair, 1/2 as well, 0 worse)."""

    match_id: int
    board: int
    ns_score: float


@dataclass(frozen=True)
class RatingEvent:
    """A duplicate's boards as rated games, once its field is complete: `at` is the finish time and
    id of the table that finished last, the moment each board's outcome against the field became
    final (the rating order, docs/ratings.md); `games` in table order, then board order."""

    competition_id: int
    game: str
    at: tuple
    games: tuple[RatedTableBoard, ...]


def duplicate_of_match(match_id: int) -> Competition | None:
    """The duplicate competition whose table this match is, if it is one."""
    pairing = (Pairing.objects.filter(match_id=match_id, competition__format=Competition.Format.DUPLICATE)
               .select_related("competition").first())
    return None if pairing is None else pairing.competition


def rating_event(competition: Competition) -> tuple[RatingEvent | None, str]:
    """The competition's boards as rated games, or (None, why not yet): every table of its movement
    must be over (finished or abandoned), since a board's winner is decided against the field. A
    table that did not finish (abandoned) still counts in the field; its own boards are not rated,
    and the tables' seats (bots, empty seats) are judged by the ratings' policy, not here."""
    tables = tables_of(competition)
    try:
        plan = movement_of(competition)
    except DuplicateError:
        return None, "no movement"
    expected = sum(len(plan.played(number)) for number in range(1, len(plan.rounds) + 1))
    if len(tables) < expected or any(t.match_id is None for t in tables):
        return None, "waiting for the other tables"
    results = gameplay.results_of([t.match_id for t in tables])
    if len(results) < len(tables) or not all(r.is_finished for r in results.values()):
        return None, "waiting for the other tables"
    ended = [(r.finished_at, r.match_id) for r in results.values() if r.finished_at is not None]
    if not ended:
        return None, "no table finished"
    found = table_results(competition, tables)
    if not found:
        return None, "no board played"
    finished = {t.match_id for t in tables if results[t.match_id].status == gameplay.Status.FINISHED}
    by_pairs = {(t.ns, t.ew, result.board): t.match_id for t, result in found}
    most = max(sum(1 for _t, r in found if r.board == b) for b in {r.board for _t, r in found})
    scores = score_event([result for _t, result in found], competition.scoring, max(plan.plays_per_board, most))
    games = []
    for board_scores in scores.values():
        for game in rating_games(board_scores, exclude=unranked_entries(competition)):
            match_id = by_pairs[(game.ns_pair, game.ew_pair, game.board)]
            if match_id in finished:
                games.append(RatedTableBoard(match_id, game.board, float(game.ns_score)))
    order = {t.match_id: index for index, t in enumerate(tables)}
    games.sort(key=lambda g: (order[g.match_id], g.board))
    return RatingEvent(competition.pk, competition.game, max(ended), tuple(games)), ""
