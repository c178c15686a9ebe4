"""Which finished matches are rated (issue 9), as one pure predicate.

Rated: competition matches, and casual matches whose table was created as
rated - once finished with a result played out at the table. Not rated
(reason returned, for the match page and the audit log):

* a match with a bot in any seat (bots fill seats and replace absentees; their
  strength is not a player's);
* an abandoned match (no result);
* a walkover / forfeit (nothing was played; this includes league fixtures
  forfeited at the end of their week and Swiss/knockout no-shows);
* a casual match at a table not created as rated;
* a match with an empty seat (a player's account was deleted).

Competition matches are created by the competitions layer with ``rated=True``
on the Match row, so the Django side passes ``match.rated`` as
``rated_table`` and the flag alone decides between rated and casual. A match
lost on time (``finish == "timeout"``) was played and is rated, as a loss on
time is in FIDE-rated chess: leaving a losing table must not save a rating.

Leaderboards list every rated player and mark as provisional one whose Glicko-2
deviation is above ``LEADERBOARD_MAX_RD`` (110, lichess's threshold for a
provisional rating): everyone starts at RD 350 and a regular player gets below
110 after about fifteen rated matches. Players read the deviation as a
confidence figure (``confidence``): 0 % at the start, 100 % for a deviation of 0.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

LEADERBOARD_MAX_RD = 110.0
START_RD = 350.0  # glicko2.START_RD: a player nobody knows anything about


def confidence(rd: float) -> int:
    """How sure the rating is, in whole percent: the share of the starting deviation that the
    player's results have removed. Provisional below confidence(LEADERBOARD_MAX_RD), 69 %."""
    return max(0, min(100, round(100 * (1 - rd / START_RD))))


WELL_ESTABLISHED = 85  # confidence from which a rating reads "well established"


def confidence_level(rd: float, rated_matches: int) -> str:
    """How sure the rating is, as a word's key (the player page translates it): "unrated" before
    any rated match, "provisional" while the deviation is above LEADERBOARD_MAX_RD, then
    "established", and "well established" from WELL_ESTABLISHED %."""
    if rated_matches <= 0:
        return "unrated"
    if rd > LEADERBOARD_MAX_RD:
        return "provisional"
    return "well established" if confidence(rd) >= WELL_ESTABLISHED else "established"


@dataclass(frozen=True)
class MatchFacts:
    finished: bool
    abandoned: bool = False
    walkover: bool = False
    has_bots: bool = False
    competition: bool = False
    rated_table: bool = False
    empty_seat: bool = False


def unrated_reason(facts: MatchFacts) -> Optional[str]:
    """Why the match is not rated, or ``None`` when it is."""
    if facts.abandoned:
        return "abandoned"
    if not facts.finished:
        return "not finished"
    if facts.walkover:
        return "walkover"
    if facts.has_bots:
        return "bot seat"
    if facts.empty_seat:
        return "empty seat"
    if not (facts.competition or facts.rated_table):
        return "casual table not rated"
    return None


def is_rated(facts: MatchFacts) -> bool:
    return unrated_reason(facts) is None
