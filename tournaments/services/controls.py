"""The organiser's controls on one pairing of a round page (and Start now on a competition).

Every control takes the competition's lock, checks that the pairing is still in the state the
organiser saw (`seen`, from `pairing_state`), changes it, writes the audit log under the person and
lets the manager catch up. When two organisers act on one pairing at once the first one wins; the
second finds the state changed and is told what happened instead of acting on a stale page.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from gameplay import api as gameplay
from tournaments.models import AuditEntry, Competition, Entry, EntryPlayer, Pairing, Round
from tournaments.results import result_errors
from tournaments.services import duplicate, groups, manager, organiser, ranking
from tournaments.services.manager import CompetitionError
from tournaments.services.notify import notify


def pairing_state(pairing: Pairing) -> str:
    """A short fingerprint of what the organiser sees: result, table and its status."""
    match_status = pairing.table.status if pairing.table else ""
    decided = pairing.decided_at.isoformat() if pairing.decided_at else ""
    return f"{decided}|{pairing.winner_id or ''}|{pairing.home_points}-{pairing.away_points}|{pairing.match_id or ''}|{match_status}"


def locked_pairing(competition: Competition, pairing_id: int, seen: str | None) -> Pairing:
    Competition.objects.select_for_update().get(pk=competition.pk)
    pairing = (Pairing.objects.select_related("round", "home", "away")
               .filter(pk=pairing_id, competition=competition).first())
    if pairing is None:
        raise CompetitionError(_("This pairing is not part of this competition."))
    if seen is not None and seen != pairing_state(pairing):
        raise CompetitionError(changed_meanwhile(pairing))
    return pairing


def changed_meanwhile(pairing: Pairing) -> str:
    if pairing.is_decided:
        return _("This pairing changed meanwhile: it now has a result (%(home)s–%(away)s). Nothing was done.") % {
            "home": pairing.home_points, "away": pairing.away_points}
    if pairing.match_id:
        return _("This pairing changed meanwhile: its table is open now. Nothing was done.")
    return _("This pairing changed meanwhile. Nothing was done; look at it again.")


def audit_pairing(pairing: Pairing, actor, action: str, reason: str = "", **detail) -> None:
    AuditEntry.objects.create(competition_id=pairing.competition_id, actor=actor, action=action, reason=reason,
                              pairing=pairing, detail={"round": pairing.round_number, **detail})


def _must_be_undecided(pairing: Pairing) -> None:
    if pairing.is_decided:
        raise CompetitionError(_("This match already has a result."))
    if pairing.is_bye:
        raise CompetitionError(_("A bye has no match."))
    if pairing.round.status != Round.Status.OPEN:
        raise CompetitionError(_("Its round is not open."))


def start_pairing_now(competition: Competition, pairing_id: int, actor, seen: str | None = None) -> None:
    """Open the pairing's table now, with its four players, without waiting for check-in."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen)
        _must_be_undecided(pairing)
        if pairing.match_id:
            raise CompetitionError(_("Its table is already open."))
        competition = pairing.competition
        match_id = manager.create_table(competition, pairing.round, pairing, manager.Roster(competition),
                                        starts_at=timezone.now())
        audit_pairing(pairing, actor, AuditEntry.Action.TABLE_OPENED)
    gameplay.start_match(match_id)


def seat_bot(competition: Competition, pairing_id: int, absent_user_id: int, actor, seen: str | None = None) -> str:
    """A bot at the competition's substitute level in an absent player's seat; the match is then
    not rated. Before the table opens it opens with the bot there; once it is open (the player
    never came, or left) gameplay turns that seat into a bot. Returns the bot's level."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen)
        _must_be_undecided(pairing)
        competition = pairing.competition
        level = gameplay.bot_level(competition.substitute_bot)
        if pairing.match_id:
            if gameplay.result_of(pairing.match_id).is_finished:
                raise CompetitionError(_("Its table has finished: wait for its result."))
            try:
                level = gameplay.seat_bot_for_absent(pairing.match_id, absent_user_id, actor)
            except gameplay.ActionRejected as error:
                raise CompetitionError(SEAT_REFUSED.get(error.code, SEAT_REFUSED["forbidden"])) from None
            audit_pairing(pairing, actor, AuditEntry.Action.BOT_SEATED, absent=absent_user_id, level=level, open=True)
            return level
        people = manager.Roster(competition)
        seats = people.seats(pairing)
        if not any(seat.user is not None and seat.user.pk == absent_user_id for seat in seats):
            raise CompetitionError(_("That player does not play in this match."))
        seats = [gameplay.SeatSpec(bot=level) if s.user is not None and s.user.pk == absent_user_id else s
                 for s in seats]
        match_id = _table(pairing, seats)
        audit_pairing(pairing, actor, AuditEntry.Action.BOT_SEATED, absent=absent_user_id, level=level, open=False)
    gameplay.start_match(match_id)
    return level


SEAT_REFUSED = {
    "finished": gettext_lazy("Its table has finished: wait for its result."),
    "forbidden": gettext_lazy("That player has no seat of their own at this table any more (a bot already plays it)."),
}


def _table(pairing: Pairing, seats) -> int:
    """An unrated table opened now, with the competition's clock, options and fair-play settings."""
    competition = pairing.competition
    return manager.create_table(competition, pairing.round, pairing, manager.Roster(competition), seats=seats,
                                starts_at=timezone.now(), rated=False)


def move_pairing(competition: Competition, pairing_id: int, starts_at, actor, reason: str = "",
                 seen: str | None = None) -> None:
    """Postpone or bring forward one pairing: its table starts at `starts_at`, its check-in and
    no-show deadline move with it (the round and its other pairings keep their time). Refused
    once its table is open or it has a result, and for a time already past."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen)
        if pairing.is_decided:
            raise CompetitionError(_("This match already has a result."))
        if pairing.is_bye:
            raise CompetitionError(_("A bye has no match."))
        if pairing.match_id:
            raise CompetitionError(_("Its table is already open: a pairing can only be moved before that."))
        if pairing.round.status in (Round.Status.COMPLETE,):
            raise CompetitionError(_("This round is complete."))
        if starts_at <= timezone.now():
            raise CompetitionError(_("The new start must be in the future."))
        before = pairing.starts
        pairing.starts_at = None if starts_at == pairing.round.starts_at else starts_at
        pairing.save(update_fields=["starts_at"])
        audit_pairing(pairing, actor, AuditEntry.Action.PAIRING_MOVED, reason, **{
            "from": before.isoformat(), "to": starts_at.isoformat()})
        for entry_id in (pairing.home_id, pairing.away_id):
            notify_moved(pairing, entry_id)
    manager.step(competition.pk)


def award_walkover(competition: Competition, pairing_id: int, winner_side: str, actor, reason: str,
                   seen: str | None = None) -> None:
    """The pair that is there wins without playing; a table that is open is closed first."""
    if not reason.strip():
        raise CompetitionError(_("Write the reason for the walkover."))
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen)
        _must_be_undecided(pairing)
        winner = {"home": pairing.home_id, "away": pairing.away_id}.get(winner_side)
        if winner is None:
            raise CompetitionError(_("Choose which pair wins."))
        if pairing.table is not None and not pairing.table.is_finished:
            gameplay.abort_match(pairing.match_id, "walkover given by the organiser")
        manager.decide(pairing, winner, 0, 0, True, Pairing.Source.WALKOVER, timezone.now())
        audit_pairing(pairing, actor, AuditEntry.Action.WALKOVER, reason, winner=winner)
        ranking.refresh(pairing.competition)
    manager.step(competition.pk)


def enter_club_result(competition: Competition, pairing_id: int, winner_side: str, home_points: int,
                      away_points: int, actor, reason: str = "", seen: str | None = None) -> None:
    """The result of a match played face to face at the club: no table, no replay. Checked against
    the match's format like a correction; refused once the pairing has a result or a live table."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen)
        _must_be_undecided(pairing)
        competition = pairing.competition
        if pairing.match_id and not gameplay.result_of(pairing.match_id).is_finished:
            raise CompetitionError(_("Its table is open on Chalk: the match is being played there."))
        impossible = result_errors(competition.games_to_win, winner_side, home_points, away_points,
                                   not pairing.is_knockout)
        if impossible:
            raise CompetitionError(next(iter(impossible.values())))
        winner = {"home": pairing.home_id, "away": pairing.away_id}.get(winner_side)
        manager.decide(pairing, winner, home_points, away_points, False, Pairing.Source.CLUB, timezone.now())
        audit_pairing(pairing, actor, AuditEntry.Action.CLUB_RESULT, reason, winner=winner, home=home_points,
               away=away_points)
        ranking.refresh(competition)
    manager.step(competition.pk)


def correct_result(competition: Competition, pairing_id: int, winner_side: str, home_points: int,
                   away_points: int, actor, reason: str, seen: str | None = None) -> None:
    """A result set by the organiser, with the reason (organiser.override_result does the work)."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen)
        winner = {"home": pairing.home, "away": pairing.away}.get(winner_side)
        if winner_side not in ("home", "away", "none"):
            raise CompetitionError(_("Choose which pair wins."))
        organiser.override_result(pairing, winner, home_points, away_points, reason, actor)


def substitute(competition: Competition, pairing_id: int, old_user, new_user, actor, reason: str = "",
               seen: str | None = None) -> None:
    """A club member takes a player's place in the pair (organiser.replace_player does the work)."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen)
        entry = next((e for e in (pairing.home, pairing.away) if e is not None and
                      e.players.filter(user=old_user).exists()), None)
        if entry is None:
            raise CompetitionError(_("That player does not play in this match."), field="old")
        if not competition.club.memberships.filter(user=new_user).exists():
            raise CompetitionError(_("Only a member of the club can come in."), field="new")
        organiser.replace_player(entry, old_user, new_user, actor, reason)


def remind_not_checked_in(competition: Competition, round_number: int, actor) -> list[int]:
    """*Remind* on a round's check-in list: every player of an undecided pairing of the open round,
    whose check-in is open and whose table is not open yet, who has not checked in hears it again
    (site and e-mail, in their language). Once a minute at most per player and pairing. Audited
    with who was reminded; returns their ids."""
    now = timezone.now()
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        round_row = Round.objects.filter(competition=competition, number=round_number).first()
        if round_row is None or round_row.status != Round.Status.OPEN:
            raise CompetitionError(_("Only an open round's players can be reminded to check in."))
        pairings = [p for p in Pairing.objects.select_related("round").filter(
            round=round_row, decided_at__isnull=True, match_id__isnull=True, away__isnull=False)
            if p.opens_at <= now < p.deadline]
        checked = manager.checked_in([p.pk for p in pairings])
        people = manager.Roster(competition)
        users = people.users()
        url = reverse("tournaments:detail", args=[competition.pk])
        reminded = []
        for pairing in pairings:
            for entry_id in (pairing.home_id, pairing.away_id):
                for user_id in people.players.get(entry_id, []):
                    if user_id in checked.get(pairing.pk, set()):
                        continue
                    notify(users[user_id], f"remind:{pairing.pk}:{now:%Y%m%d%H%M}", "check_in_reminder",
                           {"competition": competition.name, "number": round_number}, url=url,
                           competition=competition)
                    reminded.append(user_id)
        if not reminded:
            raise CompetitionError(_("Everyone whose check-in is open has checked in: nobody to remind."))
        AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.REMINDED,
                                  detail={"round": round_number, "reminded": reminded})
    return reminded


def notify_moved(pairing: Pairing, entry_id: int | None) -> None:
    """The players of one side hear of the new time (in their language and zone, when read)."""
    people = EntryPlayer.objects.filter(entry_id=entry_id).select_related("user__player")
    when = pairing.starts
    for place in people:
        notify(place.user, f"moved:{pairing.pk}:{when.isoformat()}", "match_moved",
               {"competition": pairing.competition.name, "number": pairing.round_number, "at": when.isoformat()},
               url=reverse("tournaments:round", args=[pairing.competition_id, pairing.round_number]),
               competition=pairing.competition)


CANNOT_START = {
    0: gettext_lazy("It cannot start yet: it needs two confirmed pairs and has none. Invitations not yet "
                    "accepted do not count. Nothing was changed."),
    1: gettext_lazy("It cannot start yet: it needs two confirmed pairs and has only one. Invitations not yet "
                    "accepted do not count. Nothing was changed."),
}


def start_competition_now(competition: Competition, actor) -> None:
    """Start before the scheduled time; the start is logged under the organiser, not the scheduler.
    With fewer than two confirmed pairs, or a duplicate that no movement fits, it says so and
    changes nothing (it never cancels: the scheduler cancels only a competition still short at its
    own start time)."""
    with transaction.atomic():
        locked = Competition.objects.select_for_update().get(pk=competition.pk)
        if locked.status != Competition.Status.OPEN:
            raise CompetitionError(_("The competition has already started."))
        pairs = Entry.objects.filter(competition=locked, status=Entry.Status.CONFIRMED).count()
        if pairs < 2:
            raise CompetitionError(str(CANNOT_START[pairs]))
        problem = groups.problem_of(locked)
        if problem:
            raise CompetitionError(_("It cannot start yet: %(reason)s Nothing was changed.") % {"reason": problem})
        if locked.is_duplicate:
            pairs, fits = duplicate.movements_that_fit(locked)
            if not fits:
                raise CompetitionError(duplicate.nothing_fits() % {"n": pairs})
        locked.starts_at = timezone.now()
        locked.save(update_fields=["starts_at"])
    manager.step(competition.pk)
    AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.STARTED,
                              actor__isnull=True).update(actor=actor)
