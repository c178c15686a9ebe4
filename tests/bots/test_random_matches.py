"""Every bot at every level plays whole matches of every game, in every mode of the game (Baloot:
the contract mode and the Saudi one), with random rule options, and never sends an illegal action
(the engine refuses one with IllegalAction, failing the test) nor takes longer than its budget."""

import random
import time

import pytest

from gameplay.bots import BOTS, get_bot
from gameplay.rules import GAMES

MATCHES = 200
# Short targets keep 200 matches quick (the search level's shortest of all: a deal or two);
# every other option takes any value its rules allow. 16 is below Baloot's smallest deal in
# either mode, so one deal decides; Saudi targets are given as the `target_score` its rules use.
TARGETS = {"allfours": (3, 7, 14), "baloot": (31, 61), "cuatrola": (3, 5, 11)}
SEARCH_TARGETS = {"allfours": (2, 3), "baloot": (16,), "cuatrola": (2, 3)}
TARGET_KEYS = {"target_score", "target"}
FIXED = {"game_mode", "values", "cante_points", "turn_timer_seconds"}
DECISION_LIMIT = 0.5  # seconds of CPU (a loaded machine stretches the wall clock): no decision takes more


def random_options(game, rng, mode, targets=TARGETS) -> dict:
    options = dict(game.modes()[mode])
    for option in game.options_in_mode(mode):
        if option.key in TARGET_KEYS:
            options[option.key] = rng.choice(targets[game.name])
        elif option.choices and option.key not in FIXED:
            options[option.key] = rng.choice(option.choices)
    if options.get("timeout_result"):
        options["timeout_result"] = "forfeit_match"
    return game.resolve_options(options)


def bot_for(level, seed, options):
    if level == "strong":  # one guess a decision keeps 200 matches quick; the budget is tested apart
        return get_bot(level, seed=seed, options=options, worlds=1)
    return get_bot(level, seed=seed, options=options)


def play_match(game, level, number):
    rng = random.Random(f"{game.name}:{level}:{number}")
    modes = sorted(game.modes())
    mode = modes[number % len(modes)]  # every mode of the game in turn
    options = random_options(game, rng, mode, SEARCH_TARGETS if level == "strong" else TARGETS)
    state = game.start(seed=number, options=options, dealer=number % game.players(options))
    # the level under test holds seats 0 and 2 (the search level only seat 0, for speed); the
    # random player the others: the quickest rival, and the widest range of positions
    seats = [0] if level == "strong" else [0, 2]
    bots = [bot_for(level if seat in seats else "random", number * 4 + seat, options)
            for seat in range(game.players(options))]
    slowest = 0.0
    while state.to_act is not None:
        seat = state.to_act
        legal = state.legal_actions()
        started = time.process_time()
        action = bots[seat].choose(state.view(seat) if bots[seat].needs_view else None, legal)
        slowest = max(slowest, time.process_time() - started)
        assert action in legal
        state.apply(action)
    return state, slowest


@pytest.mark.slow
@pytest.mark.parametrize("level", sorted(BOTS))
@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_bot_plays_200_random_matches_without_an_illegal_action(game_name, level):
    game = GAMES[game_name]
    for number in range(MATCHES):
        state, slowest = play_match(game, level, number)
        assert state.is_over
        assert slowest < DECISION_LIMIT
