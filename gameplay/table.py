"""A live match as the engine sees it: best of N engine games, derived from spec + action log.

Pure Python (no Django), so the service, the archive, the export and the tests all derive a
table the same way: `Table.replay(spec, actions)`. Game n of a match is the engine match started
with seed `spec.seed + n` and first dealer `(first_dealer + n) mod players`.

A match played from *boards* (a duplicate competition's table, docs/duplicate.md) has
`spec.boards`: game n is board n, an engine match started from the board's dealer and deals with
a fresh start score and the target out of reach, and it ends with the board's first deal that
is not redone (the game's target plays no part); the match ends after the last board. The
engine is given only the deals the board has used so far: a spare deal is handed over (the
board's actions replayed onto it) only when the rules redo the deal, so no table sees a spare
another table may still need. `result()["boards"]` holds each board's points per side and who
won what.

A clock timeout under `timeout_result = "forfeit_match"` ends the whole match, not only the game:
the source rules say a player who runs out of time loses.

Match-level actions (MATCH_ACTIONS) are in the same log and handled here before the engine sees
anything: a player proposes to concede and the match is conceded when the partner agrees (the
service answers for a bot partner with a `concede` of its own); a proposal is withdrawn or refused with `concede_decline`; the leaver
policy's `replace` (a bot plays on for a seat whose player left), `return` (that player is back
and the bot hands the seat over) and `forfeit` (the leaver's team loses the match). None of them changes an engine state, so the archive and the export, which
replay the engine games, are unchanged by them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from gameplay.rules import IllegalAction, get_game
from gameplay.scoresheet import deal_rows

MATCH_ACTIONS = ("concede", "concede_decline", "replace", "return", "forfeit")
HISTORY_SIZE = 60  # events kept for a client's "What happened" log after a reload


@dataclass(frozen=True)
class MatchSpec:
    game: str
    options: dict = field(default_factory=dict)
    seed: int = 0
    first_dealer: int = 0
    games_to_win: int = 1
    # A duplicate's boards, played in order: each {"board": number, "dealer": seat,
    # "deals": [the deal, then spare deals]} (the scenario format's deals). Empty: seeded games.
    boards: tuple = ()


# A board is played with the game's target out of reach: it is one deal scored on its own, and a
# target reached inside a deal would cut the deal short (All Fours A10) or change what a side may
# do (La Cuatrola's exact target). The match row keeps the rules as chosen.
TARGET_KEYS = ("target_score", "target")
OUT_OF_REACH = 1_000_000


def board_options(options: dict) -> dict:
    return {**options, **{key: OUT_OF_REACH for key in TARGET_KEYS if key in options}}


def game_start(spec: MatchSpec, number: int, deals_used: int = 1):
    """Game `number` of a match at its first deal. A board starts with its first `deals_used`
    deals (its deal, then the spares a redeal has called for), the target out of reach."""
    engine = get_game(spec.game)
    if spec.boards:
        board = spec.boards[number]
        return engine.start(options=board_options(engine.resolve_options(spec.options)), dealer=board["dealer"],
                            deals=board["deals"][:deals_used])
    players = engine.players(engine.resolve_options(spec.options))
    return engine.start(seed=spec.seed + number, options=spec.options,
                        dealer=(spec.first_dealer + number) % players)


def is_redeal(record: dict) -> bool:
    """Whether a deal record is a deal the rules redo (All Fours R9.6, Baloot R4.5 / S4)."""
    detail = record.get("detail") or {}
    return detail.get("redeal") is True or detail.get("result") == "annulled"


def board_summary(records) -> dict:
    """Who won what on a board, for its traveller: the scored items of its deals up to the first
    not redone ([item, team, points], as the engine's deal records name them) and the contract,
    if the game has one."""
    won, contract = [], None
    for record in records:
        detail = record.get("detail") or {}
        won += [list(item) for item in detail.get("points") or [] if item[2]]
        contract = detail.get("contract", contract)
        if not is_redeal(record):
            break
    return {"won": won, "contract": contract if isinstance(contract, str) else None}


def board_points(records, exhausted: bool = False) -> list[int] | None:
    """A board's points per side from its deal records: every record up to and including the
    first deal not redone; None while there is none (unless `exhausted`: the points so far).
    tournaments/duplicate/scoring.py's `board_points` reads a stored record the same way."""
    total = [0, 0]
    for record in records:
        total = [total[0] + record["delta"][0], total[1] + record["delta"][1]]
        if not is_redeal(record):
            return total
    return total if exhausted else None


class Table:
    def __init__(self, spec: MatchSpec):
        self.spec = spec
        self.engine = get_game(spec.game)
        self.games_won = [0, 0]
        self.game_number = 0
        self.finished_games = []  # engine states of the games already decided
        self.board_results = []  # a board match: each finished board's points per side
        self.state = self._start_game(0)
        self.seq = 0
        self.winner = None
        self.finish = None  # "played", "timeout", "conceded" or "forfeit" once the match is decided
        self.concede_by = None  # the seat whose proposal to concede waits for its partner
        self.replaced = []  # seats a bot plays since their player left (leaver policy)
        self.last_action = None  # the latest action as logged (the engine's form for its own)
        self.events = list(self.state.events) + self._settle(None)
        self.history = deque(self.events, maxlen=HISTORY_SIZE)

    @classmethod
    def replay(cls, spec: MatchSpec, actions) -> "Table":
        table = cls(spec)
        for action in actions:
            table.apply(action)
        return table

    def _start_game(self, number: int):
        return game_start(self.spec, number)

    @property
    def is_board_match(self) -> bool:
        return bool(self.spec.boards)

    @property
    def is_over(self) -> bool:
        return self.finish is not None

    @property
    def to_act(self):
        return None if self.is_over else self.state.to_act

    @property
    def players(self) -> int:
        return self.state.players

    def apply(self, action: dict) -> list[dict]:
        """Apply one action; IllegalAction leaves the table unchanged. Returns the events."""
        if self.is_over:
            raise IllegalAction("the match is over")
        if action.get("type") in MATCH_ACTIONS:
            events = self._match_action(action)
            self.last_action = {"seat": action["seat"], "type": action["type"]}
        else:
            state = self.state
            state.apply(action)
            self.last_action = state.actions[-1]
            events = list(state.events) + self._settle(action)
        self.seq += 1
        self.events = events
        self.history.extend(events)
        return events

    # ----- match-level actions (before the engine) ---------------------------------------------

    def _match_action(self, action: dict) -> list[dict]:
        seat = action.get("seat")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction("a match action needs the seat that takes it")
        return getattr(self, "_" + action["type"])(seat)

    def partner_of(self, seat: int) -> int:
        return (seat + self.players // 2) % self.players

    def _concede(self, seat: int) -> list[dict]:
        if self.concede_by == seat:
            raise IllegalAction("you have already proposed to concede; your partner has to agree")
        if self.players != 4 or self.concede_by == self.partner_of(seat):  # no partner to ask, or agreed
            self.concede_by = None
            return [{"kind": "conceded", "seat": seat}] + self._decide(1 - seat % 2, "conceded")
        if self.concede_by is not None:
            raise IllegalAction("the other team's proposal to concede is waiting for an answer")
        self.concede_by = seat
        return [{"kind": "concede_proposed", "seat": seat}]

    def _concede_decline(self, seat: int) -> list[dict]:
        if self.concede_by not in (seat, self.partner_of(seat)):
            raise IllegalAction("there is no proposal to concede for you to answer")
        self.concede_by = None
        return [{"kind": "concede_declined", "seat": seat}]

    def _replace(self, seat: int) -> list[dict]:
        if seat in self.replaced:
            raise IllegalAction("a bot already plays this seat")
        self.replaced.append(seat)
        return [{"kind": "replaced", "seat": seat}]

    def _return(self, seat: int) -> list[dict]:
        """The player of a replaced seat is back: the bot hands it over (gameplay/presence.py)."""
        if seat not in self.replaced:
            raise IllegalAction("no bot plays this seat")
        self.replaced.remove(seat)
        return [{"kind": "returned", "seat": seat}]

    def _forfeit(self, seat: int) -> list[dict]:
        return [{"kind": "forfeited", "seat": seat}] + self._decide(1 - seat % 2, "forfeit")

    def _decide(self, winner: int, finish: str) -> list[dict]:
        self.winner, self.finish = winner, finish
        return [{"kind": "match_over", "winner": winner, "finish": finish}]

    def _settle(self, action) -> list[dict]:
        """Decide finished games; a game can end before any action (a kick that reaches a small
        target), so a new game may be decided the moment it is dealt."""
        events = []
        if self.is_board_match:
            while self.finish is None:
                points, more = self._board_outcome()
                events += more
                if points is None:
                    break
                events += self._board_decided(points, action)
                action = None
            return events
        while self.state.is_over and self.finish is None:
            events += self._game_decided(action)
            action = None
        return events

    # ----- a match played from boards ------------------------------------------------------------

    def _board_outcome(self) -> tuple[list[int] | None, list[dict]]:
        """The current board's points once it is over (None while it goes on), and the events of
        a spare deal handed over for a redeal."""
        state = self.state
        points = board_points(state.deal_records)
        if points is not None or state.is_over:
            return points or board_points(state.deal_records, exhausted=True), []
        if state.to_act is not None:
            return None, []
        # The engine waits for a deal: the rules redo this one. The next spare, if there is one.
        deals = self.spec.boards[self.game_number]["deals"]
        if state.deal_number >= len(deals):
            return board_points(state.deal_records, exhausted=True), []
        fresh = game_start(self.spec, self.game_number, state.deal_number + 1)
        for logged in state.actions:
            fresh.apply(dict(logged))
        self.state = fresh
        ends = [i for i, event in enumerate(fresh.events) if event["kind"] == "deal_over"]
        return None, list(fresh.events[ends[-1] + 1:] if ends else fresh.events)

    def _board_decided(self, points: list[int], action) -> list[dict]:
        state = self.state
        number = self.game_number
        self.finished_games.append(state)
        winner = 0 if points[0] > points[1] else 1 if points[1] > points[0] else None
        if winner is not None:
            self.games_won[winner] += 1
        board = self.spec.boards[number]
        self.board_results.append({"board": board.get("board", number + 1), "points": list(points),
                                   "deals": state.deal_number, **board_summary(state.deal_records)})
        deals = state.view(None).get("deals") or []
        events = [{"kind": "game_over", "game_number": number, "winner": winner,
                   "games_won": list(self.games_won), "board": board.get("board", number + 1),
                   "points": list(points), "deal": deals[-1] if deals else None}]
        forfeit = (state.is_over and action is not None and action.get("type") == "timeout"
                   and state.options["timeout_result"] == "forfeit_match")
        if forfeit:
            return events + self._decide(state.winner, "timeout")
        if number + 1 >= len(self.spec.boards):
            won = self.games_won
            return events + self._decide(0 if won[0] > won[1] else 1 if won[1] > won[0] else None, "played")
        self.game_number += 1
        self.state = self._start_game(self.game_number)
        return events + [{"kind": "new_game", "game_number": self.game_number}] + list(self.state.events)

    def _game_decided(self, action) -> list[dict]:
        state = self.state
        self.finished_games.append(state)
        forfeit = (action is not None and action.get("type") == "timeout"
                   and state.options["timeout_result"] == "forfeit_match")
        self.games_won[state.winner] += 1
        events = [{"kind": "game_over", "game_number": self.game_number, "winner": state.winner,
                   "games_won": list(self.games_won)}]
        if forfeit or self.games_won[state.winner] >= self.spec.games_to_win:
            self.winner = state.winner
            self.finish = "timeout" if forfeit else "played"
            return events
        # The next game's view starts afresh: the event carries the decisive deal's record (public,
        # like every record of a finished deal) for the client's game-over panel.
        deals = state.view(None).get("deals") or []
        events[0]["deal"] = deals[-1] if deals else None
        self.game_number += 1
        self.state = self._start_game(self.game_number)
        return events + [{"kind": "new_game", "game_number": self.game_number}] + list(self.state.events)

    def legal_for(self, seat) -> list[dict]:
        if self.is_over or seat is None:
            return []
        return self.state.legal_for(seat)

    def view(self, seat) -> dict:
        """The engine's view for `seat` (None: spectator) plus the match around it."""
        return self._around(self.state.view(seat), self._match_summary())

    def views(self, seats) -> dict:
        """`view(seat)` for each of `seats`, the public part built once (engine `views`)."""
        summary = self._match_summary()
        return {seat: self._around(view, summary) for seat, view in self.state.views(seats).items()}

    def _match_summary(self) -> dict:
        summary = {"game_number": self.game_number, "games_won": list(self.games_won),
                   "games_to_win": self.spec.games_to_win, "winner": self.winner, "finish": self.finish,
                   "concede_by": self.concede_by, "replaced": list(self.replaced)}
        earlier = [game for game in self.finished_games if game is not self.state]
        if earlier:  # the score sheet of the games already decided; the current one is view["deals"]
            summary["sheets"] = [deal_rows(game.deal_records) for game in earlier]
        if self.is_board_match:
            summary["boards"] = len(self.spec.boards)
            summary["board"] = self.spec.boards[self.game_number].get("board", self.game_number + 1)
        return summary

    def _around(self, view: dict, summary: dict) -> dict:
        view["match"] = summary
        if self.is_over:
            view["legal"] = []
            view["to_act"] = None
        return view

    def all_games(self) -> list:
        """Engine states of every game played so far, the current one last (unless decided, or
        left unfinished by a concession or a forfeit)."""
        if self.finished_games and self.finished_games[-1] is self.state:
            return list(self.finished_games)
        return self.finished_games + [self.state]

    def result(self) -> dict:
        result = {"games_won": list(self.games_won), "winner": self.winner, "finish": self.finish,
                  "games": [{"score": list(g.score), "winner": g.winner} for g in self.all_games()]}
        if self.is_board_match:
            result["boards"] = [dict(board) for board in self.board_results]
        return result
