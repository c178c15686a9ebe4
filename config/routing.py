"""All websocket routes, gathered from the apps that own them."""

from gameplay.routing import websocket_urlpatterns as gameplay_routes

websocket_urlpatterns = [*gameplay_routes]
