"""The read-only JSON API (django-ninja): clubs, competitions, standings, brackets and matches.

OpenAPI schema at /competitions/api/openapi.json (no Swagger page: it would load its scripts from
a CDN, and Chalk serves no third-party scripts).
Only what a visitor could see on the pages: public clubs' public competitions.

Every error is JSON, `{"detail": ...}` (ErrorOut), and the schema lists it for each operation: 400
for a malformed query, 404 for a path that names nothing. Errors given before the API sees the
request (the request guard, an unknown path, a wrong method) are made JSON by
config/api_errors.py.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Optional, Union

from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import NinjaAPI, Schema
from ninja.errors import ValidationError

from clubs.models import Club
from tournaments import pages
from tournaments.models import Competition

class CompetitionsAPI(NinjaAPI):
    """Mounted inside the `tournaments` URL namespace (tournaments/urls.py), so its root is
    reversed there."""

    def get_root_path(self, path_params):
        return reverse(f"tournaments:{self.urls_namespace}:api-root", kwargs=path_params)


api = CompetitionsAPI(title="Chalk competitions", version="1", urls_namespace="competitions-api", docs_url=None,
               description="Read-only: clubs, competitions, standings, brackets and matches.")


@api.exception_handler(ValidationError)
def malformed_request(request, error):
    """A malformed id in the path names nothing (404); a malformed query is the client's error
    (400). Ninja's default 422 is neither of the answers the site gives for a bad URL."""
    in_path = any(detail.get("loc", [None])[0] == "path" for detail in error.errors)
    return api.create_response(request, {"detail": error.errors}, status=404 if in_path else 400)


class ErrorOut(Schema):
    """An error: the status's reason ("Not Found"), or for a malformed parameter what is wrong with
    it (pydantic's list: type, loc, msg)."""
    detail: Union[str, list[dict[str, Any]]]


ERRORS = {400: ErrorOut, 404: ErrorOut}  # every operation: a malformed query, a path naming nothing


def answers(success) -> dict:
    return {200: success, **ERRORS}


class ClubOut(Schema):
    slug: str
    name: str
    description: str
    home_games: list[str]


class CompetitionOut(Schema):
    id: int
    club: str
    name: str
    game: str
    format: str
    status: str
    preset: str
    options: dict
    best_of: int
    time_control: int
    starts_at: datetime
    finished_at: Optional[datetime]


class StandingOut(Schema):
    rank: int
    entry: int
    pair: str
    played: int
    won: int
    drawn: int
    lost: int
    points: float
    games_for: int
    games_against: int
    tiebreaks: list


class MatchOut(Schema):
    id: int
    round: int
    slot: int
    bracket: str
    label: str
    home: int
    home_pair: str
    away: Optional[int]
    away_pair: Optional[str]
    winner: Optional[int]
    home_points: int
    away_points: int
    result: str
    walkover: bool
    table: Optional[int]


def _competition_out(c: Competition) -> dict:
    return {"id": c.pk, "club": c.club.slug, "name": c.name, "game": c.game, "format": c.format,
            "status": c.status, "preset": c.preset, "options": c.options, "best_of": c.best_of,
            "time_control": c.time_control, "starts_at": c.starts_at, "finished_at": c.finished_at}


def _public():
    return Competition.objects.filter(visibility=Competition.Visibility.PUBLIC, club__is_public=True)


def _match_out(p) -> dict:
    return {"id": p.pk, "round": p.round_number, "slot": p.slot, "bracket": p.bracket, "label": p.label,
            "home": p.home_id, "home_pair": p.home.name, "away": p.away_id,
            "away_pair": p.away.name if p.away_id else None, "winner": p.winner_id,
            "home_points": p.home_points, "away_points": p.away_points, "result": p.source,
            "walkover": p.walkover, "table": p.match_id}


@api.get("/clubs", response=answers(list[ClubOut]), tags=["clubs"])
def clubs(request):
    return list(Club.objects.filter(is_public=True).order_by("name"))


@api.get("/competitions", response=answers(list[CompetitionOut]), tags=["competitions"])
def competitions(request, club: str = "", game: str = "", status: str = ""):
    query = _public().select_related("club")
    if club:
        query = query.filter(club__slug=club)
    if game:
        query = query.filter(game=game)
    if status:
        query = query.filter(status=status)
    return [_competition_out(c) for c in query[:200]]


@api.get("/competitions/{competition_id}", response=answers(CompetitionOut), tags=["competitions"])
def competition(request, competition_id: int):
    return _competition_out(get_object_or_404(_public().select_related("club"), pk=competition_id))


@api.get("/competitions/{competition_id}/standings", response=answers(list[StandingOut]), tags=["competitions"])
def standings(request, competition_id: int):
    found = get_object_or_404(_public(), pk=competition_id)
    return [{"rank": s.rank, "entry": s.entry_id, "pair": s.entry.name, "played": s.played, "won": s.won,
             "drawn": s.drawn, "lost": s.lost, "points": s.points, "games_for": s.games_for,
             "games_against": s.games_against, "tiebreaks": s.tiebreaks} for s in pages.standings_rows(found)]


@api.get("/competitions/{competition_id}/matches", response=answers(list[MatchOut]), tags=["competitions"])
def matches(request, competition_id: int, round: Optional[int] = None):
    found = get_object_or_404(_public(), pk=competition_id)
    filters = {"round_number": round} if round else {}
    return [_match_out(p) for p in pages.pairings_with_names(found, **filters)]


@api.get("/competitions/{competition_id}/bracket", response=answers(dict[str, list[list[MatchOut]]]),
         tags=["competitions"])
def bracket(request, competition_id: int):
    """Matches grouped by bracket, then by round (in round order)."""
    found = get_object_or_404(_public(), pk=competition_id)
    grouped: dict[str, dict[int, list]] = {}
    for p in pages.pairings_with_names(found):
        grouped.setdefault(p.bracket, {}).setdefault(p.round_number, []).append(_match_out(p))
    return {name: [rounds[n] for n in sorted(rounds)] for name, rounds in grouped.items()}
