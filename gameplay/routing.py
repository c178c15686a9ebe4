"""Websocket routes of live play; config/asgi.py serves them under AuthMiddlewareStack."""

from django.urls import path

from gameplay.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi()),
]
