"""A competition's life after its creation, by its organiser (docs/competitions.md "A competition's life"):

- cancel, after a confirmation naming what happens (`cancel_plan`): rounds not played are dropped,
  open tables aborted, entrants notified;
- reopen a cancelled competition that has not played: open for entries again, from a new start;
- delete one that has no played match;
- run it again: a copy with the same settings and, optionally, the same entries;
- edit after the start what can still change (name, description, the times of rounds not yet open,
  check-in and no-show windows).

Each takes the competition's lock and writes an audit entry (a deletion, whose audit log goes with
the competition, is written to the `chalk.audit` log).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from gameplay import api as gameplay
from tournaments.models import AuditEntry, Competition, Entry, EntryPlayer, Pairing, Round
from tournaments.services import manager
from tournaments.services.manager import CompetitionError
from tournaments.services.notify import notify
from tournaments.services.organiser import EDITABLE, _audit, _lock, refuse_if_changed_since

log = logging.getLogger("chalk.audit")

ENDED = (Competition.Status.FINISHED, Competition.Status.CANCELLED)


def has_played(competition: Competition) -> bool:
    """A match of it has a result (played, at the club, set by the organiser or a walkover); byes do not count."""
    return Pairing.objects.filter(competition=competition, decided_at__isnull=False, away__isnull=False).exists()


@dataclass(frozen=True)
class CancelPlan:
    dropped_rounds: list[int]  # numbers of the rounds not played, which go
    open_tables: int  # tables in play, aborted
    entrants: int  # players notified


def _unplayed_rounds(competition: Competition):
    played = Pairing.objects.filter(competition=competition, decided_at__isnull=False, away__isnull=False)
    return Round.objects.filter(competition=competition).exclude(pk__in=played.values("round_id")) \
        .exclude(status=Round.Status.COMPLETE)


def _open_tables(competition: Competition):
    return Pairing.objects.filter(competition=competition, decided_at__isnull=True, match_id__isnull=False)


def _entrants(competition: Competition):
    return {p.user for p in EntryPlayer.objects.filter(competition=competition).select_related("user__player")}


def cancel_plan(competition: Competition) -> CancelPlan:
    """What cancelling would do now (the confirmation page says it)."""
    # The drawn rounds not played (a later round not drawn yet is only a time: it goes too, unsaid).
    dropped = (_unplayed_rounds(competition).filter(pk__in=manager.drawn(competition).values("pk"))
               .order_by("number").values_list("number", flat=True))
    return CancelPlan(dropped_rounds=list(dropped),
                      open_tables=_open_tables(competition).count(), entrants=len(_entrants(competition)))


def cancel(competition: Competition, actor, reason: str = "") -> CancelPlan:
    with transaction.atomic():
        locked = _lock(competition.pk)
        if locked.status in ENDED:
            raise CompetitionError(_("This competition has already ended."))
        plan = cancel_plan(locked)
        for match_id in _open_tables(locked).values_list("match_id", flat=True):
            gameplay.abort_match(match_id, "competition cancelled")
        _unplayed_rounds(locked).delete()
        before = locked.status
        locked.status, locked.finished_at = Competition.Status.CANCELLED, timezone.now()
        locked.save(update_fields=["status", "finished_at"])
        entry = _audit(locked, actor, AuditEntry.Action.CANCELLED, reason, detail={
            "from": before, "dropped_rounds": plan.dropped_rounds, "aborted": plan.open_tables})
        for user in _entrants(locked):
            notify(user, f"cancelled:{locked.pk}:{entry.pk}", "cancelled", {"competition": locked.name},
                   url=locked.get_absolute_url(), competition=locked)
    return plan


def reopen(competition: Competition, starts_at: datetime, actor) -> None:
    """A cancelled competition that has not played opens for entries again, starting at `starts_at`."""
    with transaction.atomic():
        locked = _lock(competition.pk)
        if locked.status != Competition.Status.CANCELLED:
            raise CompetitionError(_("Only a cancelled competition can be reopened."))
        if has_played(locked):
            raise CompetitionError(_("Matches of this competition were played: it cannot be reopened."))
        if starts_at <= timezone.now():
            raise CompetitionError(_("The start must be in the future."), field="starts_at")
        Round.objects.filter(competition=locked).delete()  # none was played: the draw is made again at the start
        locked.status, locked.finished_at, locked.starts_at = Competition.Status.OPEN, None, starts_at
        if locked.entries_close_at and not timezone.now() < locked.entries_close_at <= starts_at:
            locked.entries_close_at = None  # past entries' close would draw at once
        locked.save(update_fields=["status", "finished_at", "starts_at", "entries_close_at"])
        _audit(locked, actor, AuditEntry.Action.REOPENED, detail={"starts_at": starts_at.isoformat()})


def delete(competition: Competition, actor) -> None:
    with transaction.atomic():
        locked = _lock(competition.pk)
        if has_played(locked):
            raise CompetitionError(_("Matches of this competition were played: it cannot be deleted. "
                                     "Cancel it instead; its results stay in the archive."))
        for match_id in _open_tables(locked).values_list("match_id", flat=True):
            gameplay.abort_match(match_id, "competition deleted")
        log.info("competition deleted: id=%s name=%r club=%s by user %s", locked.pk, locked.name,
                 locked.club_id, getattr(actor, "pk", None))
        locked.delete()


COPIED = EDITABLE + ("description",)


def run_again(competition: Competition, starts_at: datetime, with_entries: bool, actor) -> Competition:
    """A new competition of the same club with the same settings, starting at `starts_at`; with
    `with_entries` its confirmed pairs are entered again as they were (bot pairs too)."""
    if starts_at <= timezone.now():
        raise CompetitionError(_("The start must be in the future."), field="starts_at")
    with transaction.atomic():
        source = _lock(competition.pk)
        values = {name: getattr(source, name) for name in COPIED}
        # a started Swiss stored its computed number of rounds: the copy computes its own unless one was typed
        typed_rounds = source.status == Competition.Status.OPEN or source.format != Competition.Format.SWISS
        values.update(starts_at=starts_at, swiss_rounds=source.swiss_rounds if typed_rounds else None)
        if source.entries_close_at:
            values["entries_close_at"] = starts_at - max(source.starts_at - source.entries_close_at, timedelta(0))
        copy = Competition(club=source.club, slug=_free_slug(source.club, source.name), created_by=actor, **values)
        copy.save()
        pairs = 0
        if with_entries:
            pairs = _copy_entries(source, copy, actor)
        _audit(copy, actor, AuditEntry.Action.RUN_AGAIN, detail={"from": source.pk, "name": source.name,
                                                                "pairs": pairs})
    return copy


def _free_slug(club, name: str) -> str:
    base = slugify(name)[:100] or "competition"
    slug, n = base, 1
    while Competition.objects.filter(club=club, slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _copy_entries(source: Competition, copy: Competition, actor) -> int:
    now = timezone.now()
    kept = Entry.objects.filter(competition=source).exclude(status=Entry.Status.PENDING).order_by("seed", "pk")
    count = 0
    for entry in kept.prefetch_related("players"):
        new = Entry.objects.create(competition=copy, name=entry.name, status=Entry.Status.CONFIRMED, bot=entry.bot,
                                   seed=entry.seed if source.seeding == Competition.Seeding.HAND else None,
                                   created_by=actor)
        EntryPlayer.objects.bulk_create([
            EntryPlayer(entry=new, competition=copy, user_id=p.user_id, position=p.position, accepted_at=now)
            for p in entry.players.all()])
        count += 1
    return count


# ----- after the start -------------------------------------------------------------------------

LIVE_FIELDS = ("name", "description", "check_in", "grace")


def live_fingerprint(competition: Competition) -> str:
    """What the organiser saw on the edit page after the start: a second organiser's save changes it."""
    rounds = list(Round.objects.filter(competition=competition).order_by("number")
                  .values_list("number", "starts_at", "status"))
    shown = json.dumps({"fields": [getattr(competition, name) for name in LIVE_FIELDS], "rounds": rounds},
                       sort_keys=True, default=str)
    return hashlib.sha256(shown.encode()).hexdigest()[:32]


def edit_live(competition: Competition, values: dict, round_starts: dict[int, datetime], actor,
              seen: str | None = None) -> list[str]:
    """Change what can still change after the start: `values` of LIVE_FIELDS, and `round_starts`
    (round number -> new start) of rounds not yet open. A new grace period applies to rounds not yet
    open (an open round keeps its no-show deadline). Returns the changed fields' names."""
    with transaction.atomic():
        locked = _lock(competition.pk)
        if locked.status != Competition.Status.RUNNING:
            raise CompetitionError(_("Only a running competition is edited this way."))
        refuse_if_changed_since(seen, live_fingerprint(locked))
        rounds = {r.number: r for r in Round.objects.filter(competition=locked).order_by("number")}
        moves = {}
        for number, starts_at in round_starts.items():
            round_row = rounds.get(number)
            if round_row is None:
                raise CompetitionError(_("There is no such round."), field=f"round_{number}")
            if starts_at in (round_row.starts_at, round_row.starts_at.replace(second=0, microsecond=0)):
                continue  # unchanged (a box shows minutes: a start made by Start now has seconds)
            if round_row.status != Round.Status.SCHEDULED:
                raise CompetitionError(_("Round %(number)s is open: its time can no longer change.") % {
                    "number": number}, field=f"round_{number}")
            if starts_at <= timezone.now():
                raise CompetitionError(_("The new start must be in the future."), field=f"round_{number}")
            moves[number] = starts_at
        drawn = set(manager.drawn(locked).values_list("number", flat=True))
        # A round not drawn yet and not moved here follows the rounds before it (below).
        _check_order({n: r for n, r in rounds.items() if n in drawn or n in moves}, moves)
        old_starts = {number: round_row.starts_at for number, round_row in rounds.items()}
        changed = [name for name in LIVE_FIELDS if name in values and getattr(locked, name) != values[name]]
        before = {name: getattr(locked, name) for name in changed}
        for name in changed:
            setattr(locked, name, values[name])
        if changed:
            locked.save(update_fields=changed)
        for number, round_row in rounds.items():
            if round_row.status != Round.Status.SCHEDULED or (number not in moves and "grace" not in changed):
                continue
            starts_at = moves.get(number, round_row.starts_at)
            length = round_row.deadline - round_row.starts_at if locked.is_league else locked.grace
            round_row.starts_at, round_row.deadline = starts_at, starts_at + length
            round_row.save(update_fields=["starts_at", "deadline"])
        for number in sorted(moves):
            rounds[number].competition = locked
            manager.later_rounds_follow(rounds[number])
        if not changed and not moves:
            return []
        detail = {name: [before[name], values[name]] for name in changed}
        detail.update({f"round_{number}": [old_starts[number], at] for number, at in moves.items()})
        _audit(locked, actor, AuditEntry.Action.EDITED_LIVE,
               detail={"changed": json.loads(json.dumps(detail, default=str))})
    manager.step(competition.pk)
    return changed + [f"round_{n}" for n in moves]


def _check_order(rounds: dict[int, Round], moves: dict[int, datetime]) -> None:
    """Rounds keep their order after the moves (each checked against the others' new times)."""
    times = {n: moves.get(n, r.starts_at) for n, r in rounds.items()}
    for number in sorted(moves):
        earlier = [n for n in times if n < number and times[n] >= times[number]]
        later = [n for n in times if n > number and times[n] <= times[number]]
        if earlier:
            raise CompetitionError(_("Round %(number)s must start after the rounds before it.") % {
                "number": number}, field=f"round_{number}")
        if later:
            raise CompetitionError(_("Round %(number)s must start before round %(later)s: move round %(later)s "
                                     "first.") % {"number": number, "later": min(later)}, field=f"round_{number}")
