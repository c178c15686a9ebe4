"""The production ASGI application plus /ws/echo/, a route that exists only in tests.

/ws/echo/ answers each JSON message through the channel layer (publish to a group, receive on
this socket), with the user the session cookie authenticated: it proves uvicorn, the session,
the origin check and the Redis pub/sub layer together. The live server of the tests serves this
application (tests/conftest.py); production has no such route (an anonymous echo with no rate
limit is a free amplifier), so it is refused there like any unknown path.
"""

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.routing import ProtocolTypeRouter
from django.urls import path

from config.asgi import django_asgi_app
from config.lifespan import lifespan
from config.routing import websocket_urlpatterns
from config.websockets import websocket_application


class EchoConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.group = f"echo.{self.channel_name.rsplit('!', 1)[-1].replace('.', '-')}"[:90]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "data": content})

    async def echo_message(self, event):
        user = self.scope["user"]
        await self.send_json(
            {"type": "echo", "data": event["data"], "user": user.get_username() if user.is_authenticated else None}
        )


application = ProtocolTypeRouter({
    "http": django_asgi_app,
    "websocket": websocket_application([path("ws/echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns]),
    "lifespan": lifespan,
})
