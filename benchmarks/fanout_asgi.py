"""The bare fan-out baseline for benchmarks/live_load.py: a Channels consumer with no engine and no DB.

    uvicorn benchmarks.fanout_asgi:application --host 127.0.0.1 --port 8765

`/ws/fanout/<table>/` joins the table's group; every JSON message a socket sends is published
with `group_send` to that group, and each of the group's sockets forwards it to its client. That
is the least a live card table can do per move (one publish, four frames out), so it is the
ceiling Chalk's full path (engine, PostgreSQL write-through, per-seat views) is compared with.

Same stack as Chalk's server: uvicorn, Channels' AsyncJsonWebsocketConsumer and the
RedisPubSubChannelLayer on REDIS_URL (default redis://127.0.0.1:6379/3), with its own prefix and
its own minimal settings (no apps, no database, no middleware).
"""

import os

import django
from django.conf import settings

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/3")

if not settings.configured:
    settings.configure(
        DEBUG=False,
        SECRET_KEY="fanout-benchmark-only",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        INSTALLED_APPS=["channels"],
        DATABASES={},
        USE_TZ=True,
        CHANNEL_LAYERS={
            "default": {
                # The same layer and options as config/settings.py, on the same Redis.
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 16}], "prefix": "chalkbare"},
            },
        },
        LOGGING_CONFIG=None,
    )
    django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class FanoutConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.group = f"fanout-{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.channel_layer.group_send(self.group, {"type": "fan.out", "frame": content})

    async def fan_out(self, event):
        await self.send_json(event["frame"])


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/fanout/<int:table>/", FanoutConsumer.as_asgi())]),
})
