"""Replay a scenario (docs/contracts/engine.md, 'Scenario format') into the contract's result object."""

from __future__ import annotations

from .errors import IllegalAction, ScenarioError

OK, REJECTED, MALFORMED = 0, 1, 2

SCENARIO_KEYS = {"game", "options", "dealer", "start_score", "deals", "actions", "seed", "name",
                 "description", "title", "notes", "comment",
                 "score_sheet"}  # what Chalk's export adds for people: read by no replay (engine.md)


def replay(scenario) -> tuple[dict, int]:
    """The result object and the exit status: 0 ran clean, 1 an action was rejected, 2 malformed."""
    from . import get_game

    try:
        state, actions = _set_up(scenario, get_game)
    except ScenarioError as error:
        result = {"deals": [], "score": None, "winner": None, "to_act": None,
                  "error": {"index": None, "reason": error.reason}}
        return result, MALFORMED
    error, status = None, OK
    for index, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as rejected:
            error, status = {"index": index, "reason": rejected.reason}, REJECTED
            break
    return result_of(state, error), status


def _set_up(scenario, get_game):
    if not isinstance(scenario, dict):
        raise ScenarioError("a scenario must be a JSON object")
    unknown = sorted(set(scenario) - SCENARIO_KEYS)
    if unknown:  # a typo such as "option" must not be silently ignored
        raise ScenarioError(f"unknown scenario key {unknown[0]!r}; a scenario has "
                            + ", ".join(sorted(SCENARIO_KEYS)))
    game = get_game(scenario.get("game"))
    if "deals" not in scenario and "seed" not in scenario:
        raise ScenarioError("a scenario needs deals (or a seed)")
    actions = scenario.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("actions must be a list")
    state = game.start(seed=scenario.get("seed"), options=scenario.get("options"),
                       dealer=scenario.get("dealer", 0), deals=scenario.get("deals"),
                       start_score=scenario.get("start_score"))
    return state, actions


def result_of(state, error=None) -> dict:
    return {
        "deals": [{"delta": list(r["delta"]), "score": list(r["score"]), "detail": r["detail"]}
                  for r in state.deal_records],
        "score": list(state.score),
        "winner": state.winner,
        "to_act": state.to_act,
        "error": error,
    }
