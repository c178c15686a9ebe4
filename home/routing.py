"""The per-user socket's route; config/routing.py lists it."""

from django.urls import path

from home.consumers import MeConsumer

websocket_urlpatterns = [
    path("ws/me/", MeConsumer.as_asgi()),
]
