"""What each reader receives: the protocol's `state` frames, and who a reader is at a table."""

from __future__ import annotations

from gameplay import access
from gameplay.models import Match
from gameplay.services.tables import cached_table, live_table, match_lock
from gameplay.table import Table


def state_message(match: Match, table: Table, seat, events, view: dict | None = None) -> dict:
    """The protocol's `state` frame for one reader (seat None: a spectator)."""
    if view is None:
        view = table.view(seat)
    return {
        "type": "state", "match": match.pk, "seq": table.seq, "seat": seat, "view": view,
        "to_act": table.to_act, "legal": view["legal"], "events": events,
        "deadline": match.deadline.isoformat().replace("+00:00", "Z") if match.deadline else None,
        "status": match.status,
    }


def state_messages(match: Match, table: Table, events) -> dict:
    """Every reader's frame of one moment (four seats and the spectator), from one views() call."""
    views = table.views([*range(table.players), None])
    return {("spectator" if seat is None else seat): state_message(match, table, seat, events, view)
            for seat, view in views.items()}


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
        return {**state_message(match, live.table, seat, []), "history": list(live.table.history)}
