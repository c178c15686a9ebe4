"""All websocket routes, gathered from the apps that own them (config/websockets.py wraps them
with the origin check and refuses every other path)."""

from home.routing import websocket_urlpatterns as dashboard_routes
from gameplay.routing import websocket_urlpatterns as gameplay_routes

websocket_urlpatterns = [
    *gameplay_routes,
    *dashboard_routes,
]
