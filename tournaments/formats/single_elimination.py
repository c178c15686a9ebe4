"""Single elimination (knockout) with standard seeding.

Seeding: the standard bracket order (``bracket.standard_seed_order``), e.g. for
16 slots 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11 from the
top of the bracket down, so the top two seeds can only meet in the final.

Decisions:

* With a field that is not a power of two the bracket is padded to the next
  power; the missing seeds are "byes", which by construction fall to the top
  seeds (seed s meets slot size + 1 - s in round 1).
* The upper line of a bracket node is the home side.
* The optional third-place match (``Options.third_place_match``) is between the
  two losing semi-finalists and is played in the final's round; without it the
  two share third place.
* Labels: ``R{round}-{match}`` from the top of the bracket; ``3P``.
"""
from __future__ import annotations


from . import bracket
from .base import Options
from .bracket import Node, Source


def first_round(size: int, prefix: str, bracket_name: str) -> list[Node]:
    order = bracket.standard_seed_order(size)
    return [
        Node(f"{prefix}1-{i + 1}", bracket_name, Source("seed", order[2 * i]),
             Source("seed", order[2 * i + 1]), loser_stage=1)
        for i in range(size // 2)
    ]


def later_round(previous: list[Node], round_no: int, prefix: str, bracket_name: str,
                stage: float | None) -> list[Node]:
    """Winners of consecutive nodes of the previous round meet."""
    return [
        Node(f"{prefix}{round_no}-{i + 1}", bracket_name,
             Source("winner", previous[2 * i].label), Source("winner", previous[2 * i + 1].label),
             loser_stage=stage)
        for i in range(len(previous) // 2)
    ]


def nodes(count: int, options: Options) -> list[Node]:
    """Every node of a knockout for ``count`` entries, in dependency order."""
    size = bracket.bracket_size(count)
    if size < 2:
        return []
    rounds = [first_round(size, "R", "main")]
    while len(rounds[-1]) > 1:
        rounds.append(later_round(rounds[-1], len(rounds) + 1, "R", "main", len(rounds) + 1))
    result = [node for layer in rounds for node in layer]
    if options.third_place_match and len(rounds) >= 2:
        semis, k = rounds[-2], len(rounds)
        result.append(Node("3P", "third_place", Source("loser", semis[0].label),
                           Source("loser", semis[1].label),
                           loser_stage=k - 0.75, winner_stage=k - 0.5))
    return result


FORMAT, places = bracket.knockout_format("single_elimination", "Single elimination", nodes)
next_round, total_rounds = FORMAT.next_round, FORMAT.total_rounds
