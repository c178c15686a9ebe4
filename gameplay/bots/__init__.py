"""Bots: they see only a seat's view and its legal actions, like a human at the table.

`BOTS` maps a name to a bot class; `get_bot(name, seed, options)` makes one. A bot has
`choose(view, legal)` and says with `needs_view` whether it reads the view (building a view costs
time, and the random bot does not look at it). `options` are the table's rule options, which every
player knows; bots that reason about the rules read them. `LEVELS` are the names a person picks.

- random: a random legal action (the floor every other bot must beat);
- easy: the rule-based player with some random slips;
- normal: the rule-based player (docs/bots.md lists its heuristics);
- strong: determinized Monte Carlo search over the engine, ~200 ms a decision.
"""

from gameplay.rules.errors import ScenarioError

from .random_bot import RandomBot
from .rule_bot import EasyBot, RuleBot
from .search_bot import SearchBot

BOTS = {bot.name: bot for bot in (RandomBot, EasyBot, RuleBot, SearchBot)}
LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"


def get_bot(name: str, seed=None, options=None, **settings):
    bot_class = BOTS.get(name)
    if bot_class is None:
        raise ScenarioError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")
    return bot_class(seed, options=options, **settings)
