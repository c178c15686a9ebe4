"""Organiser tools. Each takes the competition's lock, changes what it must, writes an audit entry
(shown on the competition page) and lets the manager catch up.

- pause / resume / reschedule a round;
- replace a player in a pair (tables already created keep their seats);
- withdraw or disqualify a pair: its live table is aborted, the opponent wins by walkover, and
  later pairings against it are walkovers too;
- override a result with a written reason (a live table is aborted first). In a bracket only a
  result of the latest round can change, since later rounds were made from it.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gameplay import api as gameplay
from tournaments.models import AuditEntry, Competition, Entry, EntryPlayer, Pairing, Round
from tournaments.results import result_errors
from tournaments.services import entries, lineups, manager, ranking
from tournaments.services.entries import player_name
from tournaments.services.manager import CompetitionError


def _lock(competition_id: int) -> Competition:
    return Competition.objects.select_for_update().get(pk=competition_id)


def refuse_if_changed_since(seen: str | None, now: str) -> None:
    """Of two organisers editing at once the first save wins: the second, whose form showed `seen`
    (a fingerprint of the row), is told and nothing is saved."""
    if seen is not None and seen != now:
        raise CompetitionError(_("Another organiser changed this competition meanwhile. Nothing was saved: "
                                 "the form now shows the competition as it is."))


def _audit(competition, actor, action, reason="", **kwargs) -> AuditEntry:
    return AuditEntry.objects.create(competition=competition, actor=actor, action=action, reason=reason, **kwargs)


def pause_round(round_row: Round, actor, reason: str = "") -> None:
    with transaction.atomic():
        competition = _lock(round_row.competition_id)
        round_row = Round.objects.get(pk=round_row.pk)
        if round_row.status == Round.Status.COMPLETE:
            raise CompetitionError(_("This round is complete."))
        if round_row.status != Round.Status.PAUSED:
            round_row.status = Round.Status.PAUSED
            round_row.save(update_fields=["status"])
            _audit(competition, actor, AuditEntry.Action.PAUSED, reason, detail={"round": round_row.number})


def resume_round(round_row: Round, actor, reason: str = "") -> None:
    with transaction.atomic():
        competition = _lock(round_row.competition_id)
        round_row = Round.objects.get(pk=round_row.pk)
        if round_row.status == Round.Status.PAUSED:
            round_row.status = Round.Status.OPEN if round_row.opened_at else Round.Status.SCHEDULED
            round_row.save(update_fields=["status"])
            _audit(competition, actor, AuditEntry.Action.RESUMED, reason, detail={"round": round_row.number})
    manager.step(round_row.competition_id)


def reschedule_round(round_row: Round, starts_at: datetime, actor, reason: str = "") -> None:
    """Move a round's start; its no-show deadline moves with it (a league week keeps its length)."""
    with transaction.atomic():
        competition = _lock(round_row.competition_id)
        round_row = Round.objects.get(pk=round_row.pk)
        if round_row.status == Round.Status.COMPLETE:
            raise CompetitionError(_("This round is complete."))
        out_of_order(round_row, starts_at)
        before = round_row.starts_at
        length = round_row.deadline - round_row.starts_at
        round_row.starts_at, round_row.deadline = starts_at, starts_at + length
        round_row.save(update_fields=["starts_at", "deadline"])
        round_row.competition = competition
        manager.later_rounds_follow(round_row)
        _audit(competition, actor, AuditEntry.Action.RESCHEDULED, reason,
               detail={"round": round_row.number, "from": before.isoformat(), "to": starts_at.isoformat()})
    manager.step(round_row.competition_id)


def out_of_order(round_row: Round, starts_at: datetime) -> None:
    """Rounds keep their order: a round starts after every earlier one and before every later one."""
    others = Round.objects.filter(competition_id=round_row.competition_id).exclude(pk=round_row.pk)
    if others.filter(number__lt=round_row.number, starts_at__gte=starts_at).exists():
        raise CompetitionError(_("Round %(number)s must start after the rounds before it.") % {
            "number": round_row.number}, field="starts_at")
    later = (others.filter(number__gt=round_row.number, starts_at__lte=starts_at)
             .filter(Exists(Pairing.objects.filter(round=OuterRef("pk"))))  # a round not drawn follows
             .order_by("number").first())
    if later is not None:
        raise CompetitionError(_("Round %(number)s must start before round %(later)s: move round %(later)s "
                                 "first.") % {"number": round_row.number, "later": later.number}, field="starts_at")


def replace_player(entry: Entry, old_user, new_user, actor, reason: str = "") -> None:
    """`new_user` takes `old_user`'s place in the pair for its matches still to play. The pair keeps
    its name, its matches already played (or playing) keep who played them (`Pairing.lineup`), and
    the audit lines written before stay as they were. Refused, beside the field `new`, for someone
    already playing in the competition."""
    with transaction.atomic():
        competition = _lock(entry.competition_id)
        entry = Entry.objects.get(pk=entry.pk)
        place = EntryPlayer.objects.filter(entry=entry, user=old_user).first()
        if place is None:
            raise CompetitionError(_("That player is not in this pair."), field="old")
        elsewhere = (EntryPlayer.objects.filter(competition=competition, user=new_user)
                     .select_related("entry").first())
        if elsewhere is not None:
            raise CompetitionError(_("%(name)s already plays in this competition (%(pair)s).") % {
                "name": player_name(new_user), "pair": elsewhere.entry.name}, field="new")
        place.user = new_user
        try:
            with transaction.atomic():
                place.save(update_fields=["user"])
        except IntegrityError:
            raise CompetitionError(_("A player can be in only one pair in a competition."), field="new") from None
        lineups.refresh_unplayed(entry.pk)
        _audit(competition, actor, AuditEntry.Action.REPLACED, reason, entry=entry,
               detail={"out": old_user.pk, "in": new_user.pk})


def remove_pair(entry: Entry, actor, reason: str, disqualify: bool = False) -> None:
    """Withdraw (or disqualify) a pair after the start: its open pairings become walkovers."""
    status = Entry.Status.DISQUALIFIED if disqualify else Entry.Status.WITHDRAWN
    with transaction.atomic():
        competition = _lock(entry.competition_id)
        entry = Entry.objects.get(pk=entry.pk)
        if competition.status == Competition.Status.OPEN and not disqualify:
            entry.delete()
            _audit(competition, actor, AuditEntry.Action.WITHDRAWN, reason, detail={"name": str(entry)})
            entries.move_up(competition, actor)  # the first waiting pair takes the free place
            return
        entry.status = status
        entry.save(update_fields=["status"])
        now = timezone.now()
        people = manager.Roster(competition)
        open_pairings = Pairing.objects.filter(
            Q(home=entry) | Q(away=entry), competition=competition, decided_at__isnull=True,
            round__status__in=[Round.Status.OPEN, Round.Status.PAUSED])
        for pairing in open_pairings:
            if pairing.match_id is not None:
                gameplay.abort_match(pairing.match_id, "pair removed")
            manager.walk_over(competition, pairing, people, set(), now)
        action = AuditEntry.Action.DISQUALIFIED if disqualify else AuditEntry.Action.WITHDRAWN
        _audit(competition, actor, action, reason, entry=entry)
        ranking.refresh(competition)
    manager.step(entry.competition_id)


def override_result(pairing: Pairing, winner: Entry | None, home_points: int, away_points: int,
                    reason: str, actor) -> None:
    if not reason.strip():
        raise CompetitionError(_("Write the reason for the override."))
    with transaction.atomic():
        competition = _lock(pairing.competition_id)
        pairing = Pairing.objects.get(pk=pairing.pk)
        if pairing.is_bye:
            raise CompetitionError(_("A bye has no result to override."))
        if winner is not None and winner.pk not in (pairing.home_id, pairing.away_id):
            raise CompetitionError(_("The winner must be one of the two pairs."))
        pairing.competition = competition
        if winner is None and pairing.is_knockout:
            raise CompetitionError(_("A knockout match needs a winner."))
        side = "none" if winner is None else "home" if winner.pk == pairing.home_id else "away"
        impossible = result_errors(competition.games_to_win, side, home_points, away_points, not pairing.is_knockout)
        if impossible:
            raise CompetitionError(next(iter(impossible.values())))
        later = Pairing.objects.filter(competition=competition, round_number__gt=pairing.round_number).exists()
        if competition.is_groups and pairing.bracket == "groups":  # the knockout's seeds come from the groups
            later = Pairing.objects.filter(competition=competition).exclude(bracket="groups").exists()
        if (competition.is_bracket or competition.is_groups) and later:
            raise CompetitionError(_("Later rounds were made from this result; it can no longer change."))
        table = gameplay.result_of(pairing.match_id)
        if table is not None and table.is_live:
            gameplay.abort_match(pairing.match_id, "result set by the organiser")
        before = {"winner": pairing.winner_id, "home": pairing.home_points, "away": pairing.away_points,
                  "source": pairing.source}
        Pairing.objects.filter(pk=pairing.pk).update(
            winner=winner, home_points=home_points, away_points=away_points, walkover=False,
            source=Pairing.Source.OVERRIDE, decided_at=pairing.decided_at or timezone.now())
        _audit(competition, actor, AuditEntry.Action.OVERRIDDEN, reason, pairing=pairing, detail={
            "before": before, "after": {"winner": winner.pk if winner else None, "home": home_points,
                                        "away": away_points}})
        ranking.refresh(competition)
    manager.step(pairing.competition_id)


def create_competition(competition: Competition, actor) -> Competition:
    """Save a competition built from the organiser's form, with its audit entry."""
    with transaction.atomic():
        competition.save()
        _audit(competition, actor, AuditEntry.Action.CREATED)
    return competition


EDITABLE = ("name", "description", "game", "format", "kind", "visibility", "preset", "options", "best_of", "time_control",
            "substitute_bot", "swiss_rounds", "third_place_match", "grand_final_reset", "double_round_robin",
            "seeding", "starts_at", "entries_close_at", "round_interval", "check_in", "grace", "reconnect_seconds",
            "leaver_policy", "players_report", "entry_cap", "late_entries_until", "tiebreak_order", "group_size",
            "group_qualifiers")


def edit_fingerprint(competition: Competition) -> str:
    """What the organiser saw on the edit page: a second organiser's save changes it."""
    shown = json.dumps({name: getattr(competition, name) for name in EDITABLE}, sort_keys=True, default=str)
    return hashlib.sha256(shown.encode()).hexdigest()[:32]


def edit_competition(competition: Competition, values: dict, actor, seen: str | None = None) -> list[str]:
    """Change any field of a competition that has not started, from what the organiser saw (`seen`):
    of two organisers editing at once the first save wins and the second is told. Audited with each
    changed field's value before and after; returns the changed fields' names."""
    with transaction.atomic():
        locked = _lock(competition.pk)
        if locked.status != Competition.Status.OPEN:
            raise CompetitionError(_("The competition has started: it can no longer be edited."))
        refuse_if_changed_since(seen, edit_fingerprint(locked))
        changed = [name for name in EDITABLE if name in values and getattr(locked, name) != values[name]]
        if not changed:
            return []
        if "entry_cap" in changed and values["entry_cap"] is not None:
            entered = Entry.objects.filter(competition=locked, status=Entry.Status.CONFIRMED).count()
            if values["entry_cap"] < entered:
                raise CompetitionError(ngettext(
                    "%(entered)s pair is already entered: the cap cannot be below it.",
                    "%(entered)s pairs are already entered: the cap cannot be below that.", entered) % {
                    "entered": entered}, field="entry_cap")
        before = {name: getattr(locked, name) for name in changed}
        for name in changed:
            setattr(locked, name, values[name])
        locked.save(update_fields=changed)
        _audit(locked, actor, AuditEntry.Action.EDITED, detail={"changed": json.loads(json.dumps(
            {name: [before[name], values[name]] for name in changed}, default=str))})
        if "entry_cap" in changed:
            entries.move_up(locked, actor)  # a higher cap (or none) lets waiting pairs in
    return changed
