"""Seeding: order entries by rating or by the organiser's hand.

Every format reads ``Entry.seed`` (1 = strongest) through ``in_seed_order``.
Decisions: ties in rating keep the order the entries were given in (stable
sort), so the layer decides ties (e.g. by entry time); entries without a seed
sort after seeded ones, by rating.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .base import Entry, EntryId, FormatError


def seed_by_rating(entries: Sequence[Entry]) -> tuple[Entry, ...]:
    """Seed 1 is the highest rating; equal ratings keep their given order."""
    ordered = sorted(entries, key=lambda entry: -entry.rating)
    return tuple(replace(entry, seed=n) for n, entry in enumerate(ordered, start=1))


def seed_by_hand(entries: Sequence[Entry], order: Sequence[EntryId]) -> tuple[Entry, ...]:
    """Seed the entries in the organiser's ``order`` (a list of entry ids)."""
    by_id = {entry.id: entry for entry in entries}
    if sorted(map(repr, order)) != sorted(map(repr, by_id)) or len(set(order)) != len(order):
        raise FormatError("a hand seeding must list every entry exactly once")
    return tuple(replace(by_id[entry_id], seed=n) for n, entry_id in enumerate(order, start=1))


def in_seed_order(entries: Sequence[Entry]) -> tuple[Entry, ...]:
    """Entries by seed; unseeded entries last, strongest rating first."""
    big = len(entries) + 1
    return tuple(sorted(
        entries,
        key=lambda entry: (entry.seed if entry.seed is not None else big, -entry.rating),
    ))
