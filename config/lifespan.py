"""The ASGI lifespan protocol: at shutdown the server's event loop closes what it opened on
itself (the loop's PostgreSQL pool, gameplay/live_db.py) while it can still run its tasks.

uvicorn's default `--lifespan auto` calls it; a server without lifespan support still closes
the pool when its loop shuts down (live_db ties the pool to the loop's async generators)."""

from gameplay import live_db


async def lifespan(scope, receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await live_db.close_loop_pool()
            await send({"type": "lifespan.shutdown.complete"})
            return
