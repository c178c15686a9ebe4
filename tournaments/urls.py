"""Pages, feeds and the API of competitions (included from config/urls.py under /competitions/)."""

from django.urls import path

from tournaments import (calendars, control_views, entry_views, export_views, life_views, report_views, seed_views,
                         views)
from tournaments.api import api

app_name = "tournaments"
urlpatterns = [
    path("", views.competition_list, name="list"),
    path("archive/", views.archive, name="archive"),
    path("notifications/", views.notifications, name="notifications"),
    path("new/<slug:club_slug>/", views.new_competition, name="new"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/standings/", views.standings_page, name="standings"),
    path("<int:pk>/bracket/", views.bracket_page, name="bracket"),
    path("<int:pk>/rounds/<int:number>/", views.round_page, name="round"),
    path("<int:pk>/rounds/<int:number>/pairings.csv", export_views.round_csv, name="round_csv"),
    path("<int:pk>/results.csv", export_views.results_csv, name="results_csv"),
    path("<int:pk>/standings.csv", export_views.standings_csv, name="standings_csv"),
    path("<int:pk>/duplicate/", views.duplicate_page, name="duplicate"),
    path("<int:pk>/boards.json", views.boards_export, name="boards_export"),
    path("<int:pk>/boards/<int:number>/", views.board_page, name="board"),
    path("<int:pk>/pairs/<int:entry_id>/", views.pair_page, name="pair"),
    path("<int:pk>/enter/", views.enter, name="enter"),
    path("<int:pk>/entries/<int:entry_id>/answer/", views.answer, name="answer"),
    path("<int:pk>/entries/<int:entry_id>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:pk>/rounds/<int:number>/remind/", entry_views.remind, name="remind"),
    path("<int:pk>/announce/", entry_views.announce, name="announce"),
    path("<int:pk>/entries/<int:entry_id>/withdraw-pair/", entry_views.withdraw_pair, name="withdraw_pair"),
    path("<int:pk>/pairings/<int:pairing_id>/check-in/", views.check_in, name="check_in"),
    path("<int:pk>/manage/", views.manage, name="manage"),
    path("<int:pk>/edit/", views.edit_competition, name="edit"),
    path("<int:pk>/seeds/", seed_views.seeds_page, name="seeds"),
    path("<int:pk>/cancel/", life_views.cancel, name="cancel"),
    path("<int:pk>/reopen/", life_views.reopen, name="reopen"),
    path("<int:pk>/delete/", life_views.delete, name="delete"),
    path("<int:pk>/run-again/", life_views.run_again, name="run_again"),
    path("<int:pk>/start-now/", control_views.start_now, name="start_now"),
    path("<int:pk>/rounds/<int:number>/move/", control_views.move_round, name="move_round"),
    path("<int:pk>/pairings/<int:pairing_id>/control/<slug:action>/", control_views.pairing_control, name="pairing_control"),
    path("<int:pk>/pairings/<int:pairing_id>/report/", report_views.report, name="report_result"),
    path("<int:pk>/pairings/<int:pairing_id>/report/<slug:answer>/", report_views.answer, name="answer_report"),
    path("calendar/club/<slug:club_slug>.ics", calendars.club_feed, name="club_calendar"),
    path("calendar/player/<str:token>.ics", calendars.player_feed, name="player_calendar"),
    path("api/", api.urls),
]
