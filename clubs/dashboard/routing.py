"""The per-user socket's route; config/routing.py lists it."""

from django.urls import path

from clubs.dashboard.consumers import MeConsumer

websocket_urlpatterns = [
    path("ws/me/", MeConsumer.as_asgi()),
]
