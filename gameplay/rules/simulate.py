"""Whole matches between bots, through the public API only (legal_actions + apply)."""

from __future__ import annotations

import time
from collections import Counter

from .errors import ScenarioError


def simulate(game_name: str, matches: int, seed: int, bots: str = "random", options=None) -> dict:
    from gameplay.bots import get_bot

    from . import get_game

    game = get_game(game_name)
    if matches < 0:
        raise ScenarioError("matches must not be negative")
    decisions, winners = 0, Counter()
    scores = Counter()
    started = time.perf_counter()
    for number in range(matches):
        players = [get_bot(bots, seed=seed * 1_000_003 + number * 4 + seat) for seat in range(4)]
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
