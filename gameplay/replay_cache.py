"""A finished match's replay timeline, worked out once and kept in the cache.

The replay replays every action of the match through the engine and records every step with
every hand (gameplay/archive.py): about a third of a second of one core for a long match, on
every visit. A finished match never changes (its action log is closed), so its timeline is
computed once and stored as ready JSON; the key names the match and the moment it finished, so
a match could only be cached again if it were finished again. The cache is reached through
config/soft_cache.py: with Redis out of reach the timeline is worked out on each visit instead.

The page carries only what it shows before the timeline arrives (`summary`: how many games, the
score), kept under a key of its own; replay.js fetches the timeline itself from
`timeline_response`, the same bytes for every language and visitor, which the browser keeps (a
finished match's frames never change). A long match's timeline is ~150 KB: in the page, it made
the replay the slowest main page to serve (benchmarks/pages.py) and was sent again on every
visit and in every language.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control

from config import soft_cache
from gameplay import archive, log
from gameplay.models import Match

TIMEOUT = 7 * 24 * 3600  # a week: a match's replay is read most in the days after it finished


@dataclass(frozen=True)
class ReplaySummary:
    games: int
    games_won: tuple[int, int]


@dataclass(frozen=True)
class ReplayData:
    games_json: str  # the timeline, one list of frames per game
    summary: ReplaySummary


# What a match's row must hold to find its timeline in the cache (`cache_key`); the rest is read
# only to compute a timeline the cache lacks.
KEY_FIELDS = ("finished_at",)


def cache_key(match: Match) -> str:
    # v3: the timeline holds the match-level acts (concessions, leaves, bot replacements)
    return f"replay:v3:{match.pk}:{match.finished_at.timestamp() if match.finished_at else 'none'}"


def compute(match: Match) -> ReplayData:
    spec = log.spec_of(match)
    table, acts = archive.replay_log(spec, [action for action, _ref in log.log_of(match.pk)])
    games = archive.timeline(spec, table.all_games(), acts)
    return ReplayData(orjson.dumps(games).decode(), ReplaySummary(len(games), tuple(table.games_won)))


def replay_data(match: Match) -> ReplayData:
    key = cache_key(match)
    data = soft_cache.get(key)
    if data is None:
        if match.get_deferred_fields():  # read with few fields (the timeline's view): the replay needs the whole row
            match = Match.objects.get(pk=match.pk)
        data = compute(match)
        soft_cache.set_many({key: data, f"{key}:summary": data.summary}, TIMEOUT)
    return data


def summary(match: Match) -> ReplaySummary:
    """The page's part: a few bytes to read instead of the whole timeline."""
    kept = soft_cache.get(f"{cache_key(match)}:summary")
    return kept if kept is not None else replay_data(match).summary


def timeline_response(request, match: Match) -> HttpResponse:
    """The timeline as JSON, with an ETag: a
    browser that kept it is answered 304 without the body. Kept privately, by the browser only:
    a table's watchers may change (a club made private), its frames never do."""
    etag = f'"{cache_key(match)}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(replay_data(match).games_json, content_type="application/json")
    response["ETag"] = etag
    patch_cache_control(response, private=True, max_age=24 * 3600)
    return response
