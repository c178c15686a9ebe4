"""Chalk's rules engine: pure Python, deterministic, no Django (docs/contracts/engine.md).

    from gameplay.rules import get_game
    state = get_game("allfours").start(seed=7)
    while not state.is_over:
        state.apply(state.legal_actions()[0])

Games are looked up by name in `GAMES`; adding a game is one module and one line here.
"""

from .errors import IllegalAction, ScenarioError
from .base import Game, MatchState
from .allfours import ALL_FOURS
from .baloot_game import BALOOT
from .cuatrola import CUATROLA_GAME

GAMES: dict[str, Game] = {
    ALL_FOURS.name: ALL_FOURS,
    BALOOT.name: BALOOT,
    CUATROLA_GAME.name: CUATROLA_GAME,
}


def get_game(name: str) -> Game:
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise ScenarioError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    return game


__all__ = ["GAMES", "get_game", "Game", "MatchState", "IllegalAction", "ScenarioError"]
