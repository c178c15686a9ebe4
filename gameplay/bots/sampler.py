"""Guess the hidden cards of a deal from what one seat has seen, and nothing else.

Every guess is consistent with the seat's knowledge (`Seen`): its own hand is fixed, cards
played or turned up are gone, a seat that showed a void gets none of that suit (nor a card
it would have had to play), cards a seat
showed (melds, cantes, the trump card) stay with it, and every hand has the size the view shows.
The rest of the unseen cards are spread at random; what no hand takes is the stock.
"""

from __future__ import annotations

from gameplay.rules.cards import iter_bits

ATTEMPTS = 30


def sample_hands(seen, rng, stock_size: int = 0):
    """(hands, stock) for one guess: a mask per seat, the leftover cards in a random order."""
    for attempt in range(ATTEMPTS + 1):
        guess = _try_deal(seen, rng, stock_size, respect_voids=attempt < ATTEMPTS)
        if guess is not None:
            return guess
    return None


def _try_deal(seen, rng, stock_size, respect_voids):
    me = seen.seat
    seats = range(len(seen.hand_sizes))
    hands = [seen.known[s] for s in seats]
    hands[me] = seen.hand
    need = [0 if s == me else seen.hand_sizes[s] - seen.known[s].bit_count() for s in seats]
    if any(n < 0 for n in need):
        return None
    pool = seen.unseen & ~(seen.known[0] | seen.known[1] | seen.known[2] | seen.known[3])
    excluded = seen.excluded if respect_voids else [0, 0, 0, 0]
    for seat, sets in seen.holds_one_of:  # a set of each first (it may have been played since)
        free = (pool | hands[seat]) & ~excluded[seat] | seen.played_by[seat]
        fitting = [cards for cards in sets if not cards & ~free and (cards & pool).bit_count() <= need[seat]]
        if not fitting:
            return None
        cards = rng.choice(fitting) & pool
        hands[seat] |= cards
        need[seat] -= cards.bit_count()
        pool &= ~cards
    cards = list(iter_bits(pool))
    rng.shuffle(cards)
    # the most constrained cards first, so a seat with voids is not left without cards it may hold
    cards.sort(key=lambda c: sum(1 for s in seats if need[s] and not excluded[s] >> c & 1))
    stock, stock_need = [], stock_size
    for card in cards:
        takers = [s for s in seats if need[s] and not excluded[s] >> card & 1]
        weights = [need[s] for s in takers] + ([stock_need] if stock_need else [])
        if not weights:
            return None
        pick = rng.choices(range(len(weights)), weights)[0]
        if pick == len(takers):
            stock.append(card)
            stock_need -= 1
        else:
            hands[takers[pick]] |= 1 << card
            need[takers[pick]] -= 1
    if any(need):
        return None
    rng.shuffle(stock)
    return hands, stock
