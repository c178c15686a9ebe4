"""Rematch: the same casual table again, same seats and options (docs/protocol-extensions.md,
"Rematch").

A seated person of a finished casual match sends `rematch`: that proposes it (their seat and every
bot seat accept at once), or accepts the open proposal. When every person seated has accepted, a
new table is created with the same seats, options, length, clock and rated flag, and it starts at
once (every seat is filled). `rematch_decline`, or REMATCH_SECONDS without every answer (the
sweep in gameplay/tasks.py, and any answer that comes too late), cancels it; a new proposal may
follow. Each change is broadcast to the match's sockets as a `rematch` frame after the commit.

Refused, changing nothing (the protocol's codes): someone not seated (`forbidden`), a
competition match (`forbidden`), a match not finished or aborted (`illegal_action`), accepting
twice, declining nothing, a rematch already started (`illegal_action`).
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay.models import Match, Rematch, Seat
from gameplay.services import ActionRejected, SeatSpec, create_match, group_name
from tuning.broadcast import group_send

REMATCH_SECONDS = 60
KINDS = ("rematch", "rematch_decline")


def answer(match_id: int, user, kind: str) -> dict:
    """A seated person's `rematch` (propose or accept) or `rematch_decline`; the new `rematch`
    frame, broadcast to the table after the commit. ActionRejected for what changes nothing."""
    if kind not in KINDS:
        raise ActionRejected("bad_message", f"Unknown rematch message {kind!r}.")
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        seats = list(Seat.objects.filter(match_id=match_id).select_related("user").order_by("seat")) if match else []
        seat = next((s.seat for s in seats if s.user_id is not None and s.user_id == getattr(user, "pk", None)
                     and not s.invited), None)
        _check_match(match, seat)
        rematch = Rematch.objects.select_for_update().filter(match=match).first()
        now = timezone.now()
        if rematch is not None and rematch.status == Rematch.Status.OPEN and rematch.expires_at <= now:
            _cancel(rematch, None)  # too late: the timeout came first
        if kind == "rematch_decline":
            _decline(rematch, seat)
        else:
            rematch = _accept(match, seats, rematch, seat, now)
        frame = frame_of(rematch)
    transaction.on_commit(lambda: publish(frame))
    return frame


def _check_match(match: Match | None, seat: int | None) -> None:
    if match is None or seat is None:
        raise ActionRejected("forbidden", "You do not hold a seat at this table.")
    if Match.objects.filter(pk=match.pk, pairing__isnull=False).exists():
        raise ActionRejected("forbidden", "A competition match has no rematch: the competition pairs its rounds.")
    if match.status != Match.Status.FINISHED:
        raise ActionRejected("illegal_action", "An aborted match has no rematch." if match.is_finished
                             else "The match is not over yet.")


def _decline(rematch: Rematch | None, seat: int) -> None:
    if rematch is None or rematch.status != Rematch.Status.OPEN:
        raise ActionRejected("illegal_action", "No rematch is waiting for an answer.")
    _cancel(rematch, seat)


def _accept(match: Match, seats: list[Seat], rematch: Rematch | None, seat: int, now) -> Rematch:
    if rematch is not None and rematch.status == Rematch.Status.STARTED:
        raise ActionRejected("illegal_action", "The rematch has started already.")
    if rematch is None or rematch.status == Rematch.Status.CANCELLED:
        bots = [s.seat for s in seats if s.user_id is None and s.bot]  # bots accept at once
        rematch = rematch or Rematch(match=match)
        rematch.status, rematch.proposed_by, rematch.declined_by = Rematch.Status.OPEN, seat, None
        rematch.accepted, rematch.expires_at = sorted({*bots, seat}), now + timedelta(seconds=REMATCH_SECONDS)
    elif seat in rematch.accepted:
        raise ActionRejected("illegal_action", "You have accepted the rematch already.")
    else:
        rematch.accepted = sorted({*rematch.accepted, seat})
    if set(rematch.accepted) >= {s.seat for s in seats}:
        rematch.next_match, rematch.status = _same_table(match, seats), Rematch.Status.STARTED
    rematch.save()
    return rematch


def _same_table(match: Match, seats: list[Seat]) -> Match:
    """The new table: the same people in the same seats, the same bots, options, length, clock,
    fair-play settings and rated flag; a new deal. It starts at once (every seat is filled)."""
    specs = [SeatSpec(user=s.user) if s.user_id is not None else SeatSpec(bot=s.bot) for s in seats]
    return create_match(match.game, match.options, specs, created_by=match.created_by,
                        games_to_win=match.games_to_win, time_control=match.time_control,
                        is_public=match.is_public, rated=match.rated, checkin_seconds=match.checkin_seconds,
                        reconnect_seconds=match.reconnect_seconds, leaver_policy=match.leaver_policy)


def _cancel(rematch: Rematch, seat: int | None) -> None:
    rematch.status, rematch.declined_by = Rematch.Status.CANCELLED, seat
    rematch.save(update_fields=["status", "declined_by"])


def expire_due(now=None) -> int:
    """Cancel the open proposals whose time is up (the periodic sweep); each table is told.
    A row another process holds is skipped: it is answering it right now."""
    now = now or timezone.now()
    cancelled = 0
    for pk in Rematch.objects.filter(status=Rematch.Status.OPEN, expires_at__lte=now).values_list("pk", flat=True)[:500]:
        with transaction.atomic():
            rematch = (Rematch.objects.select_for_update(skip_locked=True)
                       .filter(pk=pk, status=Rematch.Status.OPEN, expires_at__lte=now).first())
            if rematch is None:
                continue
            _cancel(rematch, None)
            frame = frame_of(rematch)
            transaction.on_commit(lambda frame=frame: publish(frame))
            cancelled += 1
    return cancelled


def current_frame(match_id: int) -> dict | None:
    """The `rematch` frame a socket opening on a finished match gets after its state, if any."""
    rematch = Rematch.objects.filter(match_id=match_id).first()
    return None if rematch is None else frame_of(rematch)


def frame_of(rematch: Rematch) -> dict:
    """The `rematch` frame: its state, who proposed, who accepted, who is awaited, why it was
    cancelled, and the new table once it has started."""
    seats = list(Seat.objects.filter(match_id=rematch.match_id).order_by("seat").values_list("seat", flat=True))
    cancelled = rematch.status == Rematch.Status.CANCELLED
    return {"type": "rematch", "match": rematch.match_id, "state": rematch.status,
            "proposed_by": rematch.proposed_by, "accepted": list(rematch.accepted),
            "waiting": [s for s in seats if s not in rematch.accepted] if rematch.status == Rematch.Status.OPEN else [],
            "declined_by": rematch.declined_by,
            "reason": ("declined" if rematch.declined_by is not None else "timeout") if cancelled else None,
            "expires": rematch.expires_at.isoformat().replace("+00:00", "Z"),
            "next": rematch.next_match_id,
            "next_url": reverse("gameplay:table", args=[rematch.next_match_id]) if rematch.next_match_id else None}


def publish(frame: dict) -> None:
    group_send(group_name(frame["match"]), {"type": "rematch.update", "frame": frame})


def may_offer(match: Match, seat) -> bool:
    """Whether the table page offers the Rematch button: a seated reader of a casual match."""
    return seat is not None and not Match.objects.filter(pk=match.pk, pairing__isnull=False).exists()


def labels() -> dict:
    """The table client's words for the rematch, in the active language."""
    return {key: str(text) for key, text in {
        "rematch": _("Rematch"), "accept": _("Accept the rematch"), "decline": _("Decline"),
        "proposed": _("%(name)s proposes a rematch."), "you_proposed": _("You proposed a rematch."),
        "accepted": _("Accepted: %(names)s"), "waiting": _("Waiting for: %(names)s"),
        "declined": _("%(name)s declined the rematch."), "timeout": _("Not everyone answered in time: no rematch."),
        "started": _("The rematch has started."), "go": _("Go to the new table"),
    }.items()}
