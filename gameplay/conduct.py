"""A player's match-level acts at the table: propose to concede, agree, decline, leave.

Each is one action in the match's log (gameplay/table.py handles it before the engine), written
under the same lock and checks as a move, and broadcast after the commit. Any seated player may
take them at any time of a playing match, whoever's turn it is. A concession needs the partner:
the first `concede` of a team proposes, the partner's `concede` concedes the match (a bot partner
agrees at once), and either of them may `concede_decline`. `leave` gives the seat to the table's
leaver policy at once (gameplay/presence.py). A finished match answers `finished`, a waiting one
`not_your_turn`, someone without a seat `forbidden`; none of them changes anything.
"""

from __future__ import annotations

from django.db import transaction

from gameplay import presence, services
from gameplay.models import Match
from gameplay.services import ActionRejected

KINDS = ("concede", "concede_decline", "leave")


def submit(match_id: int, user, ref, kind: str) -> services.Outcome:
    """Apply a player's match-level act; ActionRejected with the protocol's code otherwise."""
    if kind not in KINDS:
        raise ActionRejected("bad_message", f"Unknown match action {kind!r}.")
    if not isinstance(ref, str) or not 0 < len(ref) <= 64:
        raise ActionRejected("bad_message", "ref must be a string of at most 64 characters.")
    with services.match_lock(match_id), transaction.atomic():
        match = services.locked_match(match_id)
        live = services.live_table(match)
        held = live.seat_of_user.get(getattr(user, "pk", None))  # the seat first: a ref is only ever its own
        if held is not None and (again := services.resent(live, ref, held)) is not None:
            return again
        seat = _seat_of(match, live, user)
        if kind == "leave":
            return presence.apply_policy(match, live, seat, user, ref)
        outcome = _apply(match, live, seat, kind, ref, user)
        partner = live.table.partner_of(seat)
        if kind == "concede" and not live.table.is_over and partner in live.bots:
            outcome = _apply(match, live, partner, "concede", None, None)  # a bot partner agrees
        return outcome


def _seat_of(match: Match, live: services.LiveTable, user) -> int:
    seat = live.seat_of_user.get(getattr(user, "pk", None))
    if seat is None:
        raise ActionRejected("forbidden", "You do not hold a seat at this table.")
    if match.is_finished:
        raise ActionRejected("finished", "The match is over.")
    if match.status != Match.Status.PLAYING:
        raise ActionRejected("not_your_turn", "The match has not started.")
    if seat in live.bots:
        raise ActionRejected("forbidden", "A bot plays this seat now: you left the table.")
    return seat


def _apply(match, live, seat: int, kind: str, ref, actor) -> services.Outcome:
    return services.apply_in_lock(match, live, seat, {"seat": seat, "type": kind}, ref, actor, check_turn=False)
