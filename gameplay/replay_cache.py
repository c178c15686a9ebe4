"""A finished match's replay timeline, worked out once and kept in the cache.

The replay page replays every action of the match through the engine and records every step
with every hand (gameplay/archive.py): about a third of a second of one core for a long match,
on every visit. A finished match never changes (its action log is closed), so its timeline is
computed once and stored as ready JSON, escaped for a <script type="application/json"> block;
the key names the match and the moment it finished, so a match could only be cached again if
it were finished again. What may change (names, labels in the reader's language) is added per
request around it.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
from django.core.cache import cache
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from gameplay import archive, log
from gameplay.models import Match

TIMEOUT = 7 * 24 * 3600  # a week: a match's replay is read most in the days after it finished


def escape_for_script(text: str) -> str:
    """What json_script escapes, with str.replace: str.translate took ~25 ms on a long match."""
    return text.replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026")


@dataclass(frozen=True)
class ReplayData:
    games_json: str  # the timeline, one list of frames per game, escaped for a script block
    games: int
    games_won: tuple[int, int]


def cache_key(match: Match) -> str:
    return f"replay:v1:{match.pk}:{match.finished_at.timestamp() if match.finished_at else 'none'}"


def compute(match: Match) -> ReplayData:
    table = log.replay(match)
    games = archive.timeline(log.spec_of(match), table.all_games())
    return ReplayData(escape_for_script(orjson.dumps(games).decode()), len(games), tuple(table.games_won))


def replay_data(match: Match) -> ReplayData:
    key = cache_key(match)
    data = cache.get(key)
    if data is None:
        data = compute(match)
        cache.set(key, data, TIMEOUT)
    return data


def boot_script(element_id: str, boot: dict, data: ReplayData):
    """`boot` plus the cached timeline as "games", in a JSON script block (like json_script)."""
    text = orjson.dumps({**boot, "games": orjson.Fragment(data.games_json)}).decode()
    return format_html('<script id="{}" type="application/json">{}</script>', element_id,
                       mark_safe(escape_for_script(text)))
