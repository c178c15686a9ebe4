"""Rows to the pure values of tournaments.formats (and back): the only place that translates.

One query for the entries and one for the pairings, read with values_list: the manager and the
pages of a 512-pair competition never load a row per entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.formats import Entry, Options, Pairing, Result
from tournaments.models import Competition
from tournaments.models import Entry as EntryRow
from tournaments.models import Pairing as PairingRow

DEFAULT_RATING = 1500.0


def format_options(competition: Competition) -> Options:
    return Options(rounds=competition.swiss_rounds, third_place_match=competition.third_place_match,
                   grand_final_reset=competition.grand_final_reset,
                   cycles=2 if competition.double_round_robin else 1, movement=competition.movement,
                   boards_per_round=competition.boards_per_round, group_size=competition.group_size,
                   group_qualifiers=competition.group_qualifiers)


def entry_value(entry_id, seed, rating) -> Entry:
    return Entry(entry_id, seed, DEFAULT_RATING if rating is None else rating)


def pairing_value(row: PairingRow) -> Pairing:
    return Pairing(row.round_number, row.slot, row.home_id, row.away_id, row.bracket, row.label)


def result_value(row: PairingRow) -> Result | None:
    """The format's view of a decided pairing; byes need none (their home side wins)."""
    if row.decided_at is None or row.away_id is None:
        return None
    return Result(row.round_number, row.slot, row.winner_id, row.home_points, row.away_points, row.walkover)


@dataclass
class Snapshot:
    """A competition as the formats see it. `field`: every seeded entry (the bracket and the
    standings); `active`: those still in (a Swiss round pairs only them)."""

    field: list[Entry]
    active: list[Entry]
    pairings: list[PairingRow]

    @property
    def values(self) -> list[Pairing]:
        return [pairing_value(row) for row in self.pairings]

    @property
    def results(self) -> list[Result]:
        return [r for r in map(result_value, self.pairings) if r is not None]


def snapshot(competition: Competition) -> Snapshot:
    rows = (EntryRow.objects.filter(competition=competition, seed__isnull=False)
            .values_list("pk", "seed", "rating", "status"))
    field, active = [], []
    for pk, seed, rating, status in rows:
        value = entry_value(pk, seed, rating)
        field.append(value)
        if status == EntryRow.Status.CONFIRMED:
            active.append(value)
    pairings = list(PairingRow.objects.filter(competition=competition)
                    .order_by("round_number", "slot"))
    return Snapshot(field, active, pairings)
