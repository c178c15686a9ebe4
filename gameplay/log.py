"""Reading a match's action log and replaying it: the one way every reader (the live table's
cache, the replay page, the export) turns the stored actions into a table."""

from __future__ import annotations

from gameplay.models import Match, MatchAction
from gameplay.table import MatchSpec, Table


def spec_of(match: Match) -> MatchSpec:
    return MatchSpec(game=match.game, options=match.options, seed=match.seed,
                     first_dealer=match.first_dealer, games_to_win=match.games_to_win,
                     boards=tuple(match.boards or ()))


def log_of(match_id: int) -> list[tuple[dict, str | None]]:
    """The accepted actions in order, each with its idempotency ref (None for a server's act)."""
    return list(MatchAction.objects.filter(match_id=match_id).order_by("seq").values_list("action", "ref"))


def replay(match: Match, log: list[tuple[dict, str | None]] | None = None) -> Table:
    """The match's table after every logged action (the log is read when not given)."""
    rows = log_of(match.pk) if log is None else log
    return Table.replay(spec_of(match), [action for action, _ref in rows])
