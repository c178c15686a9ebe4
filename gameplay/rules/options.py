"""Variant options: each game declares its options once; matches get a validated, complete dict.

An unknown option or a bad value is a `ScenarioError` with a sentence that names the option and
what it accepts, so a form or a scenario author can fix it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import ScenarioError


@dataclass(frozen=True)
class Option:
    key: str
    default: Any
    choices: tuple = ()  # the allowed values, when they are a closed list
    check: Callable[[Any], bool] | None = None  # a test for open-ended values
    expects: str = ""  # what the check accepts, in words
    help: str = ""

    def validate(self, value):
        if self.choices:
            # bool is an int in Python: keep True from passing for 1 (and 1 for True).
            if not any(value == c and type(value) is type(c) for c in self.choices):
                allowed = ", ".join(repr(c) for c in self.choices)
                raise ScenarioError(f"option {self.key!r} must be one of {allowed}; got {value!r}")
        elif self.check is not None and not self.check(value):
            raise ScenarioError(f"option {self.key!r} must be {self.expects}; got {value!r}")
        return value


def positive_int(value) -> bool:
    return type(value) is int and value > 0


TIMEOUT_RESULT = Option(
    "timeout_result", "forfeit_match", ("forfeit_match", "auto_action"),
    help="What a server clock timeout does: the seat's team loses the match, or the engine "
         "plays a deterministic default move for the seat.")


def resolve(specs: list[Option], given) -> dict:
    """Every option of the game, defaults filled in, each value checked."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise ScenarioError(f"options must be an object, got {given!r}")
    known = {o.key: o for o in specs}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ScenarioError(f"unknown option {unknown[0]!r}; known options: {', '.join(known)}")
    return {o.key: o.validate(given[o.key]) if o.key in given else o.default for o in specs}
