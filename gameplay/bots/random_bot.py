"""A bot that picks uniformly among the legal actions: the floor every other bot must beat."""

import random


class RandomBot:
    name = "random"
    needs_view = False

    def __init__(self, seed=None, **_):
        self.rng = random.Random(seed)

    def choose(self, view, legal: list[dict]) -> dict:
        return self.rng.choice(legal)
