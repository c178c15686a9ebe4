"""Baloot as one game with two modes: the contract variant (`baloot.py`, docs/rules/baloot.md) and
classic Saudi Baloot (`baloot_saudi.py`, docs/rules/baloot_saudi.md), chosen by option `game_mode`.

Both modes share the deck, the deal sizes, the target and the options common to both; each mode
has options of its own, which the other mode accepts only at their defaults (baloot_saudi.md 2.1).
Ratings and archives treat both as the one game "baloot".
"""

from __future__ import annotations

from .base import Game
from .baloot import CONTRACT_ONLY, DECK, OPTIONS, PRESETS, BalootState, _match_winner
from .baloot_saudi import SAUDI_OPTIONS, SAUDI_PRESETS, SaudiState
from .errors import ScenarioError

CONTRACT, SAUDI = "contract", "saudi_classic"
SAUDI_ONLY = tuple(o.key for o in SAUDI_OPTIONS)
NOT_IN_MODE = {CONTRACT: SAUDI_ONLY, SAUDI: CONTRACT_ONLY}
STATES = {CONTRACT: BalootState, SAUDI: SaudiState}


class BalootGame(Game):
    name = "baloot"
    title = "Baloot"
    deck = DECK
    options_spec = OPTIONS + SAUDI_OPTIONS
    # "Saudi classic" first: the default preset of new tables and competitions
    presets = {**SAUDI_PRESETS, **PRESETS}
    state_class = BalootState

    def resolve_options(self, given) -> dict:
        options = super().resolve_options(given)
        mode = options["game_mode"]
        defaults = self.default_options()
        for key in NOT_IN_MODE[mode]:
            if options[key] != defaults[key]:
                raise ScenarioError(f"option {key!r} does not exist in game_mode {mode!r}; "
                                    f"leave it at {defaults[key]!r}")
        return options

    def state_class_for(self, options: dict) -> type:
        return STATES[options["game_mode"]]

    def modes(self) -> dict[str, dict]:
        return {CONTRACT: {}, SAUDI: {"game_mode": SAUDI}}

    def options_in_mode(self, mode: str) -> list:
        hidden = NOT_IN_MODE.get(mode or CONTRACT, ())
        return [o for o in self.options_spec if o.key not in hidden]

    def deal_sizes(self, options: dict) -> tuple[list[int], int]:
        return [5] * 4, 12  # R3.2, R3.4; S3.2, S3.3

    def target(self, options: dict) -> int:
        return options["target_score"]

    def _check_start_score(self, start_score, options) -> list[int]:
        """Any score that has not already won: 151 is a legal start under 'more than 151'."""
        if start_score is None:
            return [0, 0]
        if (not isinstance(start_score, list) or len(start_score) != 2
                or any(type(s) is not int or s < 0 for s in start_score)
                or _match_winner(start_score, options) is not None):
            raise ScenarioError("start_score must be two whole numbers from 0 that have not "
                                "already won the match")
        return list(start_score)


BALOOT = BalootGame()
