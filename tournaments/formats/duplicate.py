"""Duplicate: the rounds come from a movement (tournaments/duplicate/movements.py, docs/duplicate.md).

Not a pairing format (who meets whom does not depend on results) but it runs through the same
machinery: each round of the movement is a round of pairings, one per table, made when the
previous round is complete. Pair k of the movement is the k-th entry in seed order; a pairing's
home pair sits North-South (team 0), its away pair East-West; ``slot`` is the table and
``label`` the board group the table plays (``G3``: group 3). A pair whose movement opponent is the
phantom of an odd count sits the round out (a bye). A bot pair that evens an odd count is a
real entry, added by the Django side when the competition starts. Results do not decide
anything here: the boards are scored by tournaments/duplicate/scoring.py.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.duplicate import SIT_OUT, MovementError, make_movement
from tournaments.duplicate.movements import Movement

from .base import Entry, Format, Options, Pairing, PairingImpossible, Result, last_round
from .seeding import in_seed_order

BRACKET = "duplicate"
GROUP_PREFIX = "G"


def movement(count: int, options: Options = Options()) -> Movement:
    """The movement of ``count`` pairs (an odd count sits out); PairingImpossible if it does not fit."""
    try:
        return make_movement(options.movement, count, options.boards_per_round, SIT_OUT)
    except MovementError as error:
        raise PairingImpossible(str(error)) from None


def board_group(pairing_label: str) -> int:
    """The board group a pairing's table plays, from its label (``G3`` -> 3)."""
    return int(pairing_label.removeprefix(GROUP_PREFIX))


def round_pairings(plan: Movement, ordered: Sequence[Entry], number: int) -> tuple[Pairing, ...]:
    ids = {index: entry.id for index, entry in enumerate(ordered, start=1)}
    pairings = []
    for seating in plan.rounds[number - 1]:
        home, away = seating.ns_pair, seating.ew_pair
        if home is None:
            home, away = away, None
        pairings.append(Pairing(number, seating.table, ids[home], ids.get(away) if away else None, BRACKET,
                                f"{GROUP_PREFIX}{seating.board_group}"))
    return tuple(pairings)


def next_round(entries: Sequence[Entry], pairings: Sequence[Pairing], results: Iterable[Result] = (),
               options: Options = Options()) -> tuple[Pairing, ...]:
    """The movement's next round; () once every round has been made."""
    ordered = in_seed_order(entries)
    plan = movement(len(ordered), options)
    current = last_round(pairings)
    if current >= len(plan.rounds):
        return ()
    return round_pairings(plan, ordered, current + 1)


def total_rounds(count: int, options: Options = Options()) -> int:
    return len(movement(count, options).rounds)


FORMAT = Format("duplicate", "Duplicate", next_round, total_rounds)
