"""Gameplay as the other apps see it: the only gameplay module `tournaments` and `clubs` import
(tests/foundation/test_app_seams.py holds them to it).

- write: `create_match`, `start_match`, `abort_match` (gameplay.services does the work), and
  `seat_bot_for_absent`: a bot in an absent player's seat at an open table (gameplay.presence);
  `bot_level` reads a stored bot level (a competition's substitute) as a valid one;
- read: `result_of` / `results_of` give a `MatchResult`, the one value a competition learns a
  match's outcome from; `matches_with_status` is a subquery for filtering by a match's status;
  the club and player pages list matches through `gameplay.listings`; ratings read finished
  matches as plain rows through `gameplay.records`;
- a player's home (home/): their unfinished tables (their turn first) and their table
  invitations at once (`home_tables_of`), `table_invitations_of` alone, and the answers `take_invited_seat` / `decline_invited_seat`,
  `seated_users`, and `send_to_group` (a channel-layer send from synchronous code);
- the names others need to speak about matches: `Game` (and `game_label`, a game's name in the
  active language), `Status`, `Finish`, `SeatSpec`, the `match_finished`, `match_started`,
  `seat_invited` and `seat_invitation_closed` signals, and the new-table form a competition's
  rules form builds on.
- a duplicate competition's tables (docs/duplicate.md): `create_match(..., boards=[...])` makes a
  table that plays each board as one deal; `engine_game` / `engine_games` hand the rules engine's
  `Game` and registry to the pure board-set code (tournaments/duplicate/boards.py);
  `board_results_of` gives each board's points per side, finished or still in play;
  `ScenarioError` is a malformed board; `card_faces` a hand record's cards as pages show them;
  `publish_matches` opens a duplicate's tables to watchers once every board is over.
- Play now (gameplay/play_now.py): `use_ratings(source)`, how a player's rating is read, which
  the ratings app registers at start-up (gameplay imports nothing of it).
A competition refers to a match only by its id (a foreign key named by string, "gameplay.Match").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gameplay import log, presence, services
from gameplay.bot_levels import valid_level
from tuning.broadcast import group_send
from gameplay.forms import CLOCK_CHOICES, KeyedNumbersField, NewTableForm
# The words of the rules (labels of presets, options and their values, what each option does) for pages
# that describe them; `options_chosen` lists a game's options as its form offers them.
from gameplay.forms import (CHOICE_LABELS, KEY_LABELS, OPTION_LABELS, OPTION_PREFIX, PRESET_HELP, PRESET_LABELS,
                            humanise, option_help, options_chosen)
from gameplay.listings import (TableInvitation, TableRow, finished_matches_of_player, home_tables_of,
                               recent_results_of, table_invitations_of, upcoming_tables_of)
from gameplay.models import Game, Match, Seat, game_label
from gameplay.rules import GAMES as ENGINE_GAMES
from gameplay.rules import ScenarioError, get_game
from gameplay.records import FIELDS as RECORD_FIELDS, finished_matches, finished_records, record_of, records_in
from gameplay.services import ActionRejected, SeatSpec
from gameplay.signals import match_finished, match_started, seat_invitation_closed, seat_invited
from gameplay.play_now import use_ratings  # the ratings app tells Play now how to read a rating

MATCH_MODEL = "gameplay.Match"  # for other apps' foreign keys
Status = Match.Status
Finish = Match.Finish
LeaverPolicy = Match.LeaverPolicy  # what a competition chooses for a seat whose player leaves

__all__ = [
    "ActionRejected", "CLOCK_CHOICES", "Finish", "bot_level", "seat_bot_for_absent", "Game", "KeyedNumbersField",
    "LeaverPolicy", "MATCH_MODEL", "MatchResult", "NewTableForm", "RECORD_FIELDS",
    "SeatSpec", "Status", "abort_match", "create_match", "finished_matches_of_player",
    "finished_records", "match_finished", "match_signal_sender", "matches_with_status",
    "finished_matches", "record_of", "records_in", "recent_results_of", "result_of", "results_of", "start_match",
    "upcoming_tables_of", "CHOICE_LABELS", "KEY_LABELS", "OPTION_LABELS", "OPTION_PREFIX", "PRESET_HELP", "PRESET_LABELS",
    "humanise", "option_help", "options_chosen",
    "TableInvitation", "TableRow", "table_invitations_of", "home_tables_of",
    "take_invited_seat", "decline_invited_seat", "TableAnswerRefused", "seated_users", "send_to_group", "match_started",
    "seat_invited", "seat_invitation_closed", "game_label",
    "BoardResult", "ScenarioError", "board_results_of", "engine_game", "engine_games", "CardFace", "card_faces",
    "publish_matches", "deal_words", "use_ratings",
]


@dataclass(frozen=True)
class MatchResult:
    """Where a match stands: its status, and once it has ended who won, by how many games, when
    and how (`finish`: played, timeout, walkover, aborted; `reason` why an aborted one was)."""

    match_id: int
    status: str
    winner: int | None  # team 0 (seats 0 and 2) or team 1 (seats 1 and 3)
    games_won: tuple[int, int]
    finished_at: datetime | None
    finish: str
    reason: str
    rated: bool = False  # counts for the ratings (a bot seated for an absent player makes it unrated)
    is_public: bool = True  # anyone may watch it (a duplicate's tables open once every board is done)

    @property
    def is_waiting(self) -> bool:
        return self.status == Status.WAITING

    @property
    def is_live(self) -> bool:
        """Waiting for its start or being played: it can still be aborted."""
        return self.status in (Status.WAITING, Status.PLAYING)

    @property
    def is_finished(self) -> bool:
        """Over, either way: finished or aborted."""
        return self.status in (Status.FINISHED, Status.ABORTED)

    @property
    def is_decided(self) -> bool:
        """Finished with a winner (an aborted match decides nothing)."""
        return self.status == Status.FINISHED and self.winner is not None

    @property
    def is_walkover(self) -> bool:
        return self.finish == Finish.WALKOVER


RESULT_FIELDS = ("pk", "status", "winner", "games_won", "finished_at", "finish", "result", "rated", "is_public")


def _result(row: tuple) -> MatchResult:
    pk, status, winner, games_won, finished_at, finish, result, rated, is_public = row
    games = (list(games_won or []) + [0, 0])[:2]
    return MatchResult(pk, status, winner, (games[0], games[1]), finished_at, finish,
                       (result or {}).get("reason", ""), rated, is_public)


def results_of(match_ids) -> dict[int, MatchResult]:
    """The results of these matches (one query); a missing id is left out."""
    ids = [i for i in match_ids if i is not None]
    if not ids:
        return {}
    rows = Match.objects.filter(pk__in=ids).values_list(*RESULT_FIELDS)
    return {row[0]: _result(row) for row in rows}


def result_of(match_id: int | None) -> MatchResult | None:
    return results_of([match_id]).get(match_id) if match_id is not None else None


def matches_with_status(*statuses: str):
    """A subquery of the ids of matches in these statuses (`pairing.filter(match_id__in=...)`)."""
    return Match.objects.filter(status__in=statuses).values("pk")


def create_match(game: str, options: dict | None, seats: list[SeatSpec], **settings) -> int:
    """A new table (gameplay.services.create_match's keywords); its id."""
    return services.create_match(game, options, seats, **settings).pk


def start_match(match_id: int) -> bool:
    """Start a waiting table whose seats are filled and whose time has come."""
    return services.start_waiting(match_id)


def abort_match(match_id: int, reason: str = "") -> None:
    """End a match that has not finished, deciding nothing (a no-show, a removed pair...)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is not None:
        services.abort_match(match, reason)


def seat_bot_for_absent(match_id: int, user_id: int, actor) -> str:
    """A bot at the table's substitute level in the seat of `user_id` (absent) at a table already
    created, waiting or playing; the match becomes unrated. The bot's level; ActionRejected
    (code "finished" or "forbidden") when the match is over or the seat is not that player's."""
    return presence.seat_bot_for_absent(match_id, user_id, actor)


def bot_level(value: str) -> str:
    """A stored bot level as one the bots know (the default for anything else)."""
    return valid_level(value)


def match_signal_sender():
    """The sender `match_finished` is sent with (connect receivers with `sender=` this)."""
    return Match


# ----- a player's home ---------------------------------------------------------------------------

class TableAnswerRefused(Exception):
    """A table invitation that can no longer be answered; `code` as the protocol's errors."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def _answer_invitation(match_id: int, user, answer) -> None:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise TableAnswerRefused("not_found")
    try:
        answer(match, user)
    except services.ActionRejected as refused:
        raise TableAnswerRefused(refused.code) from None


def take_invited_seat(match_id: int, user) -> None:
    """The invited friend takes the seat kept for them (the table may start now)."""
    _answer_invitation(match_id, user, lambda match, who: services.take_seat(match, who, invited_only=True))


def decline_invited_seat(match_id: int, user) -> None:
    """The invited friend says no: their seat is free again."""
    _answer_invitation(match_id, user, services.decline_seat)


def seated_users(match_id: int) -> list[int]:
    """The ids of the users who have taken a seat at this match."""
    return list(Seat.objects.filter(match_id=match_id, user__isnull=False, invited=False)
                .values_list("user_id", flat=True))


def send_to_group(group: str, message: dict) -> None:
    """A channel-layer group send from synchronous code (tuning.broadcast's long-lived loop)."""
    group_send(group, message)


# ----- a duplicate competition's tables ----------------------------------------------------------

@dataclass(frozen=True)
class BoardResult:
    """One board finished at one table: the points of team 0 (N/S) and team 1 (E/W) on it, and
    how many deals it took (a redeal takes a spare)."""

    match_id: int
    board: int
    points: tuple[int, int]
    deals: int
    won: tuple = ()                 # (item, team, points) as the deal records name them
    contract: str | None = None


def engine_game(name: str):
    """The rules engine's `Game` (what tournaments/duplicate/boards.py makes boards for)."""
    return get_game(name)


def engine_games() -> dict:
    """The rules engine's registry of games, by name (boards.board_set_from_json checks with it)."""
    return dict(ENGINE_GAMES)


def board_results_of(match_ids) -> dict[int, list[BoardResult]]:
    """Each board a table has finished, in order, by match id: a finished table's from its
    stored result, a table in play or aborted from its log (one replay each). A table that has
    not started, or does not play boards, has none."""
    ids = [i for i in match_ids if i is not None]
    found: dict[int, list[BoardResult]] = {i: [] for i in ids}
    if not ids:
        return found
    for match in Match.objects.filter(pk__in=ids).exclude(boards=[]):
        if match.status == Status.FINISHED:
            boards = (match.result or {}).get("boards") or []
        elif match.status in (Status.PLAYING, Status.ABORTED):
            boards = log.replay(match).board_results
        else:
            continue
        found[match.pk] = [BoardResult(match.pk, b["board"], (b["points"][0], b["points"][1]), b["deals"],
                                       tuple(tuple(item) for item in b.get("won") or ()), b.get("contract"))
                           for b in boards]
    return found


@dataclass(frozen=True)
class CardFace:
    """A card as a page shows it: its face's static path and its name in the active language."""

    code: str
    image: str
    label: str


def card_faces(game: str, codes) -> list[CardFace]:
    """The faces of the engine's card codes of a game (a duplicate's hand record)."""
    from gameplay.labels import rank_labels, suit_labels

    deck = "spanish" if game == Game.CUATROLA else "french"
    suits, ranks = suit_labels()[deck], rank_labels()
    faces = []
    for code in codes:
        rank, suit = code[:-1], code[-1]
        faces.append(CardFace(code, f"cards/{deck}/{code}.svg", f"{ranks.get(rank, rank)} · {suits.get(suit, suit)}"))
    return faces


def publish_matches(match_ids) -> int:
    """Let anyone watch these tables and their replays (a duplicate's, once every board is over)."""
    ids = [i for i in match_ids if i is not None]
    return Match.objects.filter(pk__in=ids, is_public=False).update(is_public=True) if ids else 0


def deal_words(result: BoardResult) -> tuple[str, list[tuple[str, int, int]]]:
    """A board's contract and what each team won on it, in the active language: (contract or "",
    [(item, team, points), ...]) for a traveller."""
    from gameplay.labels import contract_labels, detail_labels

    items, contracts = detail_labels(), contract_labels()
    contract = contracts.get(result.contract, "") if result.contract else ""
    return str(contract), [(str(items.get(item, item)), team, points) for item, team, points in result.won]
