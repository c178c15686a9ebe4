"""The rule-based bots: `normal` plays each game's heuristics; `easy` is the same player who
now and then plays a random legal action instead, as a beginner does.

A rule-based decision depends only on the view and the legal actions (and the table's options,
which everybody knows), never on a random draw, except for the easy level's slips.
"""

from __future__ import annotations

import random

from gameplay.rules import get_game

from . import allfours_bot, baloot_bot, baloot_saudi_bot, cuatrola_bot

PLAYERS = {"allfours": allfours_bot.choose, "baloot": baloot_bot.choose, "cuatrola": cuatrola_bot.choose}
# A game's other modes, played by their own heuristics: (game, game_mode) -> player
MODE_PLAYERS = {("baloot", "saudi_classic"): baloot_saudi_bot.choose}
EASY_SLIP = 0.3  # how often the easy level plays a random legal action


def table_options(game_name: str, options) -> dict:
    """The table's options with every default filled in (bots read rules from them)."""
    game = get_game(game_name)
    return {**game.default_options(), **(options or {})}


def rule_choice(view: dict, legal: list[dict], options: dict, exact: bool = True) -> dict:
    """The heuristic player's action; a lone legal action needs no thought. `exact=False` is
    the search's quicker play-out policy (see the games' `read`)."""
    if len(legal) == 1:
        return legal[0]
    player = MODE_PLAYERS.get((view["game"], options.get("game_mode"))) or PLAYERS[view["game"]]
    return player(view, legal, options, exact)


class RuleBot:
    name = "normal"
    needs_view = True
    slip = 0.0

    def __init__(self, seed=None, options=None, **_):
        self.rng = random.Random(seed)
        self.given_options = options or {}
        self._options = {}

    def options_for(self, game_name: str) -> dict:
        if game_name not in self._options:
            self._options[game_name] = table_options(game_name, self.given_options)
        return self._options[game_name]

    def choose(self, view: dict, legal: list[dict]) -> dict:
        if self.slip and self.rng.random() < self.slip:
            return self.rng.choice(legal)
        return rule_choice(view, legal, self.options_for(view["game"]))


class EasyBot(RuleBot):
    name = "easy"
    slip = EASY_SLIP
