"""What every game shares: the match value, action dispatch, clocks, deal records, JSON, views.

A match is (options, seed or given deals, first dealer, start score, actions). `MatchState` holds
what those derive to and is updated in place by `apply` (the contract allows it, and it keeps the
hot path free of copies); `clone()` gives an independent copy for search bots or for keeping a
state before an apply. Validation always happens before the first mutation, so a rejected action
leaves the state exactly as it was.

A game module subclasses `Game` (name, deck, options, deal sizes) and `MatchState` (phases, action
handlers, scoring, view details) and registers itself in `gameplay.rules.GAMES`.
"""

from __future__ import annotations

import random

from . import options as opts
from .cards import Deck, check_deal_cards
from .errors import IllegalAction, ScenarioError

TEAMS = 2
NO_HANDLERS: dict = {}


def _copy_two_levels(value):
    """Copy lists and dicts and the lists and dicts directly inside them (states nest no deeper)."""
    kind = type(value)
    if kind is list:
        return [v.copy() if type(v) in (list, dict) else v for v in value]
    if kind is dict:
        return {k: v.copy() if type(v) in (list, dict) else v for k, v in value.items()}
    return value


def shuffled_pack(game: "Game", seed: int, deal_number: int) -> list[int]:
    """The pack of one deal, in a seeded order that is the same on every machine and Python.

    Python guarantees only `random()` (with the str seeder) to stay the same across versions;
    `shuffle` may change, so the order is a sort by one `random()` key per card."""
    draw = random.Random(f"{game.name}:{seed}:{deal_number}").random
    keys = [draw() for _ in range(game.deck.size)]
    return sorted(range(game.deck.size), key=keys.__getitem__)


class Game:
    """A card game's identity and set-up. Subclasses set the class attributes."""

    name: str = ""
    title: str = ""
    deck: Deck
    options_spec: list[opts.Option] = []
    state_class: type

    def default_options(self) -> dict:
        return {o.key: o.default for o in self.options_spec}

    def resolve_options(self, given) -> dict:
        return opts.resolve(self.options_spec, given)

    def players(self, options: dict) -> int:
        return 4

    def deal_sizes(self, options: dict) -> tuple[list[int], int]:
        """Hand sizes after the first dealing step, and the stock size, for a scenario deal."""
        raise NotImplementedError

    def target(self, options: dict) -> int:
        raise NotImplementedError

    def start(self, seed=None, options=None, dealer=0, deals=None, start_score=None) -> "MatchState":
        """A new match, its first deal dealt (from the seed, or from the given deals)."""
        options = self.resolve_options(options)
        players = self.players(options)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise ScenarioError(f"dealer must be a seat from 0 to {players - 1}; got {dealer!r}")
        score = self._check_start_score(start_score, options)
        parsed = None if deals is None else self.parse_deals(deals, options)
        if parsed is None and seed is None:
            seed = random.SystemRandom().randrange(2**62)
        if parsed is None and type(seed) is not int:
            raise ScenarioError(f"seed must be an integer; got {seed!r}")
        return self.state_class_for(options)(self, options, seed, dealer, parsed, score)

    def state_class_for(self, options: dict) -> type:
        """The state class that plays these options (a game with modes picks one per mode)."""
        return self.state_class

    def modes(self) -> dict[str, dict]:
        """Each mode of the game and the options that select it (one mode: the defaults)."""
        return {"": {}}

    def options_in_mode(self, mode: str) -> list[opts.Option]:
        """The options a table of that mode may set (forms, option sweeps)."""
        return list(self.options_spec)

    def _check_start_score(self, start_score, options) -> list[int]:
        if start_score is None:
            return [0, 0]
        target = self.target(options)
        if (not isinstance(start_score, list) or len(start_score) != 2
                or any(type(s) is not int or not 0 <= s < target for s in start_score)):
            raise ScenarioError(f"start_score must be two whole numbers from 0 below the target {target}")
        return list(start_score)

    def parse_deals(self, deals, options) -> list[tuple[list[list[int]], list[int]]]:
        if not isinstance(deals, list):
            raise ScenarioError("deals must be a list")
        hand_sizes, stock_size = self.deal_sizes(options)
        parsed = []
        for number, deal in enumerate(deals):
            if not isinstance(deal, dict):
                raise ScenarioError(f"deal {number} must be an object with hands and stock")
            try:
                parsed.append(check_deal_cards(self.deck, deal.get("hands"), deal.get("stock"),
                                               hand_sizes, stock_size))
            except ScenarioError as error:
                raise ScenarioError(f"deal {number}: {error.reason}") from None
        return parsed

    def from_json(self, data: dict) -> "MatchState":
        """Rebuild a match from `MatchState.to_json()` (or any scenario) by replaying its actions."""
        state = self.start(seed=data.get("seed"), options=data.get("options"),
                           dealer=data.get("dealer", 0), deals=data.get("deals"),
                           start_score=data.get("start_score"))
        for action in data.get("actions", []):
            state.apply(action)
        return state


class MatchState:
    """A match in progress. Subclasses define PHASE_ACTIONS, the handlers and the scoring."""

    # phase -> {action type: handler method name}
    PHASE_ACTIONS: dict[str, dict[str, str]] = {}
    # action types that a seat other than `to_act` may send (Cuatrola's cante)
    OUT_OF_TURN: frozenset = frozenset()
    # attributes never mutated after set-up, which clones may share
    SHARED_WHEN_CLONED = frozenset({"game", "options", "given_deals"})

    def __init__(self, game: Game, options: dict, seed, dealer: int, given_deals, score: list[int]):
        self.game = game
        self.options = options
        self.seed = seed
        self.first_dealer = dealer
        self.dealer = dealer
        self.given_deals = given_deals
        self.start_score = list(score)
        self.score = list(score)
        self.target = game.target(options)
        self.players = game.players(options)
        self.winner = None
        self.to_act = None
        self.phase = "over"
        self.deal_number = 0  # deals started so far, redeals included
        self.dealt = []  # (hands, stock) of every deal started, for export
        self.deal_records = []
        self.delta = [0, 0]
        self.detail = {}
        self.actions = []
        self.events = []
        self.begin_deal()

    # ----- the public contract -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Resolve handler names to functions once, so dispatch is one dict lookup per action.
        cls._handlers = {phase: {kind: getattr(cls, name) for kind, name in table.items()}
                         for phase, table in cls.PHASE_ACTIONS.items()}

    def apply(self, action) -> "MatchState":
        if type(action) is not dict:
            raise IllegalAction("an action must be a JSON object with a type")
        kind = action.get("type")
        if type(kind) is not str:
            raise IllegalAction(f"an action's type must be a string; got {kind!r}")
        handler = self._handlers.get(self.phase, NO_HANDLERS).get(kind)
        to_act = self.to_act
        seat = action.get("seat", to_act)
        if handler is None or to_act is None or seat != to_act or type(seat) is not int:
            if "seat" in action and type(seat) is not int:
                raise IllegalAction(f"an action's seat must be a whole number from 0 to "
                                    f"{self.players - 1}; got {seat!r}")
            if kind == "timeout":
                self._timeout(action)
                return self
            handler = self._checked_handler(kind, action)
        previous_events, self.events = self.events, []
        try:
            self.actions.append(handler(self, action))
        except IllegalAction:
            self.events = previous_events  # handlers validate before mutating: nothing else changed
            raise
        return self

    def legal_actions(self, seat=None) -> list[dict]:
        raise NotImplementedError

    def default_action(self) -> dict:
        """The deterministic move the clock plays under timeout_result = auto_action."""
        return self.legal_actions()[0]

    def view(self, seat) -> dict:
        """What `seat` may see (None: a spectator). Never another seat's hidden cards."""
        view = {
            "game": self.game.name,
            "seat": seat,
            "phase": self.phase,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "score": list(self.score),
            "target": self.target,
            "winner": self.winner,
            "is_over": self.is_over,
            "deal_number": self.deal_number,
            "deals": self._deal_history(),
            "legal": self.legal_for(seat),
            "events": list(self.events),
        }
        self.add_view_details(view, seat)
        return view

    def views(self, seats) -> dict:
        """`view(seat)` for each of `seats` (None: a spectator), the public part built once: a
        live table sends every reader its view after every move. Views of different readers
        differ only in `seat`, `legal` and the reader's own `hand` (the spectator's is empty);
        anything else a game ever made seat-dependent would show as the spectator sees it,
        never more. The conformance suite checks views(...) == view(...) for every reader."""
        public = self.view(None)
        result = {}
        for seat in seats:
            if seat is None:
                result[seat] = public
                continue
            view = dict(public)
            view["seat"] = seat
            view["legal"] = self.legal_for(seat)
            view["hand"] = self.game.deck.codes_of_mask(self.hands[seat])
            result[seat] = view
        return result

    def _deal_history(self) -> list[dict]:
        """Every closed deal's delta and score; the breakdown only for the last one (a view is
        sent on every move, and older breakdowns are in the archive)."""
        records = self.deal_records
        history = [{"delta": r["delta"], "score": r["score"]} for r in records[:-1]]
        if records:
            last = records[-1]
            history.append({"delta": last["delta"], "score": last["score"], "detail": last["detail"]})
        return history

    def legal_for(self, seat) -> list[dict]:
        if seat is None or self.is_over:
            return []
        if seat == self.to_act:
            return self.legal_actions()
        return self.legal_actions(seat)

    def clone(self) -> "MatchState":
        twin = object.__new__(type(self))
        for key, value in self.__dict__.items():
            twin.__dict__[key] = value if key in self.SHARED_WHEN_CLONED else _copy_two_levels(value)
        return twin

    def to_json(self) -> dict:
        """The match as a value (enough to rebuild it) plus its derived snapshot."""
        return {
            "game": self.game.name,
            "options": dict(self.options),
            "seed": self.seed,
            "dealer": self.first_dealer,
            "start_score": list(self.start_score),
            "deals": self.export_deals() if self.given_deals is not None else None,
            "actions": [dict(a) for a in self.actions],
            "state": self.snapshot(),
        }

    def export_deals(self) -> list[dict]:
        """Every deal started so far, as scenario `deals` entries (card codes)."""
        codes = self.game.deck.codes
        return [{"hands": [[codes[c] for c in hand] for hand in hands], "stock": [codes[c] for c in stock]}
                for hands, stock in self.dealt]

    def scenario(self) -> dict:
        """The match as a contract scenario: replaying it anywhere gives the same scores."""
        return {"game": self.game.name, "options": dict(self.options), "dealer": self.first_dealer,
                "start_score": list(self.start_score), "deals": self.export_deals(),
                "actions": [dict(a) for a in self.actions]}

    def __eq__(self, other) -> bool:
        return (type(other) is type(self) and self.snapshot() == other.snapshot()
                and self.actions == other.actions)

    __hash__ = None

    # ----- shared machinery for the games --------------------------------------------------

    def _checked_handler(self, kind, action):
        """The handler for an action off the fast path, or IllegalAction saying why not."""
        if self.to_act is None:
            raise IllegalAction(self._no_decision_reason())
        allowed = self._handlers.get(self.phase, {})
        handler = allowed.get(kind)
        if handler is None:
            expected = " or ".join(sorted(allowed)) or "nothing"
            raise IllegalAction(f"{kind!r} is not possible now; the table expects {expected}")
        if kind not in self.OUT_OF_TURN:
            seat = action.get("seat")
            raise IllegalAction(f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        return handler

    def _no_decision_reason(self) -> str:
        if self.is_over:
            return "the match is over"
        return "no decision is pending: the next deal has not been given"

    def _timeout(self, action):
        """The server clock ran out for the pending seat (docs/contracts/engine.md, 'Clocks')."""
        if self.to_act is None:
            raise IllegalAction(self._no_decision_reason())
        seat = action.get("seat", self.to_act)
        if seat != self.to_act:
            raise IllegalAction(f"a timeout is for the seat whose decision is pending ({self.to_act})")
        if self.options["timeout_result"] == "auto_action":
            auto = self.default_action()
            self.apply(auto)
            self.actions[-1] = {"seat": seat, "type": "timeout"}
            self.events.insert(0, {"kind": "timeout", "seat": seat, "auto": auto})
            return
        self.events = [{"kind": "timeout", "seat": seat, "forfeit": True}]
        self.actions.append({"seat": seat, "type": "timeout"})
        self.detail["forfeit"] = {"seat": seat, "team": seat % TEAMS}
        self.end_match(1 - seat % TEAMS)
        self.close_deal()

    def next_deal_cards(self):
        """The cards of the next deal, (hands, stock), or None when given deals are used up.

        The caller must not mutate the returned lists: they are kept as the deal's record."""
        if self.given_deals is not None:
            if self.deal_number >= len(self.given_deals):
                return None
            hands, stock = self.given_deals[self.deal_number]
        else:
            hands, stock = self.split_shuffled(shuffled_pack(self.game, self.seed, self.deal_number))
        self.deal_number += 1
        self.dealt.append((hands, stock))
        return hands, stock

    def split_shuffled(self, cards: list[int]):
        """Hands after the first dealing step and the stock (top first), from a shuffled pack."""
        hand_sizes, _ = self.game.deal_sizes(self.options)
        hands, pos = [], 0
        for size in hand_sizes:
            hands.append(cards[pos:pos + size])
            pos += size
        return hands, cards[pos:]

    def wait_for_deal(self):
        self.phase = "waiting_deal"
        self.to_act = None

    def award(self, team: int, points: int, item: str) -> None:
        if points:
            self.score[team] += points
            self.delta[team] += points
        self.detail.setdefault("points", []).append([item, team, points])

    def end_match(self, winner: int) -> None:
        self.winner = winner
        self.phase = "over"
        self.to_act = None
        self.events.append({"kind": "match_over", "winner": winner, "score": list(self.score)})

    def close_deal(self) -> None:
        record = {"delta": self.delta, "score": list(self.score), "detail": self.detail}
        self.deal_records.append(record)
        self.events.append({"kind": "deal_over", "delta": list(self.delta), "score": list(self.score)})
        self.delta = [0, 0]
        self.detail = {}

    # ----- to be provided by each game -----------------------------------------------------

    def begin_deal(self) -> None:
        """The next deal's cards, or a wait when the given deals are used up (every game)."""
        cards = self.next_deal_cards()
        if cards is None:
            self.wait_for_deal()
            return
        self.start_deal(*cards)

    def start_deal(self, hands: list[list[int]], stock: list[int]) -> None:
        """Set up a deal from its hands (after the first dealing step) and stock, top first."""
        raise NotImplementedError

    def take_card(self, seat: int, action) -> int:
        """The card a `play` action names, checked and taken out of the seat's hand; or
        IllegalAction in one wording for every game. `legal_cache` holds the legal-card mask of
        the seat to act when legal_actions computed it (-1: not computed)."""
        code = action.get("card")
        deck = self.game.deck
        card = deck.index.get(code) if type(code) is str else None
        if card is None:
            raise IllegalAction(f"{code!r} is not a card of the {deck.name} deck")
        bit = 1 << card
        if not self.hands[seat] & bit:
            raise IllegalAction(f"{code} is not in your hand")
        legal = self.legal_cache
        if legal < 0:
            legal = self._legal_mask(seat)
        if not legal & bit:  # the legal cards are always a part of the hand
            raise IllegalAction(self._why_illegal(seat, card))
        self.legal_cache = -1
        self.hands[seat] ^= bit
        return card

    def _legal_mask(self, seat: int) -> int:
        raise NotImplementedError

    def _why_illegal(self, seat: int, card: int) -> str:
        raise NotImplementedError

    def add_view_details(self, view: dict, seat) -> None:
        raise NotImplementedError

    def snapshot(self) -> dict:
        raise NotImplementedError

    def card_places(self) -> dict[str, int]:
        """Where every card of the deck is now, as named masks that partition the deck.

        Naming says who may see a place: `hand{seat}` only that seat; a name starting with
        `stock` or `hidden` nobody; any other name everybody. The leak tests rely on it.
        """
        raise NotImplementedError

    def revealed_cards(self) -> int:
        """Cards shown to the table while still in a hand (declared melds, cantes): a mask."""
        return 0
