"""The leak test: 200+ matches of the three games played over real websockets against the real
ASGI server (uvicorn, session-cookie auth, Origin check, Redis channel layer, the database), by
random clients at every seat plus a spectator. Afterwards every frame any socket received is
checked against the replayed match: no frame ever shows a card hidden from its reader.
"""

import asyncio
import json
import random

import pytest
from django.core.management import call_command
from websockets.asyncio.client import connect

from gameplay import services
from gameplay.models import Match, MatchAction
from gameplay.table import Table
from tests.leak_check import codes_in, hidden_from, leaked, split_events

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GAMES = {  # short targets: 20-40 decisions a match, several deals each, redeals included
    "allfours": {"target_score": 3},
    "baloot": {"target_score": 20},
    "cuatrola": {"target": 2},
}
MATCHES_PER_GAME = 70
CONCURRENT_TABLES = 12
QUIET_SECONDS = 10
TABLE_TIMEOUT = 600


def make_tables(game: str, count: int, options: dict, prefix: str) -> list[dict]:
    from io import StringIO

    out = StringIO()
    call_command("make_tables", game=game, tables=count, options=json.dumps(options), prefix=prefix,
                 stdout=out)
    return json.loads(out.getvalue())["tables"]


async def play_seat(url: str, headers: dict, seat, rng: random.Random, frames: list):
    """A random client: records every frame; acts with a random legal action when it has one;
    asks for a fresh state (`sync`) when the table has been quiet for a while, as the browser
    client does after a reconnect."""
    async with connect(url, additional_headers=headers, open_timeout=20) as socket:
        while True:
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=QUIET_SECONDS)
            except asyncio.TimeoutError:
                await socket.send(json.dumps({"type": "sync"}))
                continue
            frame = json.loads(raw)
            frames.append((seat, frame))
            if frame["type"] != "state":
                continue
            if frame["status"] != "playing":
                return
            if frame["legal"] and seat is not None:
                action = rng.choice(frame["legal"])
                await socket.send(json.dumps({"type": "act", "ref": f"{seat}-{frame['seq']}-{rng.random()}",
                                              "seq": frame["seq"], "action": action}))


async def play_table(server, table: dict, rng: random.Random) -> list:
    frames: list = []
    url = server.ws_url + table["ws"]
    origin = {"Origin": server.url}
    clients = [play_seat(url, {**origin, "Cookie": s["cookie"]}, s["seat"], rng, frames) for s in table["seats"]]
    clients.append(play_seat(url, origin, None, rng, frames))
    try:
        await asyncio.wait_for(asyncio.gather(*clients), timeout=TABLE_TIMEOUT)
    except asyncio.TimeoutError:
        last = {}
        for seat, frame in frames:
            last[seat] = (frame["type"], frame.get("seq"), frame.get("status"), frame.get("code"))
        raise AssertionError(f"table {table['match']} did not finish; last frames: {last}") from None
    return frames


async def play_all(server, tables: list[dict]) -> dict:
    rng = random.Random(2026)
    limit = asyncio.Semaphore(CONCURRENT_TABLES)

    async def one(table):
        async with limit:
            return table["match"], await play_table(server, table, rng)

    return dict(await asyncio.gather(*(one(t) for t in tables)))


def replayed_readers(match: Match):
    """For each seq: (hidden cards per reader, cards other seats held before, the action, the
    table's event history then)."""
    actions = list(MatchAction.objects.filter(match=match).order_by("seq").values_list("action", flat=True))
    table = Table(services.spec_of(match))
    readers = [*range(table.players), None]
    steps = {0: ({r: hidden_from(table.state, r) for r in readers}, {r: set() for r in readers}, None,
                 list(table.history))}
    for seq, action in enumerate(actions, start=1):
        held = {r: hidden_from(table.state, r, include_stock=False) for r in readers}
        table.apply(action)
        steps[seq] = ({r: hidden_from(table.state, r) for r in readers}, held, action, list(table.history))
    return steps


def assert_no_frame_leaks(match: Match, frames: list):
    steps = replayed_readers(match)
    assert frames, "no frame arrived"
    for seat, frame in frames:
        if frame["type"] != "state":
            continue
        assert frame["seat"] == seat
        hidden_now, held_before, action, history = steps[frame["seq"]]
        shown = leaked({**frame["view"], "legal": frame["legal"]}, hidden_now[seat], held_before[seat],
                       action, outer_events=frame["events"] if frame["events"] else None)
        assert not shown, f"match {match.pk} seq {frame['seq']}: reader {seat} was shown {shown}"
        if "history" in frame:
            assert_history_shows_nothing_hidden(match, seat, frame, history, hidden_now[seat])


def assert_history_shows_nothing_hidden(match: Match, seat, frame: dict, history: list, hidden_now: set):
    """The rebuilt "What happened" log (a connect's or a sync's `history`) is exactly the events
    every reader was sent live up to that seq (judged frame by frame above), and its current deal
    names no card hidden from the reader now."""
    assert frame["history"] == json.loads(json.dumps(history)), f"match {match.pk} seq {frame['seq']}: history differs from the log's"
    _closed, current_deal = split_events(frame["history"])
    shown = codes_in(current_deal) & hidden_now
    assert not shown, f"match {match.pk} seq {frame['seq']}: reader {seat}'s history showed {shown}"


@pytest.mark.timeout(1200)
def test_no_frame_of_two_hundred_live_matches_shows_a_hidden_card(asgi_live):
    tables = []
    for game, options in GAMES.items():
        tables += make_tables(game, MATCHES_PER_GAME, options, prefix=f"leak{game}")
    assert len(tables) >= 200
    frames_by_match = asyncio.run(play_all(asgi_live, tables))
    finished = 0
    for match_id, frames in frames_by_match.items():
        match = Match.objects.get(pk=match_id)
        finished += match.status == "finished"
        assert_no_frame_leaks(match, frames)
    assert finished == len(tables), f"{len(tables) - finished} matches did not finish"
    errors = [(match_id, f) for match_id, frames in frames_by_match.items() for _, f in frames if f["type"] == "error"]
    codes = {f["code"] for _, f in errors}
    # A random client may act on a state that was already outdated (a `sync` reply overtaken by a
    # broadcast): the server must answer `stale`, or `finished` once the match is over, and never
    # reject an act on the current state.
    assert codes <= {"stale", "finished"}, f"unexpected errors: {codes}; server log: {asgi_live.log()[-3000:]}"
    for match_id, frame in errors:
        acted_on = int(frame["ref"].split("-")[1])
        assert acted_on < Match.objects.get(pk=match_id).seq, f"match {match_id}: act on the current state got {frame}"


@pytest.mark.parametrize("game, options", GAMES.items())
def test_the_dashboard_of_a_seated_player_shows_no_hidden_card(client, game, options):
    """Mid-match, each seated player's home lists the table (and whose turn it is) but no card
    hidden from them, over the first decisions of a deal."""
    from tests.leak_check import cards_on_page
    from tests.gameplay.helpers import make_match

    match, users = make_match(game, options=options)
    rng = random.Random(7)
    for _ in range(6):
        live = services.live_table(Match.objects.get(pk=match.pk))
        if live.table.to_act is None:
            break
        for seat, user in enumerate(users):
            client.force_login(user)
            html = client.get("/").content.decode()
            assert f"/matches/{match.pk}/" in html
            hidden = hidden_from(live.table.state, seat)
            assert not cards_on_page(html) & hidden, f"seat {seat} was shown {cards_on_page(html) & hidden}"
        actor = live.table.to_act
        services.take(match.pk, services.Act.by_player(users[actor], live.table.seq, f"r{live.table.seq}",
                               rng.choice(live.table.view(actor)["legal"])))
