"""Groups then knockout: round-robin groups, then the top N of each group in a seeded knockout.

The two phases reuse the other formats: each group is a round robin (``round_robin.all_rounds``,
Berger tables) and the knockout is single elimination's nodes (``bracket``), fed by qualifier
slots ("winner of group A", "runner-up of group B") instead of seeds.

Decisions (docs/competitions.md "Groups then knockout"):

* Groups: the organiser picks the group size ``Options.group_size`` and how many of each group go
  through, ``Options.group_qualifiers`` (1 <= N < size). There are ceil(pairs / size) groups; when
  the size does not divide the pairs, the groups differ by one pair at most (the first groups are
  the larger). It cannot work, and is refused, when a group would have no more pairs than go
  through (nothing to play for), or fewer than two pairs go through in all (``GroupsImpossible``).
* The draw: pairs in seed order fill the groups snake-wise (seeds 1..G in groups A..G, the next G
  seeds from G back to A, ...), so each group has one of the strongest pairs.
* Group rounds: round r of the competition is round r of every group's round robin (pairings
  ``bracket="groups"``, ``label`` the group's letter); a group with fewer rounds (a smaller group)
  sits out the last. Fixtures are fixed in advance, like a round robin.
* A group's order: the round robin's (match points, head-to-head, Sonneborn-Berger, game
  difference, game points, then seed).
* Knockout seeds: every group winner above every runner-up, and so on by place; each lower
  place's seed goes to the group whose pairs already placed it would meet latest (ties: groups in
  reverse order). This gives the usual crossover (A1 meets B2 and B1 meets A2; C1-D2, D1-C2 ...)
  and puts a group's winner and runner-up in opposite halves, so they can meet only in the final
  (tests/competitions_pure/test_formats_groups_knockout.py).
* The knockout's rounds follow the group rounds (its first round is the last group round + 1);
  its pairings are labelled like single elimination's (``R1-1`` counting knockout rounds) with a
  third-place match when ``Options.third_place_match``.
* No-show: someone must go through in the knockout, and the same rule keeps the groups simple:
  the pair that showed, else the one with more players checked in, then the better seed.
* Places: qualifiers by the knockout (``bracket.places``); the rest after them, by their place in
  their group (all the thirds share a place, then all the fourths ...).
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from . import bracket, round_robin, single_elimination
from .base import (
    Entry, EntryId, Format, Options, Pairing, PairingImpossible, Result, RoundInProgress, last_round,
    results_by_key, someone_goes_through,
)
from .seeding import in_seed_order

GROUPS = "groups"          # the bracket name of a group pairing
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
GROUP_TIEBREAKS = ("head_to_head", "sonneborn_berger", "game_difference", "game_points")


class GroupsImpossible(PairingImpossible):
    """The groups cannot be made: ``reason`` is ``"qualifiers"`` (qualifiers not below the group
    size), ``"small_group"`` (a group of ``smallest`` pairs would send them all through) or
    ``"too_few"`` (fewer than two pairs would go through)."""

    def __init__(self, reason: str, smallest: int = 0, qualifiers: int = 0):
        super().__init__(f"groups impossible: {reason} (smallest group {smallest}, qualifiers {qualifiers})")
        self.reason, self.smallest, self.qualifiers = reason, smallest, qualifiers


def letter(index: int) -> str:
    return LETTERS[index] if index < len(LETTERS) else f"{LETTERS[index // 26 - 1]}{LETTERS[index % 26]}"


def group_sizes(count: int, size: int, qualifiers: int) -> list[int]:
    """The sizes of the groups for ``count`` pairs: ceil(count / size) groups differing by one."""
    if size < 2 or not 1 <= qualifiers < size:
        raise GroupsImpossible("qualifiers", size, qualifiers)
    groups = max(1, math.ceil(count / size))
    base, extra = divmod(count, groups)
    sizes = [base + 1] * extra + [base] * (groups - extra)
    if min(sizes) <= qualifiers:
        raise GroupsImpossible("small_group", min(sizes), qualifiers)
    if groups * qualifiers < 2:
        raise GroupsImpossible("too_few", min(sizes), qualifiers)
    return sizes


def draw_groups(entries: Sequence[Entry], options: Options = Options()) -> list[list[Entry]]:
    """The groups (each in seed order), filled snake-wise by seed."""
    ordered = in_seed_order(entries)
    sizes = group_sizes(len(ordered), options.group_size, options.group_qualifiers)
    groups: list[list[Entry]] = [[] for _ in sizes]
    snake, pending = list(range(len(sizes))), list(ordered)
    while pending:
        for g in snake:
            if pending and len(groups[g]) < sizes[g]:
                groups[g].append(pending.pop(0))
        snake.reverse()
    return groups


def group_rounds(groups: Sequence[Sequence[Entry]]) -> tuple[tuple[Pairing, ...], ...]:
    """Every group round of the competition: round r holds round r of each group's round robin."""
    per_group = [round_robin.all_rounds([replace(e, seed=n) for n, e in enumerate(members, 1)])
                 for members in groups]
    rounds = []
    for index in range(max((len(r) for r in per_group), default=0)):
        games = [(p.home, p.away, GROUPS, letter(g)) for g, rr in enumerate(per_group) if index < len(rr)
                 for p in rr[index]]
        rounds.append(tuple(Pairing(index + 1, slot, home, away, name, label)
                            for slot, (home, away, name, label) in enumerate(games, start=1)))
    return tuple(rounds)


def qualifier_slots(groups: int, qualifiers: int) -> list[tuple[int, int]]:
    """(group index, place) of knockout seeds 1, 2, ...: every winner first, then every runner-up ...

    Each lower place's seeds go, seed by seed, to the group whose pairs already placed it would
    meet latest (in the bracket's standard order: seeds a and b meet in round
    bit_length(position a XOR position b)); ties go to the groups in reverse order (snake). For
    2 or 4 or 8 ... groups with two qualifiers this is the usual crossover A1-B2, B1-A2, C1-D2 ...
    """
    slots = [(g, 1) for g in range(groups)]
    size = bracket.bracket_size(groups * qualifiers)
    position = {seed: index for index, seed in enumerate(bracket.standard_seed_order(size))}
    order = list(range(groups))
    for place in range(2, qualifiers + 1):
        order.reverse()
        left = list(order)
        while left:
            seed = len(slots) + 1

            def meets(g: int) -> int:
                mates = [s for s, (group, _) in enumerate(slots, start=1) if group == g]
                return min((position[seed] ^ position[m]).bit_length() for m in mates)

            best = max(left, key=lambda g: (meets(g), -left.index(g)))
            left.remove(best)
            slots.append((best, place))
    return slots


def knockout_nodes(groups: int, options: Options) -> list[bracket.Node]:
    return single_elimination.nodes(groups * options.group_qualifiers,
                                    Options(third_place_match=options.third_place_match))


@dataclass(frozen=True)
class Plan:
    """A competition's groups, their rounds and what the knockout starts from."""

    groups: list
    rounds: tuple

    @property
    def offset(self) -> int:
        return len(self.rounds)


def plan(entries: Sequence[Entry], options: Options = Options()) -> Plan:
    groups = draw_groups(entries, options)
    return Plan(groups, group_rounds(groups))


def group_tables(entries: Sequence[Entry], pairings: Sequence[Pairing], results: Iterable[Result],
                 options: Options = Options()) -> list:
    """Each group's standings rows (``tournaments.standings.Row``), in group order."""
    from ..standings import Points, rank_table, tally  # the standings import this package

    results = list(results)
    mine = [p for p in pairings if p.bracket == GROUPS]
    tables = []
    for members in plan(entries, options).groups:
        ids = {e.id for e in members}
        table = tally(members, [p for p in mine if p.home in ids], results, Points())
        tables.append(rank_table(members, table, GROUP_TIEBREAKS))
    return tables


def groups_complete(pairings: Sequence[Pairing], results: Iterable[Result], offset: int) -> bool:
    done = results_by_key(results)
    mine = [p for p in pairings if p.bracket == GROUPS]
    rounds_made = {p.round for p in mine}
    return len(rounds_made) >= offset and all(p.is_bye or p.key in done for p in mine)


def qualifiers(entries: Sequence[Entry], pairings: Sequence[Pairing], results: Iterable[Result],
               options: Options = Options()) -> list[EntryId]:
    """The qualifiers in knockout seed order (``qualifier_slots``), once every group is over."""
    results = list(results)
    made = plan(entries, options)
    if not groups_complete(pairings, results, made.offset):
        raise RoundInProgress("the groups are not over")
    tables = group_tables(entries, pairings, results, options)
    return [tables[g][place - 1].entry
            for g, place in qualifier_slots(len(made.groups), options.group_qualifiers)]


def _knockout_view(entries, pairings, results, options):
    made = plan(entries, options)
    seeded = qualifiers(entries, pairings, results, options)
    shift = made.offset
    ko_entries = [Entry(entry_id, seed) for seed, entry_id in enumerate(seeded, start=1)]
    ko_pairings = [replace(p, round=p.round - shift) for p in pairings if p.bracket != GROUPS]
    ko_results = [replace(r, round=r.round - shift) for r in results if r.round > shift]
    return made, knockout_nodes(len(made.groups), options), ko_entries, ko_pairings, ko_results


def next_round(entries: Sequence[Entry], pairings: Sequence[Pairing], results: Iterable[Result] = (),
               options: Options = Options()) -> tuple[Pairing, ...]:
    results = list(results)
    made = plan(entries, options)
    current = last_round(pairings)
    if current < made.offset:
        return made.rounds[current]
    made, nodes, ko_entries, ko_pairings, ko_results = _knockout_view(entries, pairings, results, options)
    return tuple(replace(p, round=p.round + made.offset)
                 for p in bracket.next_round(nodes, ko_entries, ko_pairings, ko_results))


def total_rounds(count: int, options: Options = Options()) -> int:
    try:
        sizes = group_sizes(count, options.group_size, options.group_qualifiers)
    except GroupsImpossible:
        return 0
    group_part = max(size + size % 2 - 1 for size in sizes)
    nodes = knockout_nodes(len(sizes), options)
    return group_part + max(bracket.schedule(nodes).values(), default=0)


def places(entries: Sequence[Entry], pairings: Sequence[Pairing], results: Iterable[Result],
           options: Options = Options()) -> dict[EntryId, int]:
    """Qualifiers by the knockout, the others after them by their place in the group; everyone
    shares first place while the groups are played."""
    results = list(results)
    made = plan(entries, options)
    if not groups_complete(pairings, results, made.offset):
        return {entry.id: 1 for entry in entries}
    made, nodes, ko_entries, ko_pairings, ko_results = _knockout_view(entries, pairings, results, options)
    found = bracket.places(nodes, ko_entries, ko_pairings, ko_results)
    tables = group_tables(entries, pairings, results, options)
    place = len(ko_entries) + 1
    for position in range(options.group_qualifiers, max(len(t) for t in tables)):
        out = [t[position].entry for t in tables if position < len(t)]
        for entry_id in out:
            found[entry_id] = place
        place += len(out)
    return found


def slot_words(groups: int, qualifiers_per_group: int) -> dict[int, tuple[str, int]]:
    """Knockout seed -> (group letter, place), for the bracket's boxes before the groups end."""
    return {seed: (letter(g), place)
            for seed, (g, place) in enumerate(qualifier_slots(groups, qualifiers_per_group), start=1)}


FORMAT = Format("groups_knockout", "Groups then knockout", next_round, total_rounds,
                no_show=someone_goes_through)
