"""CSV downloads of a competition's pairings, results and standings (thin: tournaments/exports.py
builds the tables). Anyone who may follow the competition may download them."""

from django.shortcuts import get_object_or_404

from tournaments import exports, pages
from tournaments.models import Round
from tournaments.views import followable


def round_csv(request, pk, number):
    competition = followable(request, pk)
    round_row = get_object_or_404(Round, competition=competition, number=number)
    header, rows = exports.pairings_table(competition, round_row)
    return exports.csv_response(competition, f"round-{number}", header, rows)


def results_csv(request, pk):
    competition = followable(request, pk)
    header, rows = exports.results_table(competition)
    return exports.csv_response(competition, "results", header, rows)


def standings_csv(request, pk):
    competition = followable(request, pk)
    header, rows = exports.standings_table(competition, pages.standings_rows(competition))
    return exports.csv_response(competition, "standings", header, rows)
