"""Which finished matches are rated (issue 9), as one pure predicate.

Rated: competition matches, and casual matches whose table was created as
rated - once finished with a result played out at the table. Not rated
(reason returned, for the match page and the audit log):

* a match with a bot in any seat (bots fill seats and replace absentees; their
  strength is not a player's);
* an abandoned match (no result);
* a walkover / forfeit (nothing was played; this includes league fixtures
  forfeited at the end of their week and Swiss/knockout no-shows);
* a casual match at a table not created as rated.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class MatchFacts:
    finished: bool
    abandoned: bool = False
    walkover: bool = False
    has_bots: bool = False
    competition: bool = False
    rated_table: bool = False


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
    if not (facts.competition or facts.rated_table):
        return "casual table not rated"
    return None


def is_rated(facts: MatchFacts) -> bool:
    return unrated_reason(facts) is None
