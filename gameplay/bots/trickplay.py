"""Card play that every trick game shares: win what is worth winning, cheaply; help the partner.

A game's bot gives a `TrickModel` (how cards rank and what they are worth in this deal) and a
`Seen`; these functions pick a card among the legal ones. Each heuristic is one small function
whose docstring says why a club player does it. Games add their own heuristics in front.
"""

from __future__ import annotations

class TrickModel:
    """The deal's card order and values: `power[c]` ranks cards within a suit (higher wins),
    `value[c]` is what winning c is worth, `ruff` the suit that beats the others (or None)."""

    def __init__(self, suit_of, power, value, ruff):
        self.suit_of = suit_of
        self.power = power
        self.value = value
        self.ruff = ruff
        size = len(suit_of)
        # above[c]: the cards of c's suit that outrank it, so "is c the top card left" is one &
        self.above = [sum(1 << d for d in range(size) if suit_of[d] == suit_of[c] and power[d] > power[c])
                      for c in range(size)]
        self.ruff_mask = 0 if ruff is None else sum(1 << d for d in range(size) if suit_of[d] == ruff)

    def beats(self, card: int, best: int) -> bool:
        """Whether `card` played now beats `best`, the trick's winning card."""
        suit, best_suit = self.suit_of[card], self.suit_of[best]
        if suit == best_suit:
            return self.power[card] > self.power[best]
        return suit == self.ruff

    def winner(self, trick: list[tuple[int, int]]) -> tuple[int, int]:
        seat, best = trick[0]
        for other_seat, card in trick[1:]:
            if self.beats(card, best):
                seat, best = other_seat, card
        return seat, best

    def trick_value(self, trick) -> int:
        return sum(self.value[card] for _, card in trick)

    def is_master(self, card: int, unseen: int) -> bool:
        """No card that nobody has seen yet ranks above `card` in its suit."""
        return not unseen & self.above[card]


def action_of_type(legal: list[dict], kind: str) -> dict:
    """The legal call of that type (a bid's "pass", "stand", "double"…), else the first legal action."""
    return next((a for a in legal if a["type"] == kind), legal[0])


def cards_of(legal: list[dict], deck) -> list[int]:
    return [deck.index[a["card"]] for a in legal if a["type"] == "play"]


def seats_after_me(seen, active: list[int]) -> list[int]:
    """The seats still to play to this trick after this seat, in order."""
    trick_size = len(active)
    played = len(seen.trick)
    at = active.index(seen.seat)
    return [active[(at + k) % trick_size] for k in range(1, trick_size - played)]


def opponents_after(seen, active) -> list[int]:
    return [s for s in seats_after_me(seen, active) if s % 2 != seen.seat % 2]


def throw_cost(model: TrickModel, seen, card: int) -> tuple:
    """How much a card hurts to give away: trumps and masters last, then by value and rank."""
    is_trump = model.suit_of[card] == model.ruff
    master = model.is_master(card, seen.unseen)
    return (is_trump, master, model.value[card], model.power[card])


def cheapest(model, seen, cards: list[int]) -> int:
    """The card that costs least to lose: what a player throws on a trick he cannot win."""
    return min(cards, key=lambda c: throw_cost(model, seen, c))


def lowest_winner(model, cards: list[int], best: int) -> int | None:
    """The smallest card that takes the trick: win, but keep the big cards for later."""
    winners = [c for c in cards if model.beats(c, best)]
    if not winners:
        return None
    return min(winners, key=lambda c: (model.suit_of[c] == model.ruff, model.value[c], model.power[c]))


def safe_from_later(model, seen, card: int, active) -> bool:
    """Nobody after me can take a trick now won by `card`: it is the top card left of its suit,
    and (if it is not a trump) no opponent still to play has shown a void he could ruff from."""
    if not model.is_master(card, seen.unseen):
        return False
    led = model.suit_of[seen.trick[0][1]] if seen.trick else model.suit_of[card]
    if model.ruff is None or model.suit_of[card] == model.ruff:
        return True
    return not seen.unseen & model.ruff_mask or not any(led in seen.voids[s] for s in opponents_after(seen, active))


def give_points(model, seen, cards: list[int]) -> int:
    """The partner holds the trick for sure: add the most valuable card we can spare (not a
    trump, not a master that would win a trick of its own later)."""
    spare = [c for c in cards if model.suit_of[c] != model.ruff and not model.is_master(c, seen.unseen)]
    if not spare:
        return cheapest(model, seen, cards)
    return max(spare, key=lambda c: (model.value[c], -model.power[c]))


def follow(model, seen, cards: list[int], active, worth: int) -> int:
    """Second, third or last to a trick: support a safe partner, else win cheaply when the trick
    is worth at least `worth` (or when the win is safe), else throw the cheapest card."""
    trick = seen.trick
    seat, best = model.winner(trick)
    last = not seats_after_me(seen, active)
    if seat == seen.partner:
        if last or safe_from_later(model, seen, best, active):
            return give_points(model, seen, cards)
        return cheapest(model, seen, cards)
    winner = lowest_winner(model, cards, best)
    if winner is None:
        return cheapest(model, seen, cards)
    if last:
        worth_it = model.trick_value(trick) + model.value[winner] >= worth
        return winner if worth_it else cheapest(model, seen, cards)
    safe = [c for c in cards if model.beats(c, best) and safe_from_later(model, seen, c, active)]
    if safe:
        return min(safe, key=lambda c: (model.value[c], model.power[c]))
    if model.trick_value(trick) >= worth:
        return max((c for c in cards if model.beats(c, best)), key=lambda c: model.power[c])
    return cheapest(model, seen, cards)


def lead_master(model, seen, cards: list[int], trumps_first: bool) -> int | None:
    """Cash a winner: a side-suit card no one can beat wins a trick now, before a void opens;
    with `trumps_first` the top trump is drawn first so the opponents cannot ruff later."""
    unseen = seen.unseen
    masters = [c for c in cards if model.is_master(c, unseen)]
    if not masters:
        return None
    trumps_left = bool(unseen & model.ruff_mask)
    trump_masters = [c for c in masters if model.suit_of[c] == model.ruff]
    if trumps_first and trump_masters and trumps_left:
        return max(trump_masters, key=lambda c: model.power[c])
    side = [c for c in masters if model.suit_of[c] != model.ruff]
    if side and not trumps_left:
        return max(side, key=lambda c: model.value[c])
    safe_side = [c for c in side if not any(model.suit_of[c] in seen.voids[s]
                                             for s in range(4) if s % 2 != seen.seat % 2)]
    if safe_side:
        return max(safe_side, key=lambda c: model.value[c])
    return None


def partner_suits(model, seen) -> list[int]:
    """Suits the partner led in this deal: he leads from strength, so lead them back."""
    return [model.suit_of[trick[0][1]] for trick in seen.tricks
            if trick and trick[0][0] == seen.partner]


def lead_partner_suit(model, seen, cards: list[int]) -> int | None:
    """Return the partner's suit, low: his high cards there win, and we do not waste ours."""
    for suit in partner_suits(model, seen):
        in_suit = [c for c in cards if model.suit_of[c] == suit and suit != model.ruff]
        if in_suit:
            return min(in_suit, key=lambda c: model.power[c])
    return None


def lead_low(model, seen, cards: list[int]) -> int:
    """No sure winner: lead a low card of the longest side suit, to lose it cheaply and keep
    the high cards and trumps for the tricks that count."""
    side = [c for c in cards if model.suit_of[c] != model.ruff] or cards
    length = {}
    for c in side:
        length[model.suit_of[c]] = length.get(model.suit_of[c], 0) + 1
    return min(side, key=lambda c: (-length[model.suit_of[c]], model.value[c], model.power[c]))
