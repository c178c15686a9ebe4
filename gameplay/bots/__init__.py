"""Bots: they see only a seat's view and its legal actions, like a human at the table.

`BOTS` maps a name to a bot class; `get_bot(name, seed)` makes one. A bot has `choose(view, legal)`
and says with `needs_view` whether it reads the view (building a view costs time, and the random
bot does not look at it).
"""

from gameplay.rules.errors import ScenarioError

from .random_bot import RandomBot

BOTS = {RandomBot.name: RandomBot}


def get_bot(name: str, seed=None):
    bot_class = BOTS.get(name)
    if bot_class is None:
        raise ScenarioError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")
    return bot_class(seed)
