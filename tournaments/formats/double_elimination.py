"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

Structure for a bracket of size 2^k (byes pad the field as in single
elimination; labels ``W{r}-{i}``, ``L{r}-{i}``, ``GF``, ``GF2``):

* The winners' bracket is a single-elimination bracket with standard seeding.
* Losers' round 1: the losers of winners' round 1, paired as they stood
  (W1-1 with W1-2, W1-3 with W1-4, ...).
* Losers' round 2j (j = 1 .. k-1), a "drop" round: the losers of winners'
  round j+1 come down, in the *drop order* below, and each meets the winner of
  the losers' node at the same position in the previous losers' round.
* Losers' round 2j+1: the winners of round 2j meet pairwise.
* Grand final: winners' champion (home) v losers' champion. With
  ``Options.grand_final_reset`` (default) a second match ``GF2`` is played only
  if the losers' champion wins the first (each side then has one loss).

Drop order (the convention used, cited): the orderings that brackets-manager.js
uses by default (``defaultMinorOrdering`` in Drarig29/brackets-manager.js,
``src/ordering.ts``), which implement the "superior losers bracket seeding" of
the TeamLiquid post https://tl.net/forum/sc2-tournaments/202139 (2011): the
list of losers of winners' round r (top of the bracket first) is permuted by

    size 4:   natural, reverse
    size 8:   natural, reverse, natural
    size 16:  natural, reverse_half_shift, reverse, natural
    size 32:  natural, reverse, half_shift, natural, natural
    size 64:  natural, reverse, half_shift, reverse, natural, natural
    size 128: natural, reverse, half_shift, pair_flip, pair_flip, pair_flip, natural

(entry r-1 applies to winners' round r), where ``reverse_half_shift`` reverses
each half in place and ``half_shift`` swaps the halves. The effect is that a
pair dropping from the top half of the winners' bracket meets survivors from
the bottom half, delaying rematches. Larger brackets alternate reverse and
natural (our decision).

Placing: the loser of losers' round m is placed at stage m (later is better).
"""
from __future__ import annotations


from . import bracket
from .base import Options
from .bracket import Node, Source
from .single_elimination import first_round, later_round

DEFAULT_DROP_ORDERS = {
    4: ("natural", "reverse"),
    8: ("natural", "reverse", "natural"),
    16: ("natural", "reverse_half_shift", "reverse", "natural"),
    32: ("natural", "reverse", "half_shift", "natural", "natural"),
    64: ("natural", "reverse", "half_shift", "reverse", "natural", "natural"),
    128: ("natural", "reverse", "half_shift", "pair_flip", "pair_flip", "pair_flip", "natural"),
}


def reorder(items: list, method: str) -> list:
    half = len(items) // 2
    if method == "reverse":
        return items[::-1]
    if method == "half_shift":
        return items[half:] + items[:half]
    if method == "reverse_half_shift":
        return items[:half][::-1] + items[half:][::-1]
    if method == "pair_flip":
        return [items[i ^ 1] for i in range(len(items))] if len(items) > 1 else items
    return list(items)


def drop_method(size: int, winners_round: int) -> str:
    """The ordering applied to the losers of ``winners_round`` (1-based)."""
    table = DEFAULT_DROP_ORDERS.get(size)
    if table:
        return table[winners_round - 1]
    return "natural" if winners_round == 1 or winners_round % 2 else "reverse"


def drop_order(size: int, winners_round: int) -> list[int]:
    """Positions (1-based, top first) of winners' nodes in losers' order."""
    count = size // 2 ** winners_round
    return reorder(list(range(1, count + 1)), drop_method(size, winners_round))


def winners_bracket(size: int) -> list[list[Node]]:
    rounds = [first_round(size, "W", "winners")]
    rounds[0] = [Node(n.label, n.bracket, n.home, n.away) for n in rounds[0]]
    while len(rounds[-1]) > 1:
        rounds.append(later_round(rounds[-1], len(rounds) + 1, "W", "winners", None))
    return rounds


def losers_bracket(size: int, wb: list[list[Node]]) -> list[list[Node]]:
    if len(wb) < 2:
        return []
    first = [Node(f"L1-{i + 1}", "losers", Source("loser", wb[0][2 * i].label),
                  Source("loser", wb[0][2 * i + 1].label), loser_stage=1)
             for i in range(len(wb[0]) // 2)]
    rounds = [first]
    for j in range(1, len(wb)):
        m = 2 * j
        drops = [wb[j][p - 1] for p in drop_order(size, j + 1)]
        rounds.append([Node(f"L{m}-{i + 1}", "losers", Source("loser", drop.label),
                            Source("winner", rounds[-1][i].label), loser_stage=m)
                       for i, drop in enumerate(drops)])
        if j < len(wb) - 1:
            rounds.append(later_round(rounds[-1], m + 1, "L", "losers", m + 1))
    return rounds


def nodes(count: int, options: Options) -> list[Node]:
    size = bracket.bracket_size(count)
    if size < 2:
        return []
    wb = winners_bracket(size)
    lb = losers_bracket(size, wb)
    champion = Source("winner", wb[-1][0].label)
    challenger = Source("winner", lb[-1][0].label) if lb else Source("loser", wb[-1][0].label)
    final_stage = 2 * len(wb) - 1
    finals = [Node("GF", "final", champion, challenger, loser_stage=final_stage)]
    if options.grand_final_reset:
        finals.append(Node("GF2", "final", champion, challenger, loser_stage=final_stage,
                           reset_of="GF"))
    return [n for layer in wb for n in layer] + [n for layer in lb for n in layer] + finals


FORMAT, places = bracket.knockout_format("double_elimination", "Double elimination", nodes)
next_round, total_rounds = FORMAT.next_round, FORMAT.total_rounds
