"""Baloot declarations (R7), rounding (R9.4) and the deal outcome (R9.5, R9.6).

Pure functions over the 32-card deck's ints (suit * 8 + rank, rank 0 = Seven ... 7 = Ace). The
natural rank order 7 8 9 T J Q K A is exactly the sequence order of R1.4, so a sequence is a run
of adjacent bits inside one suit's byte of a hand mask.
"""

from __future__ import annotations

from .cards import FRENCH_32, iter_bits
from .errors import IllegalAction

DECK = FRENCH_32
CODES = DECK.codes
CARD_INDEX = DECK.index
NINE, TEN, JACK, QUEEN, KING, ACE = 2, 3, 4, 5, 6, 7
SUIT_BYTE = 0xFF

# R7.3, R7.5: the ranks that make a four of a kind, and each four's value.
FOUR_VALUE = {JACK: 200, NINE: 150, ACE: 100, TEN: 100, KING: 100, QUEEN: 100}
# R7.6 step 3: 100-point fours rank A > T > K > Q (J and 9 have unique values).
FOUR_RANK_KEY = {ACE: 3, TEN: 2, KING: 1, QUEEN: 0, JACK: 0, NINE: 0}
RANK_MASK = [sum(1 << (suit * 8 + rank) for suit in range(4)) for rank in range(8)]
FOURS = [(rank, RANK_MASK[rank]) for rank in (JACK, NINE, ACE, TEN, KING, QUEEN)]
FOUR_OF_MASK = {mask: rank for rank, mask in FOURS}


class FourRanks:
    """The ranks whose four of a kind is a meld in one game mode, as masks and one rank byte."""

    def __init__(self, ranks: tuple[int, ...], words: str):
        self.masks = frozenset(RANK_MASK[rank] for rank in ranks)
        self.bits = sum(1 << rank for rank in ranks)
        self.words = words


CONTRACT_FOURS = FourRanks((JACK, NINE, ACE, TEN, KING, QUEEN), "Jacks, Nines, Aces, Tens, Kings or Queens")


def _runs_of_byte(byte: int) -> tuple:
    """The maximal runs of 3+ adjacent set bits of one suit's byte, as (low rank, length)."""
    runs, rank = [], 0
    while rank < 8:
        if byte >> rank & 1:
            start = rank
            while rank < 8 and byte >> rank & 1:
                rank += 1
            if rank - start >= 3:
                runs.append((start, rank - start))
        else:
            rank += 1
    return tuple(runs)


RUNS_OF_BYTE = [_runs_of_byte(byte) for byte in range(256)]


def sequence_value(length: int) -> int:
    return 20 if length == 3 else 50 if length == 4 else 100


def meld_key(mask: int) -> int:
    """R7.6 strength as one int: value, then four-of-a-kind over sequence, then length, then top."""
    rank = FOUR_OF_MASK.get(mask)
    if rank is not None:
        return FOUR_VALUE[rank] * 1000 + 100 + 40 + FOUR_RANK_KEY[rank]
    length = mask.bit_count()
    top_rank = (mask.bit_length() - 1) % 8
    return sequence_value(length) * 1000 + length * 10 + top_rank


def meld_points(mask: int) -> int:
    rank = FOUR_OF_MASK.get(mask)
    return FOUR_VALUE[rank] if rank is not None else sequence_value(mask.bit_count())


def is_four(mask: int) -> bool:
    return mask in FOUR_OF_MASK


def meld_codes(mask: int) -> list[str]:
    """Card codes of a meld, highest first (sequence order), suits S H D C for a four."""
    if mask in FOUR_OF_MASK:
        return [CODES[c] for c in iter_bits(mask)]
    return [CODES[c] for c in sorted(iter_bits(mask), reverse=True)]


# ----- which declarations a hand allows (R7.3, R7.4) ----------------------------------------

def maximal_runs(cards: int) -> list[int]:
    """Every maximal run of 3+ cards of one suit in `cards`, as masks (R7.4)."""
    runs = []
    for suit in range(4):
        shift = suit * 8
        for low, length in RUNS_OF_BYTE[cards >> shift & SUIT_BYTE]:
            runs.append(((1 << length) - 1) << (shift + low))
    return runs


def declaration_choices(hand: int, four_ranks=CONTRACT_FOURS) -> list[tuple[int, ...]]:
    """Every legal declaration of an 8-card hand: a chosen set of fours of a kind (of the game's
    `four_ranks`), plus any non-empty-overall subset of the maximal runs left once those fours
    are set aside."""
    spades, hearts, diamonds, clubs = hand & 255, hand >> 8 & 255, hand >> 16 & 255, hand >> 24
    if not (spades & hearts & diamonds & clubs & four_ranks.bits or RUNS_OF_BYTE[spades]
            or RUNS_OF_BYTE[hearts] or RUNS_OF_BYTE[diamonds] or RUNS_OF_BYTE[clubs]):
        return []  # most hands: nothing to declare, found with a few byte lookups
    fours = [mask for mask in four_ranks.masks if hand & mask == mask]
    choices = []
    for pick in range(1 << len(fours)):
        chosen = tuple(mask for i, mask in enumerate(fours) if pick >> i & 1)
        used = 0
        for mask in chosen:
            used |= mask
        runs = maximal_runs(hand & ~used)
        for subset in range(1 << len(runs)):
            melds = chosen + tuple(run for i, run in enumerate(runs) if subset >> i & 1)
            if melds:
                choices.append(melds)
    return choices


def parse_declaration(melds, hand: int, four_ranks=CONTRACT_FOURS) -> tuple[int, ...]:
    """The meld masks of a `declare` action, or IllegalAction saying what is wrong (R7.2-R7.4)."""
    if not isinstance(melds, list) or not melds:
        raise IllegalAction("a declaration needs at least one meld (a list of card lists)")
    masks, union = [], 0
    for meld in melds:
        mask = _parse_meld_cards(meld, hand, four_ranks)
        if mask & union:
            card = (mask & union).bit_length() - 1
            raise IllegalAction(f"{CODES[card]} cannot be used in two melds")
        union |= mask
        masks.append(mask)
    used_by_fours = 0
    for mask in masks:
        if is_four(mask):
            used_by_fours |= mask
    free = hand & ~used_by_fours
    for mask in masks:
        if not is_four(mask) and mask not in maximal_runs(free):
            raise IllegalAction(f"a sequence is declared whole: {' '.join(meld_codes(mask))} runs "
                                "on with another card of your hand")
    return tuple(masks)


def _parse_meld_cards(meld, hand: int, four_ranks) -> int:
    if not isinstance(meld, list) or not meld:
        raise IllegalAction("each meld must be a non-empty list of cards")
    mask = 0
    for code in meld:
        card = CARD_INDEX.get(code) if isinstance(code, str) else None
        if card is None:
            raise IllegalAction(f"{code!r} is not a card")
        if mask >> card & 1:
            raise IllegalAction(f"{code} appears twice in one meld")
        if not hand >> card & 1:
            raise IllegalAction(f"{code} is not in your hand")
        mask |= 1 << card
    if not (mask in four_ranks.masks or _is_sequence(mask)):
        raise IllegalAction(f"{' '.join(meld)} is not a meld: declare 3 to 8 cards in sequence in one "
                            f"suit, or four {four_ranks.words}")
    return mask


def _is_sequence(mask: int) -> bool:
    low = (mask & -mask).bit_length() - 1
    suit_byte = SUIT_BYTE << (low - low % 8)
    run = mask >> low
    return mask & ~suit_byte == 0 and mask.bit_count() >= 3 and run & (run + 1) == 0


# ----- which melds score (R7.6) -------------------------------------------------------------

def scoring_melds(declared: list, by_category: bool) -> list[tuple[int, int]]:
    """The (seat, mask) melds that score. `declared` holds (seat, mask) for every declared meld."""
    if not by_category:
        return _best_team_scores(declared)
    sequences = [(seat, mask) for seat, mask in declared if not is_four(mask)]
    fours = [(seat, mask) for seat, mask in declared if is_four(mask)]
    return _best_team_scores(sequences) + _best_team_scores(fours)


def _best_team_scores(declared: list) -> list[tuple[int, int]]:
    """Only the team with the strictly strongest meld scores, and all of its melds; equal bests
    (two same sequences held by opponents) cancel every meld of both teams."""
    best = [-1, -1]
    for seat, mask in declared:
        key = meld_key(mask)
        if key > best[seat % 2]:
            best[seat % 2] = key
    if best[0] == best[1]:
        return []
    winner = 0 if best[0] > best[1] else 1
    return [(seat, mask) for seat, mask in declared if seat % 2 == winner]


# ----- rounding and outcome (R9.4 - R9.6) ---------------------------------------------------

def round_share(points: int, threshold: int, lower: bool) -> int:
    """R9.4 share rounding: up above the threshold digit, down below, on it up only for the
    team with fewer raw points."""
    tens, digit = divmod(points, 10)
    if digit > threshold or (digit == threshold and lower):
        return tens + 1
    return tens


def round_total(points: int, threshold: int) -> int:
    """R9.4 total rounding (the last digit of a total never equals the threshold)."""
    tens, digit = divmod(points, 10)
    return tens + 1 if digit > threshold else tens


def deal_outcome(raw, contractors: int, multiplier: int, threshold: int, options: dict,
                 pool: int, contractor_belotes: int):
    """R9.5 and R9.6: (delta, result, pool paid out, pool after the deal)."""
    defenders = 1 - contractors
    delta = [0, 0]
    total = raw[0] + raw[1]
    if raw[contractors] == raw[defenders]:
        return _tied_outcome(raw, contractors, multiplier, threshold, options, pool)
    leader = contractors if raw[contractors] > raw[defenders] else defenders
    result = "made" if leader == contractors else "inside"
    if multiplier > 1:
        delta[leader] = round_total(total, threshold) * multiplier
    elif leader == contractors:
        for team in (0, 1):
            delta[team] = round_share(raw[team], threshold, raw[team] < raw[1 - team])
    elif options["belote_kept_by_holder"] and contractor_belotes:
        delta[contractors] = 2 * contractor_belotes
        delta[defenders] = round_total(total - 20 * contractor_belotes, threshold)
    else:
        delta[defenders] = round_total(total, threshold)
    delta[leader] += pool
    return delta, result, pool, 0


def _tied_outcome(raw, contractors, multiplier, threshold, options, pool):
    """Equal raw points: cases c and e, or what option tie_rule puts in their place."""
    defenders = 1 - contractors
    delta = [0, 0]
    rule = options["tie_rule"]
    whole = round_total(raw[0] + raw[1], threshold) * multiplier
    if rule == "hanging":
        if multiplier > 1:
            return delta, "tie", 0, pool + whole
        delta[defenders] = round_share(raw[defenders], threshold, False)
        return delta, "tie", 0, pool + round_share(raw[contractors], threshold, True)
    if rule == "contract_made":
        if multiplier > 1:
            delta[contractors] = whole
        else:
            delta[contractors] = round_share(raw[contractors], threshold, True)
            delta[defenders] = round_share(raw[defenders], threshold, False)
        return delta, "made", 0, pool
    delta[defenders] = whole  # contract_fails
    return delta, "inside", 0, pool
