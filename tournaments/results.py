"""Whether a result typed by the organiser can be the result of a match of this format (pure).

A pairing's points are games won; a best-of-N match ends when a pair has won (N + 1) // 2 games, so
no pair wins more, both cannot reach it, and the winner has won more games than the loser. "Nobody"
(a draw or a double forfeit, never in a knockout) has both pairs on the same number of games."""

from __future__ import annotations

from django.utils.translation import gettext as _


def result_errors(games_to_win: int, winner: str, home: int, away: int, draw_allowed: bool) -> dict[str, str]:
    """Field name -> why the result is impossible ({} when it can be). `winner` is home, away or none."""
    errors = {}
    for field, games in (("home_points", home), ("away_points", away)):
        if games > games_to_win:
            errors[field] = (_("In a one-game match a pair wins at most one game.") if games_to_win == 1 else
                             _("The match ends when a pair has won %(n)s games: no pair wins more.") % {
                                 "n": games_to_win})
    if errors:
        return errors
    if home == away == games_to_win:
        return {"away_points": _("Both pairs cannot win the match: only one reaches %(n)s.") % {"n": games_to_win}}
    if winner == "none":
        if not draw_allowed:
            return {"winner": _("A knockout match needs a winner.")}
        if home != away:
            return {"winner": _("With no winner (a draw or a double forfeit) both pairs have won the same number of "
                                "games.")}
        return {}
    won, lost, field = (home, away, "home_points") if winner == "home" else (away, home, "away_points")
    if won <= lost:
        return {field: _("The winner must have won more games than the other pair.")}
    return {}
