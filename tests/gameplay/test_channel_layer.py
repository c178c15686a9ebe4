"""The channel layer (tuning/channel_layer.py) on the tests' real Redis: a move's frames are
published without waiting for a socket that is subscribing or leaving, and still arrive."""

import asyncio
import uuid

from django.conf import settings

from tuning.channel_layer import ChalkChannelLayer


def fresh_layer() -> ChalkChannelLayer:
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    return ChalkChannelLayer(hosts=config["hosts"], prefix=f"test-layer-{uuid.uuid4().hex[:8]}")


def test_a_publish_does_not_wait_for_a_subscription_in_progress():
    async def scenario():
        layer = fresh_layer()
        reader = await layer.new_channel()
        await layer.group_add("table", reader)
        shard = layer._get_layer()._shards[0]
        async with shard._lock:  # a socket's SUBSCRIBE or UNSUBSCRIBE is under way
            await asyncio.wait_for(layer.group_send("table", {"type": "match.update", "seq": 7}), timeout=2)
        message = await asyncio.wait_for(layer.receive(reader), timeout=2)
        await layer.group_discard("table", reader)
        await layer.flush()
        return message

    assert asyncio.run(scenario()) == {"type": "match.update", "seq": 7}


def test_many_publishes_at_once_stay_within_the_pool_and_all_arrive():
    async def scenario():
        layer = fresh_layer()
        reader = await layer.new_channel()
        await layer.group_add("table", reader)
        await asyncio.gather(*(layer.group_send("table", {"type": "match.update", "seq": n}) for n in range(100)))
        seqs = {(await asyncio.wait_for(layer.receive(reader), timeout=2))["seq"] for _ in range(100)}
        await layer.flush()
        return seqs

    assert asyncio.run(scenario()) == set(range(100))  # none failed with "too many connections"
