from django.urls import path

from . import views

app_name = "ratings"
urlpatterns = [
    path("", views.index, name="index"),
    path("players/<str:username>/", views.player, name="player"),
    path("<slug:game>/", views.leaderboard, name="leaderboard"),
    path("<slug:game>/clubs/<slug:club>/", views.leaderboard, name="club_leaderboard"),
]
