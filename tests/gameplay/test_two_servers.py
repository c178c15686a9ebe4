"""Tables served by two server processes at once: seats 0 and 2 talk to one uvicorn, seats 1
and 3 and a spectator to another, both on the same database and Redis. Each process caches
tables and moves them with its own writes, so every move of the other process leaves its
cache behind; the action log must still be the only truth (protocol.md guarantees; docs/design.md
"any process can serve any table")."""

import asyncio
import random

import pytest

from gameplay.models import Match, MatchAction

from .test_live_leaks import assert_no_frame_leaks, make_tables, play_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TABLES = {"allfours": {"target_score": 3}, "baloot": {"target_score": 20}, "cuatrola": {"target": 2}}
PER_GAME = 4


async def play_on_two_servers(first, second, table: dict, rng: random.Random) -> list:
    frames: list = []
    clients = []
    for seat in table["seats"]:
        server = first if seat["seat"] % 2 == 0 else second
        headers = {"Origin": server.url, "Cookie": seat["cookie"]}
        clients.append(play_seat(server.ws_url + table["ws"], headers, seat["seat"], rng, frames))
    clients.append(play_seat(second.ws_url + table["ws"], {"Origin": second.url}, None, rng, frames))
    await asyncio.wait_for(asyncio.gather(*clients), timeout=300)
    return frames


@pytest.mark.timeout(600)
def test_a_table_served_by_two_processes_keeps_one_log_and_leaks_nothing(live_asgi_server,
                                                                         second_live_asgi_server):
    tables = []
    for game, options in TABLES.items():
        tables += make_tables(game, PER_GAME, options, prefix=f"two{game}")
    rng = random.Random(11)

    async def play_all():
        return await asyncio.gather(*(play_on_two_servers(live_asgi_server, second_live_asgi_server, table, rng)
                                      for table in tables))

    all_frames = asyncio.run(play_all())
    for table, frames in zip(tables, all_frames):
        match = Match.objects.get(pk=table["match"])
        assert match.status == "finished", f"match {match.pk} is {match.status}"
        seqs = list(MatchAction.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(match.seq)), "the log has a gap or a double"
        assert_no_frame_leaks(match, frames)  # every frame equals the replay of the log at its seq
        errors = {frame["code"] for _, frame in frames if frame["type"] == "error"}
        assert errors <= {"stale", "finished"}, errors
