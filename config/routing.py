"""All websocket routes, gathered from the apps that own them."""

from django.urls import path

from config.consumers import EchoConsumer
from dashboard.routing import websocket_urlpatterns as dashboard_routes
from gameplay.routing import websocket_urlpatterns as gameplay_routes

websocket_urlpatterns = [
    path("ws/echo/", EchoConsumer.as_asgi()),
    *gameplay_routes,
    *dashboard_routes,
]
