"""Competition formats, looked up by key (docs/style.md §4: registries keyed by name).

Every format is a ``base.Format``: ``next_round(entries, pairings, results,
options) -> tuple[Pairing, ...]`` makes the next round from the results so far
(``()`` when the competition is complete) and ``total_rounds(count, options)``
says how many rounds to expect; its other fields say how it differs (a season made
in advance, a round count fixed at the start, who is paired, who wins a no-show).
Adding a format touches one module and one line below. Pure Python: no Django import anywhere in this package.
"""
from __future__ import annotations

from . import double_elimination, duplicate, groups_knockout, league, round_robin, single_elimination, swiss
from .base import (
    Entry, Format, FormatError, InvalidResult, Options, PairingImpossible, Pairing,
    Result, RoundInProgress, ScheduledRound, UnknownFormat,
)
from .seeding import in_seed_order, seed_by_hand, seed_by_rating

FORMATS: dict[str, Format] = {
    "single_elimination": single_elimination.FORMAT,
    "double_elimination": double_elimination.FORMAT,
    "round_robin": round_robin.FORMAT,
    "swiss": swiss.FORMAT,
    "league": league.FORMAT,
    "duplicate": duplicate.FORMAT,
    "groups_knockout": groups_knockout.FORMAT,
}


def get_format(key: str) -> Format:
    """The format registered under ``key``; ``UnknownFormat`` otherwise."""
    try:
        return FORMATS[key]
    except KeyError:
        raise UnknownFormat(key) from None


__all__ = [
    "FORMATS", "get_format", "Entry", "Format", "FormatError", "InvalidResult", "Options",
    "PairingImpossible", "Pairing", "Result", "RoundInProgress", "ScheduledRound", "UnknownFormat",
    "in_seed_order", "seed_by_hand", "seed_by_rating",
]
