"""What a duplicate's pages read (docs/duplicate.md "Pages"): who may see which board, a board's
traveller and hand record, a pair's scorecard and the live ranking.

Fair play: a board is shown to a player of the competition only once every table of their pair
that plays it has finished it (a board their pair never plays: once every table has); to anyone
else (organisers, spectators) once every table of the movement that plays it has finished it. A
traveller lists only tables that have finished the board, and a scorecard only boards the
reader may see. Everything is read in a fixed number of queries plus one replay per table still
in play (gameplay.api.board_results_of).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from gameplay import api as gameplay
from tournaments.duplicate import DuplicateError, score_board
from tournaments.duplicate.movements import Movement
from tournaments.formats.duplicate import board_group
from tournaments.models import Competition, Entry, EntryPlayer, Pairing
from tournaments.services import duplicate

OVER = (Competition.Status.FINISHED, Competition.Status.CANCELLED)


@dataclass
class Played:
    """One table of one round, and the boards it has finished (board -> (N/S points, E/W points))."""

    pairing: Pairing
    boards: tuple[int, ...]
    finished: dict[int, tuple[int, int]] = field(default_factory=dict)
    details: dict = field(default_factory=dict)   # board -> gameplay.api.BoardResult

    @property
    def decided(self) -> bool:
        return self.pairing.decided_at is not None

    def done(self, board: int) -> bool:
        """Finished here, or never to be played here (a table decided without it: a walkover)."""
        return board in self.finished or self.decided


@dataclass
class Event:
    """A duplicate as its pages read it."""

    competition: Competition
    movement: Movement | None
    entries: dict[int, Entry]
    numbers: dict[int, int]            # entry id -> pair number
    tables: list[Played]
    board_count: int

    def tables_playing(self, board: int) -> list[Played]:
        return [t for t in self.tables if board in t.boards]

    def rounds_playing(self, board: int) -> int:
        """How many seatings of the movement play the board (the tables it is made for)."""
        if self.movement is None:
            return len(self.tables_playing(board))
        group = self.movement.group_of(board)
        return sum(1 for r in self.movement.rounds for s in r if s.is_played and s.board_group == group)

    def done_everywhere(self, board: int) -> bool:
        if self.competition.status in OVER:
            return True
        tables = self.tables_playing(board)
        return len(tables) >= self.rounds_playing(board) and all(t.done(board) for t in tables)

    def pair_plays(self, entry_id: int, board: int) -> bool:
        """Whether the movement seats this pair at a table playing the board (any round)."""
        number = self.numbers.get(entry_id)
        if self.movement is None or number is None:
            return False
        group = self.movement.group_of(board)
        return any(s.is_played and s.board_group == group and number in (s.ns_pair, s.ew_pair)
                   for r in self.movement.rounds for s in r)

    def visible_to(self, entry_id: int | None, board: int) -> bool:
        """Whether the reader (the player of `entry_id`, or None: anyone else) may see the board."""
        if not 1 <= board <= self.board_count:
            return False
        if self.competition.status in OVER:
            return True
        if entry_id is not None and self.pair_plays(entry_id, board):
            own = [t for t in self.tables_playing(board) if entry_id in (t.pairing.home_id, t.pairing.away_id)]
            return bool(own) and all(t.done(board) for t in own)
        return self.done_everywhere(board)

    def name(self, entry_id: int | None) -> str:
        entry = self.entries.get(entry_id)
        return entry.name if entry is not None else ""


def load(competition: Competition) -> Event:
    """The competition's tables with each board they have finished (a fixed number of queries)."""
    entries = Entry.objects.filter(competition=competition).in_bulk()
    seeded = sorted((e for e in entries.values() if e.seed is not None), key=lambda e: (e.seed, e.pk))
    numbers = {entry.pk: number for number, entry in enumerate(seeded, start=1)}
    try:
        movement = duplicate.movement_of(competition, len(seeded)) if seeded else None
    except DuplicateError:
        movement = None
    per_round = competition.boards_per_round
    pairings = list(Pairing.objects.filter(competition=competition, away__isnull=False)
                    .order_by("round_number", "slot"))
    results = gameplay.board_results_of([p.match_id for p in pairings if p.match_id])
    tables = []
    for pairing in pairings:
        group = board_group(pairing.label)
        played = Played(pairing, tuple(range((group - 1) * per_round + 1, group * per_round + 1)))
        for result in results.get(pairing.match_id, []):
            played.finished[result.board] = result.points
            played.details[result.board] = result
        tables.append(played)
    count = len((competition.board_set or {}).get("boards") or [])
    if movement is not None:
        count = min(count, movement.board_count) if count else movement.board_count
    return Event(competition, movement, entries, numbers, tables, count)


def reader_entry(user, competition: Competition) -> int | None:
    """The reader's pair in the competition (None: not a player in it)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (EntryPlayer.objects.filter(competition=competition, user=user)
            .values_list("entry_id", flat=True).first())


# ----- a board -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TravellerRow:
    round: int
    table: int
    ns: str
    ew: str
    ns_pair: int
    ew_pair: int
    ns_points: int
    ew_points: int
    ns_score: Fraction
    ew_score: Fraction
    ns_percent: Fraction | None
    ew_percent: Fraction | None
    match_id: int | None
    contract: str = ""
    won: tuple = ()          # (what, "NS" or "EW", points)


@dataclass(frozen=True)
class Hand:
    seat: int
    direction: str          # "NS" or "EW"
    cards: list


def expected(event: Event, board: int, played: int) -> int:
    return max(event.rounds_playing(board), played)


def traveller(event: Event, board: int) -> list[TravellerRow]:
    """Every table that has finished the board: its pairs, points and score against the field."""
    from tournaments.duplicate import TableResult

    finished = [t for t in event.tables_playing(board) if board in t.finished]
    if not finished:
        return []
    results = [TableResult(board, t.pairing.home_id, t.pairing.away_id, *t.finished[board]) for t in finished]
    scores = score_board(results, event.competition.scoring, expected(event, board, len(results)))
    rows = []
    for table, score in zip(finished, scores):
        p = table.pairing
        rows.append(TravellerRow(p.round_number, p.slot, event.name(p.home_id), event.name(p.away_id),
                                 event.numbers.get(p.home_id, 0), event.numbers.get(p.away_id, 0),
                                 score.result.ns_points, score.result.ew_points, score.ns, score.ew,
                                 score.ns_percent, score.ew_percent, p.match_id, *what_was_won(table, board)))
    return rows


def what_was_won(table: Played, board: int) -> tuple[str, tuple]:
    result = table.details.get(board)
    if result is None:
        return "", ()
    contract, won = gameplay.deal_words(result)
    return contract, tuple((what, "NS" if team == 0 else "EW", points) for what, team, points in won)


def hand_record(competition: Competition, board: int) -> tuple[int, list[Hand], list]:
    """The board's dealer, the four hands as dealt (after the deal's first step) and the stock
    the rest of the deal comes from, top first."""
    board_set = duplicate.board_set_of(competition)
    dealt = board_set.board(board)
    hands = [Hand(seat, "NS" if seat % 2 == 0 else "EW", gameplay.card_faces(competition.game, cards))
             for seat, cards in enumerate(dealt.deal["hands"])]
    return dealt.dealer, hands, gameplay.card_faces(competition.game, dealt.deal.get("stock") or [])


# ----- a pair --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScorecardRow:
    board: int
    round: int
    table: int
    direction: str
    opponents: str
    mine: int
    theirs: int
    score: Fraction
    percent: Fraction | None


def scorecard(event: Event, entry_id: int, reader: int | None) -> list[ScorecardRow]:
    """Every board the pair has finished that the reader may see, with its score against the field."""
    rows = []
    for table in event.tables:
        p = table.pairing
        if entry_id not in (p.home_id, p.away_id):
            continue
        for board in table.boards:
            if board not in table.finished or not event.visible_to(reader, board):
                continue
            line = {r.table: r for r in traveller(event, board) if r.round == p.round_number}.get(p.slot)
            if line is None:
                continue
            ns = entry_id == p.home_id
            rows.append(ScorecardRow(board, p.round_number, p.slot, "NS" if ns else "EW",
                                     line.ew if ns else line.ns,
                                     line.ns_points if ns else line.ew_points, line.ew_points if ns else line.ns_points,
                                     line.ns_score if ns else line.ew_score, line.ns_percent if ns else line.ew_percent))
    return sorted(rows, key=lambda r: r.board)


# ----- the ranking ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class RankingRow:
    rank: int
    entry_id: int
    name: str
    number: int
    boards: int
    score: Fraction
    percent: Fraction | None
    average: Fraction
    field: str = ""  # a Mitchell's "NS" or "EW": the pairs it is ranked among


NORTH_SOUTH, EAST_WEST = "NS", "EW"


def ranking(event: Event) -> list[RankingRow]:
    """The pairs ranked on every board finished so far (live; the bot pair of an odd count left out)."""
    from tournaments.duplicate import TableResult, rank_pairs

    results = [TableResult(b, t.pairing.home_id, t.pairing.away_id, *points)
               for t in event.tables for b, points in t.finished.items()]
    if not results:
        return []
    most = max(sum(1 for r in results if r.board == b) for b in {r.board for r in results})
    plays = event.movement.plays_per_board if event.movement is not None else most
    skip = {pk for pk, entry in event.entries.items() if entry.evens_the_count}
    rows = rank_pairs(results, event.competition.scoring, max(plays, most), exclude=skip)
    two_fields = event.movement is not None and event.movement.kind == "mitchell"
    ranked = [RankingRow(r.rank, r.pair, event.name(r.pair), event.numbers.get(r.pair, 0), r.boards, r.score,
                         r.percent, r.average, r.directions[0] if two_fields and len(r.directions) == 1 else "")
              for r in rows]
    return _ranked_within_fields(ranked) if two_fields else ranked


def _ranked_within_fields(rows: list[RankingRow]) -> list[RankingRow]:
    """A Mitchell has two fields: a pair's result on a board is compared only with the pairs that
    sat its way (N-S with N-S), so each field has its own ranking and its own winner. Ties keep
    sharing a rank; the order within a field is the overall one."""
    ranked = []
    for direction in (NORTH_SOUTH, EAST_WEST, ""):
        field_rows = [row for row in rows if row.field == direction]
        for position, row in enumerate(field_rows):
            tied = position and (field_rows[position - 1].percent, field_rows[position - 1].score) == (row.percent, row.score)
            rank = ranked[-1].rank if tied else position + 1
            ranked.append(RankingRow(rank, row.entry_id, row.name, row.number, row.boards, row.score, row.percent,
                                     row.average, row.field))
    return ranked


def ranking_fields(rows: list[RankingRow]) -> list[tuple[str, list[RankingRow]]]:
    """The ranking as the page shows it: one table, or a Mitchell's North-South and East-West."""
    fields = [(direction, [row for row in rows if row.field == direction])
              for direction in (NORTH_SOUTH, EAST_WEST, "")]
    return [(direction, field_rows) for direction, field_rows in fields if field_rows]


def replays_open_to(user, competition: Competition, event: Event, reader: int | None) -> set[int]:
    """The tables whose replay the reader may open from a board page: all of them once the
    competition is over (public then, if it is), else the reader's own tables and, for the
    organiser who made them, every table; a table shows every board it played, so only one whose
    boards the reader may all see."""
    ids = set()
    for table in event.tables:
        match_id = table.pairing.match_id
        if match_id is None or not all(event.visible_to(reader, b) for b in table.boards):
            continue
        own = reader in (table.pairing.home_id, table.pairing.away_id)
        maker = getattr(user, "is_authenticated", False) and competition.created_by_id == user.pk
        if competition.status in OVER and competition.is_public or own or maker:
            ids.add(match_id)
    return ids


def can_export(competition: Competition) -> bool:
    """The board set is published (downloadable) once the competition is over."""
    return competition.status in OVER and bool(competition.board_set)


@dataclass(frozen=True)
class FitLine:
    """A movement that fits the pairs entered so far, as the competition page says it."""

    movement: str          # the movement's name in the reader's language
    chosen: bool
    tables: int
    rounds: int
    boards: int


def what_fits(competition: Competition) -> tuple[int, list[FitLine]]:
    """The confirmed pairs of an open duplicate and the movements that fit them (with the odd
    count as the organiser chose to handle it)."""
    pairs, fits = duplicate.movements_that_fit(competition)
    labels = dict(Competition.Movement.choices)
    return pairs, [FitLine(str(labels[f.kind]), f.kind == competition.movement, f.tables, f.rounds,
                           f.board_groups * competition.boards_per_round)
                   for f in fits]
