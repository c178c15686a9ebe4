"""/ws/me/: a signed-in player's own socket, one per open Chalk tab (see home.alerts).

It only listens: the server pushes `table_opened` and `notifications` frames; anything a client
sends gets an error frame. A process accepts at most MAX_TABS sockets per user, so a runaway
page cannot pile them up; each leaves its group when it closes. A user's tabs make them online
(clubs/online.py: the club page shows its members who are).
"""

from collections import Counter

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from home import alerts
from home.queries import unread_notifications
from clubs import online

CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY = 4429
MAX_TABS = 20

_open_tabs: Counter = Counter()


class MeConsumer(AsyncJsonWebsocketConsumer):
    user_id = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if _open_tabs[user.pk] >= MAX_TABS:
            await self.close(code=CLOSE_TOO_MANY)
            return
        self.user_id = user.pk
        _open_tabs[user.pk] += 1
        if _open_tabs[user.pk] == 1:
            await online.arrived(user.pk)  # who is online (the club page)
        await self.channel_layer.group_add(alerts.group_of(user.pk), self.channel_name)
        await self.accept()
        count = await database_sync_to_async(unread_notifications)(user)
        await self.send_json({"type": "notifications", "count": count})

    async def disconnect(self, code):
        if self.user_id is None:
            return
        await self.channel_layer.group_discard(alerts.group_of(self.user_id), self.channel_name)
        _open_tabs[self.user_id] -= 1
        if _open_tabs[self.user_id] <= 0:
            del _open_tabs[self.user_id]
            await online.departed(self.user_id)
        self.user_id = None

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        await self.send_json({"type": "error", "code": "bad_request", "message": "This socket only listens."})

    async def me_alert(self, event):
        await self.send_json(event["data"])
