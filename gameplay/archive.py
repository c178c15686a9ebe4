"""The archive of a finished match: its timeline with every hand shown, and its scenario export.

Pure over the engine (no ORM): `timeline(spec, games)` replays each game of a match one action
at a time from its first deal and records, at every step, the public view plus every seat's hand
(from `card_places()`). The replay page hands it to static/js/replay.js. Only for finished
matches: the timeline shows every hidden card.
"""

from __future__ import annotations

from gameplay.rules import get_game
from gameplay.table import MatchSpec

# Parts of the public view the stepper does not need at every step (they repeat or grow).
DROPPED = ("deals", "legal", "hand", "played", "tricks", "seat", "match")


def game_start(spec: MatchSpec, number: int):
    """Game `number` of a match at its first deal, as gameplay.table.Table starts it."""
    engine = get_game(spec.game)
    players = engine.players(engine.resolve_options(spec.options))
    return engine.start(seed=spec.seed + number, options=spec.options,
                        dealer=(spec.first_dealer + number) % players)


def frame(state, action, deck) -> dict:
    view = state.view(None)
    places = state.card_places()
    hands = [deck.codes_of_mask(places.get(f"hand{seat}", 0)) for seat in range(state.players)]
    record = view["deals"][-1] if view["deals"] and any(e["kind"] == "deal_over" for e in view["events"]) else None
    for key in DROPPED:
        view.pop(key, None)
    return {"action": action, "view": view, "hands": hands, "deal_record": record}


def game_timeline(spec: MatchSpec, number: int, actions: list[dict]) -> list[dict]:
    state = game_start(spec, number)
    deck = state.game.deck
    frames = [frame(state, None, deck)]
    for action in actions:
        state.apply(dict(action))
        frames.append(frame(state, action, deck))
    return frames


def timeline(spec: MatchSpec, games: list) -> list[list[dict]]:
    """One list of frames per game; `games` are the engine states of `Table.all_games()`."""
    return [game_timeline(spec, number, game.actions) for number, game in enumerate(games)]


def scenario(games: list, number: int) -> dict | None:
    """Game `number` as a contract scenario (None when there is no such game)."""
    if not 0 <= number < len(games):
        return None
    return games[number].scenario()
