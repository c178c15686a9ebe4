"""Cards, decks and card sets as bitmasks.

A card is a small int: `suit * ranks_per_suit + rank`, where rank 0 is the lowest rank of the deck's
natural order (each game keeps its own trick-taking order in tables). A set of cards (a hand, a
pile) is an int bitmask, so "has a card of suit X" is one `&`. The contract's card codes
(docs/contracts/engine.md) are only used at the edges: parsing scenarios and writing views.
"""

from __future__ import annotations

from .errors import ScenarioError

SUIT_NAMES_FRENCH = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_NAMES_SPANISH = {"O": "oros", "C": "copas", "E": "espadas", "B": "bastos"}


class Deck:
    """A deck: its suits, its ranks (low to high natural order) and the code of every card."""

    def __init__(self, name: str, suits: str | list[str], ranks: list[str], code_of, suit_names):
        self.name = name
        self.suits = list(suits)
        self.ranks = list(ranks)
        self.nranks = len(self.ranks)
        self.size = len(self.suits) * self.nranks
        self.suit_names = suit_names
        self.codes = [code_of(r, s) for s in self.suits for r in self.ranks]
        self.index = {code: i for i, code in enumerate(self.codes)}
        self.suit_of = [i // self.nranks for i in range(self.size)]
        self.rank_of = [i % self.nranks for i in range(self.size)]
        full = (1 << self.nranks) - 1
        self.suit_mask = [full << (s * self.nranks) for s in range(len(self.suits))]
        self.all_mask = (1 << self.size) - 1

    def parse(self, code) -> int:
        """The card int of a code, or ScenarioError naming the bad code."""
        card = self.index.get(code) if isinstance(code, str) else None
        if card is None:
            raise ScenarioError(f"unknown card {code!r} for the {self.name} deck")
        return card

    def parse_list(self, codes) -> list[int]:
        if not isinstance(codes, list):
            raise ScenarioError(f"expected a list of card codes, got {codes!r}")
        return [self.parse(c) for c in codes]

    def mask(self, cards) -> int:
        m = 0
        for c in cards:
            m |= 1 << c
        return m

    def codes_of_mask(self, mask: int) -> list[str]:
        return [self.codes[c] for c in iter_bits(mask)]

    def suit_name(self, suit: int) -> str:
        return self.suit_names[self.suits[suit]]


def iter_bits(mask: int):
    """The set bits of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def highest_bit(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


FRENCH_52 = Deck("52-card French", "SHDC", list("23456789TJQKA"), lambda r, s: r + s, SUIT_NAMES_FRENCH)
FRENCH_32 = Deck("32-card French", "SHDC", list("789TJQKA"), lambda r, s: r + s, SUIT_NAMES_FRENCH)
# Spanish 20-card deck: natural (numeric) order low to high is 10 sota, 11 caballo, 12 rey, 3, 1 (as).
SPANISH_20 = Deck("20-card Spanish", "OCEB", ["10", "11", "12", "3", "1"], lambda r, s: r + s,
                  SUIT_NAMES_SPANISH)


def check_deal_cards(deck: Deck, hands, stock, hand_sizes: list[int], stock_size: int):
    """Parse one scenario deal; every code valid, no duplicates, sizes as the rules say."""
    if not isinstance(hands, list) or len(hands) != len(hand_sizes):
        raise ScenarioError(f"a deal needs {len(hand_sizes)} hands")
    parsed_hands = []
    for seat, (hand, size) in enumerate(zip(hands, hand_sizes)):
        cards = deck.parse_list(hand)
        if len(cards) != size:
            raise ScenarioError(f"seat {seat} holds {len(cards)} cards; the deal gives {size}")
        parsed_hands.append(cards)
    parsed_stock = deck.parse_list(stock if stock is not None else [])
    if len(parsed_stock) != stock_size:
        raise ScenarioError(f"the stock holds {len(parsed_stock)} cards; it must hold {stock_size}")
    seen: set[int] = set()
    for card in [c for h in parsed_hands for c in h] + parsed_stock:
        if card in seen:
            raise ScenarioError(f"card {deck.codes[card]} appears twice in a deal")
        seen.add(card)
    return parsed_hands, parsed_stock
