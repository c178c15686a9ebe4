"""What one seat knows about the current deal, read from its view and nothing else.

Every bot starts a decision by turning the view into a `Seen`: its own hand, the tricks of the
deal with who played what, the cards nobody has shown yet, the suits each seat has shown it lacks
(by not following), and the cards other seats are known to hold (declared melds, cantes, the
Cuatrola trump card). Cards are the engine's ints for the game's deck; sets of cards are masks.
"""

from __future__ import annotations

from gameplay.rules.cards import Deck


class Seen:
    """A seat's knowledge of the deal in play. Build one with the game's `read_*` function."""

    def __init__(self, deck: Deck, view: dict, tricks: list[list[tuple[int, int]]], trump):
        self.deck = deck
        self.view = view
        self.seat = view["seat"]
        self.partner = (self.seat + 2) % 4
        self.hand = mask_of(deck, view.get("hand", []))
        self.tricks = tricks  # completed tricks and the current one last, as [(seat, card)]
        self.trump = trump  # the suit int that ruffs, or None
        self.played_by = [0, 0, 0, 0]
        for trick in tricks:
            for seat, card in trick:
                self.played_by[seat] |= 1 << card
        self.played = self.played_by[0] | self.played_by[1] | self.played_by[2] | self.played_by[3]
        self.out_of_play = 0  # cards that no hand holds and that are public (All Fours' turn-ups)
        self.voids = [set(), set(), set(), set()]
        self.excluded = [0, 0, 0, 0]  # cards a seat cannot hold, from how it played or declared
        self.known = [0, 0, 0, 0]  # cards a seat must still hold (shown but not yet played)
        self.hand_sizes = list(view.get("hand_sizes", [0, 0, 0, 0]))
        # (seat, card sets): the seat holds one of the sets (a project declared face down)
        self.holds_one_of: list[tuple[int, list[int]]] = []

    @property
    def trick(self) -> list[tuple[int, int]]:
        """The trick being played now (empty when a new one is to be led)."""
        if self.tricks and len(self.tricks[-1]) < self.trick_size:
            return self.tricks[-1]
        return []

    trick_size = 4

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands or, in All Fours, in the stock."""
        return self.deck.all_mask & ~(self.hand | self.played | self.out_of_play)

    def add_void(self, seat: int, suit: int) -> None:
        self.voids[seat].add(suit)
        self.excluded[seat] |= self.deck.suit_mask[suit]

    def exclude(self, seat: int, cards: int) -> None:
        self.excluded[seat] |= cards

    def add_known(self, seat: int, cards: int) -> None:
        if seat != self.seat:
            self.known[seat] |= cards & ~self.played


def mask_of(deck: Deck, codes) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << deck.index[code]
    return mask


def chunk_tricks(played: list[dict], deck: Deck, size: int) -> list[list[tuple[int, int]]]:
    """A deal's plays in order, cut into tricks of `size` cards (All Fours, Baloot)."""
    pairs = [(p["seat"], deck.index[p["card"]]) for p in played]
    return [pairs[i:i + size] for i in range(0, len(pairs), size)]


def note_voids(seen: Seen, suit_of, shows_void) -> None:
    """A seat that did not follow the suit led, where the rules oblige a holder to follow, has
    none of it left. `shows_void(led_suit, card)` says whether playing `card` proves that."""
    for trick in seen.tricks:
        if not trick:
            continue
        led = suit_of[trick[0][1]]
        for seat, card in trick[1:]:
            if shows_void(led, card):
                seen.add_void(seat, led)


def note_obligations(seen: Seen, obligations) -> None:
    """What a seat did not play shows what it did not hold. `obligations(prefix, seat)` lists
    the rules' card sets for a seat adding to the trick `prefix`, in the order the rules apply
    them (a holder of cards of the first set must play one of them, else of the second...): a
    card played outside a set proves the seat held none of that set."""
    for trick in seen.tricks:
        for at in range(1, len(trick)):
            seat, card = trick[at]
            for cards in obligations(trick[:at], seat):
                if cards >> card & 1:
                    break
                seen.exclude(seat, cards)
