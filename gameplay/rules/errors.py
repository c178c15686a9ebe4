"""The two ways the engine says no.

`IllegalAction` is a player's mistake inside a well-formed match: the state is unchanged and the
reason is written for the player. `ScenarioError` is a malformed input (unknown game or option,
bad cards, wrong sizes): the match cannot even be set up. The command line maps them to exit
statuses 1 and 2 (docs/contracts/engine.md).
"""


class IllegalAction(ValueError):
    """An action the rules do not allow now. `str(error)` is a reason a player can read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ScenarioError(ValueError):
    """A match that cannot be set up: bad options, unknown cards, wrong hand or stock sizes."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
