"""What each reader receives: the protocol's `state` frames, and who a reader is at a table."""

from __future__ import annotations

from datetime import timedelta

from gameplay import access
from gameplay.models import Match
from gameplay.services.tables import LiveTable, cached_table, live_table, match_lock
from gameplay.table import Table

# A seat's presence in the `state` frame (docs/protocol-extensions.md, gameplay/presence.py).
CONNECTED, RECONNECTING, REPLACED, BOT, EMPTY = "connected", "reconnecting", "replaced", "bot", "empty"


def state_message(match: Match, table: Table, seat, events, view: dict | None = None,
                  presence: list | None = None) -> dict:
    """The protocol's `state` frame for one reader (seat None: a spectator), with the seats'
    `presence` (an extension) when it is given."""
    if view is None:
        view = table.view(seat)
    frame = {
        "type": "state", "match": match.pk, "seq": table.seq, "seat": seat, "view": view,
        "to_act": table.to_act, "legal": view["legal"], "events": events,
        "deadline": _iso(match.deadline),
        "status": match.status,
    }
    if presence is not None:
        frame["presence"] = presence
    return frame


def state_messages(match: Match, table: Table, events, presence: list | None = None) -> dict:
    """Every reader's frame of one moment (four seats and the spectator), from one views() call."""
    views = table.views([*range(table.players), None])
    return {("spectator" if seat is None else seat): state_message(match, table, seat, events, view, presence)
            for seat, view in views.items()}


def live_messages(live: LiveTable, events) -> dict:
    """`state_messages` of a live table, with its seats' presence."""
    return state_messages(live.match, live.table, events, seat_presence(live))


def seat_presence(live: LiveTable) -> list[dict]:
    """Each seat's presence: `connected` (a socket of its player is open), `reconnecting` (none
    is; `back_by`: when the reconnect window closes, null while the clocks are held and it has
    not begun), `replaced` (a bot plays it since its player left), `bot` (a bot from the start)
    or `empty` (a seat still free)."""
    match, table = live.match, live.table
    people = set(live.seat_of_user.values())
    seats = []
    for seat in range(table.players):
        if seat in live.bots:
            seats.append({"seat": seat, "state": REPLACED if seat in table.replaced else BOT})
            continue
        if seat not in people:
            seats.append({"seat": seat, "state": EMPTY})
            continue
        connections, away = live.sockets.get(seat, (0, None))
        if connections:
            seats.append({"seat": seat, "state": CONNECTED})
            continue
        started = match.clocks_started_at
        back_by = (max(away, started) + timedelta(seconds=match.reconnect_seconds)
                   if away is not None and started is not None else None)
        seats.append({"seat": seat, "state": RECONNECTING, "back_by": _iso(back_by)})
    return seats


def _iso(moment) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def reader_of(match_id: int, user) -> access.Reader:
    """Who `user` is at this table: a seat, a spectator, or nobody. A playing table is answered
    from this process's cached table (its seats no longer change), loaded here if need be, so a
    reconnect storm after a deploy or a table's four players arriving at once cost one load, not
    a seat lookup each; a waiting table asks the database every time (seats are being taken)."""
    with match_lock(match_id):
        live = cached_table(match_id)
        if live is None or live.match.status != Match.Status.PLAYING:
            match = Match.objects.filter(pk=match_id).first()
            if match is None or match.status != Match.Status.PLAYING:
                return access.Reader(False, None) if match is None else access.reader_for(match, user)
            live = live_table(match)  # the socket's first state needs it next anyway
        return access.reader_at(live.match, user, live.seat_of_user.get(getattr(user, "pk", None)))


def current_state(match_id: int, user) -> dict:
    """A fresh `state` for a (re)connecting or syncing reader; events are empty."""
    with match_lock(match_id):
        match = Match.objects.get(pk=match_id)
        live = live_table(match)
        seat = live.seat_of_user.get(getattr(user, "pk", None))
        # `history`: the events so far, public like every frame's, for a reloaded "What happened"
        live.load_presence()
        return {**state_message(match, live.table, seat, [], presence=seat_presence(live)),
                "history": list(live.table.history)}
