"""Websocket routes of live play; config/asgi.py serves them under AuthMiddlewareStack.

The live-play issue adds the table consumer here, e.g.
    path("ws/matches/<int:match_id>/", TableConsumer.as_asgi())
"""

websocket_urlpatterns = []
