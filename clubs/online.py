"""Who is online: signed-in players with an open Chalk tab (its /ws/me/ socket), across every
ASGI process (the club page shows its members who are).

Each process knows its own tabs (MeConsumer counts them per user) and tells the shared cache
(Redis): `online:<user id>` is set for ONLINE_SECONDS when a user's first tab here opens, and
again every REFRESH_SECONDS for every user with a tab here, so a process that dies stops
counting its users within ONLINE_SECONDS. A user's last tab here closing deletes the key (a tab
of theirs in another process sets it again at that process's next refresh).
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.core.cache import cache

logger = logging.getLogger("chalk.clubs")

ONLINE_SECONDS = 75
REFRESH_SECONDS = 30

_here: set[int] = set()  # users with a tab in this process (MeConsumer keeps it)
_refresher: asyncio.Task | None = None


def key_of(user_id: int) -> str:
    return f"online:{user_id}"


def online_among(user_ids) -> set[int]:
    """Which of `user_ids` have a Chalk tab open now (one cache round trip)."""
    ids = list(user_ids)
    if not ids:
        return set()
    found = cache.get_many([key_of(user_id) for user_id in ids])
    return {user_id for user_id in ids if key_of(user_id) in found}


def _mark(user_ids) -> None:
    cache.set_many({key_of(user_id): 1 for user_id in user_ids}, timeout=ONLINE_SECONDS)


async def arrived(user_id: int) -> None:
    """A user's first tab in this process opened (MeConsumer.connect)."""
    global _refresher
    _here.add(user_id)
    await _quietly(_mark, [user_id])
    loop = asyncio.get_running_loop()
    if _refresher is None or _refresher.done() or _refresher.get_loop() is not loop:
        _refresher = loop.create_task(_refresh())


async def departed(user_id: int) -> None:
    """A user's last tab in this process closed (MeConsumer.disconnect)."""
    _here.discard(user_id)
    if not _here and _refresher is not None:
        _refresher.cancel()  # nobody left here to keep online
    await _quietly(cache.delete, key_of(user_id))


async def _refresh() -> None:
    """Every REFRESH_SECONDS while this process has tabs: its users are still online."""
    while _here:
        await asyncio.sleep(REFRESH_SECONDS)
        if _here:
            await _quietly(_mark, list(_here))


async def _quietly(call, *args) -> None:
    """The cache out of reach must not close a tab: who is online is only a courtesy."""
    try:
        await sync_to_async(call, thread_sensitive=False)(*args)
    except Exception as error:  # redis' ConnectionError and the like
        logger.warning("who is online: the cache did not answer: %s", error)
