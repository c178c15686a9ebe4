"""The channel layer: channels_redis's pub/sub layer, with publishes that do not queue.

channels_redis 4.3 sends every PUBLISH of a process under one asyncio lock per Redis shard, the
lock its SUBSCRIBE and UNSUBSCRIBE also take. A move's frames are one publish, so every move of
every table in the process waited in one line behind each socket that connected or left, one
event-loop turn per place in the line. Under a soak (200 tables, players arriving and leaving,
page traffic on the same core) that line grew to seconds: `act` -> `ack` p50 4-8 s while the
server's core was half idle (benchmarks/soak.py --timing: the write 23 ms, the publish the rest).

A publish needs no lock: it is one command on a connection of the shard's pool, not on the
subscription connection whose state the lock protects. Here publishes go straight to the pool,
at most PUBLISH_CONCURRENCY at a time (the pool is capped, and a command beyond its cap would
fail rather than wait). Frames of one match stay in order: its next move is made only after its
previous publish has returned (a player acts on the frame it carried).
"""

from __future__ import annotations

import asyncio

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisSingleShardConnection

# The shard's pool also holds its subscription connection; leave room for it and a spare.
POOL_HEADROOM = 2


class UnqueuedPublishShard(RedisSingleShardConnection):
    def __init__(self, host, channel_layer):
        super().__init__(host, channel_layer)
        cap = host.get("max_connections") or 16
        self._publishing = asyncio.Semaphore(max(1, cap - POOL_HEADROOM))

    async def publish(self, channel, message):
        self._ensure_redis()  # synchronous: no other coroutine can run between check and create
        async with self._publishing:
            await self._redis.publish(channel, message)


class ChalkChannelLayer(RedisPubSubChannelLayer):
    """RedisPubSubChannelLayer whose shards publish without the subscription lock (the layer
    makes one inner layer per event loop; its shards are swapped before their first use)."""

    def _get_layer(self):
        layer = super()._get_layer()
        if not all(isinstance(shard, UnqueuedPublishShard) for shard in layer._shards):
            layer._shards = [UnqueuedPublishShard(shard.host, layer) for shard in layer._shards]
        return layer
