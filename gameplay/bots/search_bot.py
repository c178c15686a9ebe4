"""The strong bot: determinized Monte Carlo search over the engine, within a time budget.

For a card to play it draws guesses of the hidden hands from its own view only (`sampler`),
rebuilds each guess into a world (`worlds`), and in every world tries each legal card, letting
the rule-based player finish the deal for all four seats. The card with the best average result
for its team (match points of the deal, and winning the match above all) is played. Calls,
declarations and cantes are left to the rule-based player, as is any position the search cannot
rebuild. `choose` receives a view, never a state: the search cannot read a hidden card.
"""

from __future__ import annotations

import math
import statistics
import time

from gameplay.rules.baloot import CONTRACT_INDEX

from .rule_bot import RuleBot, rule_choice
from .seen import mask_of
from .sampler import sample_hands
from .worlds import rebuild
from . import allfours_bot, baloot_bot, baloot_saudi_bot, cuatrola_bot

BUDGET_SECONDS = 0.2
MATCH_WIN_VALUE = 100  # winning the match outweighs any deal's points
# Between results with the same match points, the deal's own totals tell a better play from a
# luckier one: (the deal record's key for the teams' totals, the weight of one of its points).
TIEBREAK = {"baloot": ("raw", 0.02), "cuatrola": ("totals", 0.005), "allfours": ("game_totals", 0.01)}
READERS = {"allfours": allfours_bot.read, "baloot": baloot_bot.read, "cuatrola": cuatrola_bot.read}
MODELS = {"allfours": lambda seen: allfours_bot.model_for(seen.trump),
          "baloot": lambda seen: baloot_bot.model_for(seen.contract),
          "cuatrola": lambda seen: cuatrola_bot.model_for(seen.trump, seen.view.get("contract") in
                                                           ("cuatrola", "quintola"))}
MODE_READERS = {("baloot", "saudi_classic"): baloot_saudi_bot.read}
GIVE_UP_AFTER = 20  # guesses that cannot be rebuilt before falling back to the heuristics
CONSISTENT_TRIES = 6  # guesses drawn for one whose calls the rule-based player would have made
SEARCHED_PHASES = {"play", "stand_or_beg", "dealer_choice", "auction", "calls", "buying", "doubling"}
CALL_TYPES = {"pass", "bid", "double", "redouble", "announce", "stand", "beg", "give_one", "run_pack",
              "triple", "four", "gahwa"}
# Leave the heuristic's choice only for one that did better by this many standard errors of the
# paired difference: with a few dozen guesses, a smaller edge is as likely luck as skill.
SWITCH_MARGIN = 1.5
MIN_WORLDS_TO_SWITCH = 4
# Enough guesses: past this many the standard error of a paired difference barely moves, and a
# late-deal position (cheap worlds) would otherwise spend the whole budget confirming itself.
MAX_WORLDS = 160
# The choice cannot matter: after this many guesses every candidate scored exactly what the
# heuristic's choice did in every one of them.
ALL_EQUAL_AFTER = 24


class SearchBot(RuleBot):
    name = "strong"

    def __init__(self, seed=None, options=None, budget=BUDGET_SECONDS, worlds=None,
                 clock=time.perf_counter, **_):
        """`budget` seconds a decision; `worlds` fixes the number of guesses instead (tests);
        `clock` is the time source the budget is measured on."""
        super().__init__(seed, options)
        self.budget = budget
        self.worlds = worlds
        self.clock = clock
        self.searched = 0  # worlds searched for the last decision

    def choose(self, view: dict, legal: list[dict]) -> dict:
        started = self.clock()
        self.searched = 0
        options = self.options_for(view["game"])
        heuristic = rule_choice(view, legal, options)
        candidates = self.candidates(view, legal, heuristic, options)
        if len(candidates) < 2:
            return heuristic
        results = self.search(view, candidates, options, started)
        return better_than_heuristic(candidates, results) if results else heuristic

    @staticmethod
    def candidates(view, legal, heuristic, options) -> list[dict]:
        """What the search compares, the heuristic's choice first: distinct cards in the play;
        in the calls, bidding (the best bid the heuristic would make) against passing."""
        if heuristic["type"] in ("declare", "sing") or view["phase"] not in SEARCHED_PHASES:
            return [heuristic]
        if heuristic["type"] == "play":
            seen = read(view, options)
            plays = distinct_plays(MODELS[view["game"]](seen), seen, [a for a in legal if a["type"] == "play"])
            return [heuristic] + [a for a in plays if a != heuristic]
        others = [a for a in legal if a != heuristic and a["type"] in CALL_TYPES]
        if heuristic["type"] != "pass":
            return [heuristic] + [a for a in others if a["type"] == "pass"]
        if view.get("mode") == "saudi_classic":
            return [heuristic] + best_saudi_bids(view, others)
        if view["game"] == "baloot":
            return [heuristic] + best_bids(view, others)
        return [heuristic] + others[:1]  # stand or beg, give one or run, pass or the lowest contract

    def search(self, view, candidates, options, started) -> list[list[float]]:
        """Each candidate's result in every world searched (the same worlds for all of them)."""
        seen = read(view, options)
        rng = self.rng
        results = [[] for _ in candidates]
        failures = 0
        deadline = started + (self.budget or 0)
        while self.worlds is None or self.searched < self.worlds:
            if self.worlds is None and (self.searched >= MAX_WORLDS
                                        or self.clock() > deadline - self.world_time(self.searched, started)
                                        or self.searched == ALL_EQUAL_AFTER and all_equal(results)):
                break
            world = self.draw_world(view, options, seen, rng)
            if world is None:
                failures += 1
                if failures >= GIVE_UP_AFTER:
                    break
                continue
            values = []
            for action in candidates:
                if self.worlds is None and self.clock() > deadline:
                    break  # out of time inside this world: it would count some choices and not others
                values.append(self.play_out(world.clone(), action, view["seat"], options))
            if len(values) < len(candidates):
                break
            for result, value in zip(results, values):
                result.append(value)
            self.searched += 1
        return results if self.searched else []

    def world_time(self, searched: int, started: float) -> float:
        """What one more world is expected to cost, from the ones searched so far."""
        if not searched:
            return 0.0
        return (self.clock() - started) / searched

    @staticmethod
    def draw_world(view, options, seen, rng):
        """A guess rebuilt into a world, preferring guesses where every other seat's calls are
        the ones the rule-based player would have made with the hand guessed for it (a bid
        tells what the bidder holds); after CONSISTENT_TRIES guesses, any guess that fits."""
        judge = calls_judge(view["seat"], options)
        for attempt in range(CONSISTENT_TRIES + 1):
            guess = sample_hands(seen, rng, view.get("stock_size", 0))
            if guess is None:
                return None
            world = rebuild(view, options, *guess, judge=judge if attempt < CONSISTENT_TRIES else None)
            if world is not None:
                return world
        return None

    @staticmethod
    def play_out(world, action, seat: int, options) -> float:
        """Play `action`, then the rule-based player for everyone to the end of the deal."""
        team = seat % 2
        before = world.score[team] - world.score[1 - team]
        world.apply(action)
        while world.to_act is not None:
            legal = world.legal_actions()
            if len(legal) == 1:  # a forced card needs no view (building one is most of a move's cost)
                world.apply(legal[0])
            else:
                world.apply(rule_choice(world.view(world.to_act), legal, options, exact=False))
        value = world.score[team] - world.score[1 - team] - before
        key, weight = TIEBREAK.get(world.game.name, ("", 0))
        totals = world.deal_records[-1]["detail"].get(key) if world.deal_records else None
        if totals:
            value += weight * (totals[team] - totals[1 - team])
        if world.winner is not None:
            value += MATCH_WIN_VALUE if world.winner == team else -MATCH_WIN_VALUE
        return value


def calls_judge(me: int, options):
    """judge(state, action): whether a call by another seat is the rule-based player's call in
    that world (card plays, declarations and cantes are not judged)."""
    def judge(state, action) -> bool:
        if action["seat"] == me or action["type"] not in CALL_TYPES:
            return True
        legal = state.legal_actions()
        if len(legal) == 1:
            return True
        return same_call(rule_choice(state.view(action["seat"]), legal, options, exact=False), action)
    return judge


def same_call(a: dict, b: dict) -> bool:
    """The same call (a replayed Hokum may name the face-up suit its legal action leaves out)."""
    return (a["type"] == b["type"] and a.get("contract") == b.get("contract")
            and bool(a.get("closed")) == bool(b.get("closed"))
            and (a.get("suit") is None or b.get("suit") is None or a["suit"] == b["suit"]))


def read(view, options):
    """The seat's knowledge, by its game's (and mode's) reader."""
    reader = MODE_READERS.get((view["game"], view.get("mode"))) or READERS[view["game"]]
    return reader(view, options)


def distinct_plays(model, seen, plays: list[dict]) -> list[dict]:
    """One card of each set of equivalent cards: cards of a suit worth the same, with no card
    anybody else may hold ranked between them, take the same tricks (keep the lowest)."""
    deck = seen.deck
    cards = sorted((deck.index[a["card"]] for a in plays), key=lambda c: (model.suit_of[c], model.power[c]))
    kept = []
    for card in cards:
        previous = kept[-1] if kept else None
        if (previous is not None and model.suit_of[previous] == model.suit_of[card]
                and model.value[previous] == model.value[card]
                and not model.above[previous] & ~model.above[card] & ~(1 << card) & seen.unseen):
            continue
        kept.append(card)
    codes = {deck.codes[c] for c in kept}
    return [a for a in plays if a["card"] in codes]


def best_bids(view, bids: list[dict]) -> list[dict]:
    """Baloot: the bid (or double) the hand counts most tricks for, to weigh against passing."""
    hand = mask_of(baloot_bot.DECK, view["hand"])
    contract = [a for a in bids if a["type"] == "bid"]
    if not contract:
        return bids[:1]
    return [max(contract, key=lambda a: baloot_bot.contract_margin(hand, CONTRACT_INDEX[a["contract"]]))]


def best_saudi_bids(view, calls: list[dict]) -> list[dict]:
    """Baloot's Saudi mode: the Hokum or Sun the six-card hand counts most for (or the ladder
    call offered), to weigh against passing."""
    bids = [a for a in calls if a["type"] == "bid" and a["contract"] in ("hokum", "sun")]
    if not bids:
        return calls[:1]
    hand = mask_of(baloot_bot.DECK, view["hand"]) | 1 << baloot_bot.DECK.index[view["face_up"]]

    def margin(action):
        if action["contract"] == "sun":
            return baloot_saudi_bot.sun_margin(hand)
        return baloot_saudi_bot.hokum_margin(hand, "SHDC".index(action.get("suit") or view["face_up"][-1]))
    return [max(bids, key=margin)]


def all_equal(results: list[list[float]]) -> bool:
    """Every candidate did exactly as well as the heuristic's choice in every world so far."""
    return all(values == results[0] for values in results[1:])


def better_than_heuristic(candidates: list[dict], results: list[list[float]]) -> dict:
    """The candidate with the best mean, if it beat the heuristic's choice (candidates[0]) in
    the same worlds by SWITCH_MARGIN standard errors; else the heuristic's choice."""
    base = results[0]
    best, best_edge = candidates[0], 0.0
    if len(base) < MIN_WORLDS_TO_SWITCH:
        return best
    for action, values in zip(candidates[1:], results[1:]):
        differences = [v - b for v, b in zip(values, base)]
        edge = statistics.fmean(differences)
        spread = statistics.stdev(differences) if len(differences) > 1 else 0.0
        if edge > best_edge and edge > SWITCH_MARGIN * spread / math.sqrt(len(differences)):
            best, best_edge = action, edge
    return best
