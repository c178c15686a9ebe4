"""Players' pages: the dashboard's in-place actions and the how-to-play help."""

from django.urls import path

from home import views

app_name = "dashboard"
urlpatterns = [
    path("me/invitations/<int:place_id>/answer/", views.answer_invitation, name="answer_invitation"),
    path("me/clubs/<int:invitation_id>/answer/", views.answer_club_invitation, name="answer_club_invitation"),
    path("me/tables/<int:match_id>/answer/", views.answer_table_invitation, name="answer_table_invitation"),
    path("help/", views.help_index, name="help"),
    path("help/<slug:game>/", views.how_to_play, name="how_to_play"),
]
