"""The bracket of a knockout drawn whole from the start: every node of the format (not only the
rounds already made), each with its round's name, its two sides (a pair and its seed, a bye, or
"Winner of Semi-final 1" while that is not played) and the stored pairing it links to.

Reads two queries (entries, pairings) and lays boxes out in columns by round; in a right-to-left
language the columns run from the right (`mirror`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from gameplay import api as gameplay
from tournaments import display
from tournaments.formats import double_elimination, groups_knockout, single_elimination
from tournaments.formats.bracket import PENDING, resolve, schedule
from tournaments.models import Competition, Entry, Pairing
from tournaments.services.loading import entry_value, format_options, pairing_value, result_value

BOX_W, BOX_H, GAP_X, GAP_Y = 300, 44, 36, 14  # wide enough for "Perdedor de Ronda de ganadores 1 · partida 10"
BRACKET_ORDER = ("main", "winners", "losers", "final", "third_place")


@dataclass
class Side:
    text: str
    seed: int | None = None
    points: str = ""
    won: bool = False


@dataclass
class Box:
    label: str
    title: str
    home: Side
    away: Side
    pairing: Pairing | None
    x: int = 0
    y: int = 0


@dataclass
class Drawing:
    name: str
    title: str
    width: int
    height: int
    boxes: list
    lines: list = field(default_factory=list)  # (x1, y1, x2, y2)
    columns: list = field(default_factory=list)  # (x, heading)


def nodes_of(competition: Competition, count: int):
    module = single_elimination if competition.format == Competition.Format.SINGLE else double_elimination
    return module.nodes(count, format_options(competition))


def ordinals(nodes, rounds: dict) -> dict[tuple, int]:
    """(bracket, competition round) -> that bracket's own round number: the losers' bracket starts
    in the competition's second round, yet its first round is its round 1."""
    found = {}
    for bracket in {n.bracket for n in nodes}:
        numbers = sorted({rounds[n.label] for n in nodes if n.bracket == bracket})
        found.update({(bracket, number): place for place, number in enumerate(numbers, start=1)})
    return found


def node_titles(nodes, rounds: dict, single: bool) -> dict[str, str]:
    """A name for every node: Final, Semi-final 2, Losers' round 3 · match 1, Grand final..."""
    by_round: dict[tuple, list] = defaultdict(list)
    for node in nodes:
        by_round[(node.bracket, rounds[node.label])].append(node)
    last_main = max((rounds[n.label] for n in nodes if n.bracket == "main"), default=0)
    own = ordinals(nodes, rounds)
    titles = {}
    for (bracket, number), group in by_round.items():
        shown = number if bracket == "main" else own[(bracket, number)]
        for index, node in enumerate(group, start=1):
            titles[node.label] = _node_title(node, bracket, shown, index, len(group), last_main if single else None)
    return titles


def _node_title(node, bracket: str, number: int, index: int, size: int, last_main) -> str:
    if node.label == "3P":
        return display.bracket_title("third_place")
    if node.label == "GF2":
        return _("Grand final (decider)")
    if node.label == "GF":
        return display.bracket_title("final")
    heading = column_heading(bracket, number, last_main)
    return heading if size == 1 else pgettext("bracket box", "%(round)s · match %(n)d") % {"round": heading, "n": index}


def column_heading(bracket: str, number: int, last_main) -> str:
    if bracket == "main" and last_main is not None:
        if last_main - number <= 2:
            return display.round_name(last_main - number)
        return _("Round %(n)d") % {"n": number}
    if bracket == "losers":
        return _("Losers' round %(n)d") % {"n": number}
    if bracket == "winners":
        return _("Winners' round %(n)d") % {"n": number}
    return display.bracket_title(bracket) or _("Round %(n)d") % {"n": number}


def drawings(competition: Competition, mirror: bool = False) -> list[Drawing]:
    rows = list(Entry.objects.filter(competition=competition).order_by("seed", "pk"))
    stored = list(Pairing.objects.filter(competition=competition).order_by("round_number", "slot"))
    tables = gameplay.results_of(p.match_id for p in stored)  # the boxes' links: a replay once it ended
    for p in stored:
        p.table = tables.get(p.match_id)
    seeded = [e for e in rows if e.seed is not None]
    count = len(seeded) or len([e for e in rows if e.is_active])
    values = [entry_value(e.pk, e.seed, e.rating) for e in seeded]
    results = [r for r in map(result_value, stored) if r is not None]
    slots = {}
    if competition.is_groups:
        nodes, values, stored, results, slots = _after_groups(competition, count, values, stored, results)
    else:
        nodes = nodes_of(competition, count)
    if not nodes:
        return []
    rounds = schedule(nodes)
    table = resolve(nodes, values, [pairing_value(p) for p in stored], results) if values else {}
    titles = node_titles(nodes, rounds, competition.format != Competition.Format.DOUBLE)
    names = {e.pk: e for e in rows}
    by_label = {p.label: p for p in stored}
    boxes = defaultdict(list)
    for node in nodes:
        box = _box(node, table.get(node.label), titles, names, by_label.get(node.label), slots)
        if box is not None:
            boxes[node.bracket].append((rounds[node.label], node, box))
    last_main = max((rounds[n.label] for n in nodes if n.bracket == "main"), default=0)
    single = competition.format != Competition.Format.DOUBLE
    own = ordinals(nodes, rounds)
    return [_lay_out(name, boxes[name], last_main if single else None, mirror, own)
            for name in BRACKET_ORDER if boxes.get(name)]


def _after_groups(competition: Competition, count: int, values, stored, results):
    """The knockout after a groups phase, as the knockouts' drawing reads it: its nodes, its seeds
    (the qualifiers, once every group is over; none before), its pairings and results, and each
    seed's words ("Winner of group A") for its boxes until then."""
    options = format_options(competition)
    try:
        sizes = groups_knockout.group_sizes(count, options.group_size, options.group_qualifiers)
    except groups_knockout.GroupsImpossible:
        return [], [], [], [], {}
    nodes = groups_knockout.knockout_nodes(len(sizes), options)
    slots = {seed: _group_place(letter, place)
             for seed, (letter, place) in groups_knockout.slot_words(len(sizes), options.group_qualifiers).items()}
    try:
        seeded = groups_knockout.qualifiers(values, [pairing_value(p) for p in stored], results, options) \
            if values else []
    except groups_knockout.RoundInProgress:
        seeded = []
    knockout = [p for p in stored if p.bracket != groups_knockout.GROUPS]  # matched by label and (round, slot)
    ko_values = [entry_value(entry_id, seed, None) for seed, entry_id in enumerate(seeded, start=1)]
    ko_results = [r for r in map(result_value, knockout) if r is not None]
    return nodes, ko_values, knockout, ko_results, slots


def _group_place(letter: str, place: int) -> str:
    if place == 1:
        return _("Winner of group %(group)s") % {"group": letter}
    if place == 2:
        return _("Runner-up of group %(group)s") % {"group": letter}
    return _("Number %(place)d of group %(group)s") % {"place": place, "group": letter}


def _box(node, row, titles, names, pairing, slots=None) -> Box | None:
    slots = slots or {}
    if row is None:  # not started: the seeds' places
        home, away = _source_side(node.home, titles, slots), _source_side(node.away, titles, slots)
        return Box(node.label, titles[node.label], home, away, None)
    home_id, away_id = row[0], row[1]
    if home_id is None and away_id is None:
        return None  # nobody will play here (a bye against a bye)
    if home_id is None:
        home_id, away_id = away_id, None
    home = _side(home_id, node.home, titles, names)
    away = _side(away_id, node.away, titles, names) if away_id is not None else Side(_("bye"))
    if pairing is not None and pairing.decided_at and pairing.away_id:
        home.won, away.won = pairing.winner_id == pairing.home_id, pairing.winner_id == pairing.away_id
        if pairing.walkover:  # no games were played: the winner's box says how it won
            mark = pgettext("walkover mark in a bracket box", "W/O")
            home.points, away.points = (mark if home.won else ""), (mark if away.won else "")
        else:
            home.points, away.points = str(pairing.home_points), str(pairing.away_points)
    return Box(node.label, titles[node.label], home, away, pairing)


def _side(entry_id, source, titles, names) -> Side:
    if entry_id is PENDING:
        return _source_side(source, titles)
    entry = names.get(entry_id)
    return Side(entry.name if entry else "?", entry.seed if entry else None)


def _source_side(source, titles, slots=None) -> Side:
    if source.kind == "seed":
        if slots and source.ref in slots:
            return Side(slots[source.ref])
        return Side(_("Seed %(n)d") % {"n": source.ref})
    title = titles.get(source.ref, source.ref)
    if source.kind == "winner":
        return Side(_("Winner of %(match)s") % {"match": title})
    return Side(_("Loser of %(match)s") % {"match": title})


def _lay_out(name: str, placed: list, last_main, mirror: bool, own: dict) -> Drawing:
    numbers = sorted({number for number, _, _ in placed})
    columns = {number: [box for n, _, box in placed if n == number] for number in numbers}
    tallest = max(len(c) for c in columns.values())
    height = tallest * (BOX_H + GAP_Y) + GAP_Y
    width = len(numbers) * (BOX_W + GAP_X)
    drawing = Drawing(name, display.bracket_title(name), width, height, [])
    where = {}
    for index, number in enumerate(numbers):
        x = GAP_X // 2 + index * (BOX_W + GAP_X)
        if mirror:
            x = width - x - BOX_W
        step = height / len(columns[number])
        for i, box in enumerate(columns[number]):
            box.x, box.y = x, int(step * (i + 0.5) - BOX_H / 2)
            where[box.label] = box
            drawing.boxes.append(box)
        drawing.columns.append((x, column_heading(name, number if name == "main" else own[(name, number)],
                                                  last_main)))
    for _number, node, box in placed:
        for source in (node.home, node.away):
            feeder = where.get(source.ref) if source.kind == "winner" else None
            if feeder is not None:
                drawing.lines.append(_line(feeder, box, mirror))
    return drawing


def _line(feeder: Box, box: Box, mirror: bool) -> tuple:
    if mirror:
        return (feeder.x, feeder.y + BOX_H // 2, box.x + BOX_W, box.y + BOX_H // 2)
    return (feeder.x + BOX_W, feeder.y + BOX_H // 2, box.x, box.y + BOX_H // 2)
