"""Whole matches between players, through the public API only (legal_actions + apply).

The rules package knows no bots (gameplay.bots imports the rules, never the other way round):
the command line plays the built-in uniform random player, and `gameplay.bots` (or any caller)
passes its own player factory to `simulate`.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from .errors import ScenarioError


class UniformRandomPlayer:
    """Picks uniformly among the legal actions, seeded: the engine's own smoke-test player."""

    needs_view = False

    def __init__(self, seed=None):
        self.choose_from = random.Random(seed).choice

    def choose(self, view, legal: list[dict]) -> dict:
        return self.choose_from(legal)


BUILT_IN_PLAYERS = {"random": UniformRandomPlayer}


def player_factory(name: str):
    """The command line's `--bots` name as a factory of seeded players."""
    factory = BUILT_IN_PLAYERS.get(name)
    if factory is None:
        raise ScenarioError(f"unknown player {name!r}: the engine's command line plays "
                            f"{', '.join(BUILT_IN_PLAYERS)}; other bots run through gameplay.bots")
    return factory


def simulate(game_name: str, matches: int, seed: int, make_player=UniformRandomPlayer,
             options=None) -> dict:
    """`make_player(seed)` gives one seat's player (an object with needs_view and choose)."""
    from . import get_game

    game = get_game(game_name)
    if matches < 0:
        raise ScenarioError("matches must not be negative")
    decisions, winners = 0, Counter()
    scores = Counter()
    started = time.perf_counter()
    for number in range(matches):
        players = [make_player(seed * 1_000_003 + number * 4 + seat) for seat in range(4)]
        state = game.start(seed=seed + number, options=options, dealer=number % 4)
        decisions += play_out(state, players)
        winners[state.winner] += 1
        scores[f"{state.score[0]}-{state.score[1]}"] += 1
    elapsed = time.perf_counter() - started
    return {
        "game": game.name, "matches": matches, "decisions": decisions,
        "elapsed_seconds": round(elapsed, 4),
        "decisions_per_second": round(decisions / elapsed) if elapsed else None,
        "matches_per_second": round(matches / elapsed, 2) if elapsed else None,
        "wins": {"team0": winners[0], "team1": winners[1]},
        "score_distribution": dict(scores.most_common()),
    }


def play_out(state, players) -> int:
    """Let each seat's bot decide until the match ends; bots see only their seat's view."""
    decisions = 0
    while state.to_act is not None:
        seat = state.to_act
        bot = players[seat]
        legal = state.legal_actions()
        view = state.view(seat) if bot.needs_view else None
        state.apply(bot.choose(view, legal))
        decisions += 1
    return decisions
