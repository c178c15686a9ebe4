"""Boards: the deals every table of a duplicate competition plays (docs/duplicate.md, "Boards").

A board is a number, a dealer seat and a deal given as the engine takes it (contracts/engine.md,
scenario ``deals``: ``{"hands": [...], "stock": [...]}``), followed by a few spare deals for a
redeal the rules may call for (an All Fours pack that runs out, a Baloot deal everyone passes).
A table plays a board with ``game.start(options=..., dealer=board.dealer, deals=board.deals())``:
the engine takes the spares in order, so every table that must redeal gets the same cards again.

A board set is made from a recorded integer seed and is the same on every machine and Python
(one ``random()`` key per card, as the engine's own shuffle), so it can be played again or
published. It is exported and imported as one JSON object whose boards each hold the scenario
format's ``deals``; an import is checked deal by deal by the engine and refused with the board
and the card named.

The engine is handed in, never imported: ``game`` is the rules engine's ``Game``
(``gameplay.rules.get_game(name)``) and ``games`` its registry (``gameplay.rules.GAMES``), which
the Django side reaches through gameplay/api.py (tests/foundation/test_app_seams.py). The engine
refuses a malformed deal with ``ScenarioError``, a ``ValueError`` with a ``reason``.
"""
from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Mapping

from .errors import BoardSetError

FORMAT = "chalk-duplicate-boards"
VERSION = 1
MAX_BOARDS = 1000
MAX_SPARES = 10
# Spare deals per board: the games whose rules may call for a redeal get a few.
SPARES = {"allfours": 3, "baloot": 3, "cuatrola": 0}  # cuatrola.md R8: no redeals
DEFAULT_SPARES = 3


@dataclass(frozen=True, eq=True)
class Board:
    number: int
    dealer: int
    deal: dict
    spares: tuple[dict, ...] = ()

    def deals(self) -> list[dict]:
        """The scenario ``deals`` to start a table on this board: the deal, then the spares."""
        return copy.deepcopy([self.deal, *self.spares])

    def to_json(self) -> dict:
        return {"board": self.number, "dealer": self.dealer, "deals": self.deals()}


@dataclass(frozen=True, eq=True)
class BoardSet:
    game: str
    options: dict
    seed: int | None
    boards: tuple[Board, ...]

    def board(self, number: int) -> Board:
        if type(number) is not int or not 1 <= number <= len(self.boards):
            raise BoardSetError(f"there is no board {number!r}; the set has boards 1 to {len(self.boards)}")
        return self.boards[number - 1]

    def scenario(self, number: int) -> dict:
        """One board as a contract scenario (``python -m gameplay.rules replay`` plays it)."""
        board = self.board(number)
        return {"game": self.game, "options": dict(self.options), "dealer": board.dealer,
                "deals": board.deals(), "actions": []}

    def to_json(self) -> dict:
        """The open hand record: one JSON object for the whole set (``board_set_from_json`` reads it)."""
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "options": dict(self.options), "seed": self.seed,
                "boards": [board.to_json() for board in self.boards]}


def dealer_of(number: int, players: int = 4) -> int:
    """Board 1 is dealt by seat 0, board 2 by seat 1, and so on round the table."""
    return (number - 1) % players


def make_board_set(game, seed: int, count: int, options: dict | None = None,
                   spares: int | None = None) -> BoardSet:
    """``count`` boards for the engine's ``game`` and its options, made from ``seed`` alone."""
    if not hasattr(game, "deal_sizes"):
        raise BoardSetError(f"a board set is made for one of the engine's games; got {game!r}")
    resolved = _options(game, options)
    if type(seed) is not int:
        raise BoardSetError(f"the boards seed must be a whole number; got {seed!r}")
    if type(count) is not int or not 1 <= count <= MAX_BOARDS:
        raise BoardSetError(f"a board set has 1 to {MAX_BOARDS} boards; got {count!r}")
    spares = SPARES.get(game.name, DEFAULT_SPARES) if spares is None else spares
    if type(spares) is not int or not 0 <= spares <= MAX_SPARES:
        raise BoardSetError(f"a board has 0 to {MAX_SPARES} spare deals; got {spares!r}")
    players = game.players(resolved)
    boards = tuple(
        Board(number, dealer_of(number, players), deck_order(game, resolved, seed, number, 0),
              tuple(deck_order(game, resolved, seed, number, k) for k in range(1, spares + 1)))
        for number in range(1, count + 1))
    return BoardSet(game.name, resolved, seed, boards)


def deck_order(game, options: dict, seed: int, number: int, index: int) -> dict:
    """Deal ``index`` of board ``number`` (0 the board's deal, 1.. its spares) as a scenario deal."""
    draw = random.Random(f"duplicate:{game.name}:{seed}:{number}:{index}").random
    keys = [draw() for _ in range(game.deck.size)]
    cards = [game.deck.codes[c] for c in sorted(range(game.deck.size), key=keys.__getitem__)]
    hand_sizes, _ = game.deal_sizes(options)
    hands, at = [], 0
    for size in hand_sizes:
        hands.append(cards[at:at + size])
        at += size
    return {"hands": hands, "stock": cards[at:]}


def board_set_from_json(data, games: Mapping) -> BoardSet:
    """A board set read back from ``BoardSet.to_json()``; every deal checked by its game in the
    engine's registry ``games``.

    Refused with ``BoardSetError`` (naming the board and the card) on the first fault found."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BoardSetError(f"this is not a board set: it must be an object with \"format\": \"{FORMAT}\"")
    if data.get("version") != VERSION:
        raise BoardSetError(f"board set version {data.get('version')!r} is not known; this reads version {VERSION}")
    game = _game(games, data.get("game"))
    options = _options(game, data.get("options"))
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        raise BoardSetError(f"the boards seed must be a whole number or null; got {seed!r}")
    entries = data.get("boards")
    if not isinstance(entries, list) or not 1 <= len(entries) <= MAX_BOARDS:
        raise BoardSetError(f"a board set has a list of 1 to {MAX_BOARDS} boards")
    boards = tuple(_board_from_json(game, options, expected, entry)
                   for expected, entry in enumerate(entries, start=1))
    return BoardSet(game.name, options, seed, boards)


def _board_from_json(game, options: dict, number: int, entry) -> Board:
    if not isinstance(entry, dict) or entry.get("board") != number:
        raise BoardSetError(f"the boards must be numbered 1, 2, 3 ... in order; expected board {number} here",
                            board=number)
    players = game.players(options)
    dealer = entry.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise BoardSetError(f"the dealer must be a seat from 0 to {players - 1}; got {dealer!r}", board=number)
    deals = entry.get("deals")
    if not isinstance(deals, list) or not 1 <= len(deals) <= 1 + MAX_SPARES:
        raise BoardSetError(f"a board has a list of 1 to {1 + MAX_SPARES} deals (the deal, then spares)",
                            board=number)
    for index, deal in enumerate(deals):
        check_deal(game, options, deal, number, index)
    try:
        game.start(options=options, dealer=dealer, deals=deals)
    except ValueError as error:
        raise BoardSetError(_reason(error), board=number) from None
    deals = copy.deepcopy(deals)
    return Board(number, dealer, deals[0], tuple(deals[1:]))


def check_deal(game, options: dict, deal, number: int, index: int = 0) -> None:
    """The engine's check of one deal; a refusal names the board, the deal and the card at fault."""
    try:
        game.parse_deals([deal], options)
    except ValueError as error:
        card, reason = _card_at_fault(game, options, deal)
        which = "" if index == 0 else f"spare deal {index}: "
        raise BoardSetError(which + (reason or _reason(error).removeprefix("deal 0: ")),
                            board=number, card=card) from None


def _card_at_fault(game, options: dict, deal) -> tuple[str | None, str | None]:
    """Which card makes the engine refuse a deal, and why in words (None, None if no card does)."""
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        return None, None
    places = [(f"seat {seat}", hand) for seat, hand in enumerate(deal["hands"])]
    places.append(("the stock", deal.get("stock") if deal.get("stock") is not None else []))
    if not all(isinstance(cards, list) for _, cards in places):
        return None, None
    seen: dict = {}
    for place, cards in places:
        for code in cards:
            if not isinstance(code, str) or code not in game.deck.index:
                return str(code), f"card {code!r} is not a card of the {game.deck.name} deck ({place})"
            if code in seen:
                return code, f"card {code} appears twice ({seen[code]} and {place})"
            seen[code] = place
    return _size_at_fault(game, options, places, seen)


def _size_at_fault(game, options, places, seen) -> tuple[str | None, str | None]:
    """A wrong count: name a missing card, or the first card past what a seat or the stock holds."""
    hand_sizes, stock_size = game.deal_sizes(options)
    sizes = [*hand_sizes, stock_size]
    if len(places) != len(sizes):
        return None, f"a deal needs {len(hand_sizes)} hands; this one has {len(places) - 1}"
    missing = [code for code in game.deck.codes if code not in seen]
    for (place, cards), size in zip(places, sizes):
        if len(cards) < size and missing:
            return missing[0], (f"{place} holds {len(cards)} cards where the deal gives {size}; "
                                f"card {missing[0]} is missing")
        if len(cards) > size:
            return cards[size], (f"{place} holds {len(cards)} cards where the deal gives {size}; "
                                 f"card {cards[size]} is one too many")
    return None, None


def _game(games: Mapping, name):
    game = games.get(name) if isinstance(name, str) else None
    if game is None:
        raise BoardSetError(f"unknown game {name!r}; known games: {', '.join(games)}")
    return game


def _options(game, options) -> dict:
    try:
        return game.resolve_options({} if options is None else options)
    except ValueError as error:
        raise BoardSetError(_reason(error)) from None


def _reason(error: ValueError) -> str:
    return getattr(error, "reason", str(error))
