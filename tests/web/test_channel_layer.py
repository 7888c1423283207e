"""The single process's channel layer: Channels' in-memory layer, cleaning less often."""

import asyncio

from cardgames.layers import ThriftyInMemoryChannelLayer


async def test_messages_still_arrive_and_expired_ones_are_still_dropped():
    layer = ThriftyInMemoryChannelLayer(expiry=0.05)
    layer.clean_every = 0.2
    await layer.send("table.inmemory!a", {"type": "game.changed", "version": 1})
    assert await layer.receive("table.inmemory!a") == {"type": "game.changed", "version": 1}
    await layer.send("table.inmemory!b", {"type": "game.changed", "version": 2})
    await layer.group_add("game.x", "table.inmemory!b")
    await asyncio.sleep(0.3)
    # The next receive (any channel's) drops the expired message, and its channel leaves its
    # groups, as Channels' own layer does.
    waiting = asyncio.create_task(layer.receive("table.inmemory!c"))
    await asyncio.sleep(0)
    assert "table.inmemory!b" not in layer.channels
    assert "table.inmemory!b" not in layer.groups.get("game.x", {})
    await layer.send("table.inmemory!c", {"type": "game.changed", "version": 3})
    assert (await waiting)["version"] == 3
