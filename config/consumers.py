"""A tiny websocket endpoint that proves the live stack end to end.

/ws/echo/ answers each JSON message through the channel layer (publish to a group, receive on
this socket), with the user the session cookie authenticated. Tests use it to check uvicorn,
AuthMiddlewareStack, the origin check and the Redis pub/sub layer together; live play has its
own consumer in gameplay/.
"""

from channels.generic.websocket import AsyncJsonWebsocketConsumer


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
