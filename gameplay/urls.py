"""Pages of live play (the websocket route is in gameplay/routing.py)."""

from django.urls import path

from gameplay import views

app_name = "gameplay"
urlpatterns = [
    path("play/", views.lobby, name="lobby"),
    path("play/new/", views.new_table, name="new"),
    path("play/now/", views.play_now, name="play_now"),
    path("play/now/status/", views.play_now_status, name="play_now_status"),
    path("play/now/leave/", views.play_now_leave, name="play_now_leave"),
    path("matches/", views.archive_list, name="archive"),
    path("matches/join/<str:code>/", views.join, name="join"),
    path("matches/<int:match_id>/", views.table, name="table"),
    path("matches/<int:match_id>/bots/", views.fill_with_bots, name="fill_with_bots"),
    path("matches/<int:match_id>/seats/<int:seat>/withdraw/", views.withdraw_invitation, name="withdraw_invitation"),
    path("matches/<int:match_id>/replay/", views.replay, name="replay"),
    path("matches/<int:match_id>/replay/timeline.json", views.replay_timeline, name="replay_timeline"),
    path("matches/<int:match_id>/export.json", views.export, name="export"),
]
