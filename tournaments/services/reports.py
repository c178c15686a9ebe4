"""Results reported by the players of a match played at the club, when the competition allows it
(`Competition.players_report`): a player of one pair reports, a player of the other pair confirms
(the result then counts, as if the organiser had entered it) or disputes it (the organisers are told
and settle it with *Enter a result played at the club*, tournaments/services/controls.py).

Every step takes the competition's lock, is checked against the match's format like the
organiser's entry (tournaments/results.py) and is in the audit log under the player who acted.
"""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Membership, Player
from tournaments.models import AuditEntry, Competition, EntryPlayer, Pairing, ResultReport, Round
from tournaments.results import result_errors
from tournaments.services import manager, ranking
from tournaments.services.controls import audit_pairing, locked_pairing
from tournaments.services.manager import CompetitionError
from tournaments.services.notify import notify

SIDES = ("home", "away", "none")


def sides_of(user, pairings) -> dict[int, str]:
    """Pairing id -> the reader's side in it, for the pairings the reader plays in (one query)."""
    if user is None or not user.is_authenticated:
        return {}
    entries = {e for p in pairings for e in (p.home_id, p.away_id) if e}
    mine = set(EntryPlayer.objects.filter(user=user, entry_id__in=entries).values_list("entry_id", flat=True))
    return {p.pk: "home" if p.home_id in mine else "away" for p in pairings if mine & {p.home_id, p.away_id}}


def side_of(pairing: Pairing, user) -> str | None:
    """"home" or "away" when `user` plays in one of the pairing's pairs, else None."""
    return sides_of(user, [pairing]).get(pairing.pk)


def may_report(pairing: Pairing) -> bool:
    """Whether the pairing's players may report its result now: allowed by the competition, an
    open round, no result yet, no table on Chalk (a finished one counts as played there)."""
    competition = pairing.competition
    return (competition.players_report and competition.status == Competition.Status.RUNNING
            and pairing.away_id is not None and not pairing.is_decided and pairing.match_id is None
            and pairing.round.status == Round.Status.OPEN)


def _audit(pairing: Pairing, actor, action: str, report: ResultReport) -> None:
    audit_pairing(pairing, actor, action, winner=report.winner_side, home=report.home_points,
                  away=report.away_points)


def _round_url(pairing: Pairing) -> str:
    return reverse("tournaments:round", args=[pairing.competition_id, pairing.round_number])


def report(competition: Competition, pairing_id: int, user, winner_side: str, home_points: int,
           away_points: int) -> ResultReport:
    """A player's report of the match's result; the other pair's players are asked to confirm.
    A new report replaces a pending one of the same pair (a typo mended before the answer)."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen=None)
        side = side_of(pairing, user)
        if side is None:
            raise CompetitionError(_("Only the players of this match can report its result."))
        if not may_report(pairing):
            raise CompetitionError(_("This match's result cannot be reported by its players now."))
        existing = ResultReport.objects.filter(pairing=pairing).first()
        if existing and existing.status != ResultReport.Status.PENDING:
            raise CompetitionError(_("Its result is disputed: the organiser decides it."))
        reporter_entry = pairing.home_id if side == "home" else pairing.away_id
        if existing and existing.entry_id != reporter_entry:
            raise CompetitionError(_("The other pair has already reported a result: confirm it or dispute it."))
        if winner_side not in SIDES:
            raise CompetitionError(_("Choose which pair wins."), field="winner")
        impossible = result_errors(competition.games_to_win, winner_side, home_points, away_points,
                                   not competition.is_bracket)
        if impossible:
            field, message = next(iter(impossible.items()))
            raise CompetitionError(message, field=field)
        saved, _created = ResultReport.objects.update_or_create(pairing=pairing, defaults={
            "entry_id": reporter_entry, "reported_by": user, "winner_side": winner_side,
            "home_points": home_points, "away_points": away_points, "status": ResultReport.Status.PENDING})
        _audit(pairing, user, AuditEntry.Action.REPORTED, saved)
        other = pairing.away_id if side == "home" else pairing.home_id
        params = {"competition": competition.name, "number": pairing.round_number,
                  "name": Player.objects.get_or_create(user=user)[0].name,
                  "home": home_points, "away": away_points}
        for player in EntryPlayer.objects.filter(entry_id=other).select_related("user__player"):
            notify(player.user, f"reported:{saved.pk}:{saved.created_at.timestamp():.0f}:{home_points}-{away_points}",
                   "result_reported", params, _round_url(pairing), competition=competition)
    return saved


def _pending_for_opponent(pairing: Pairing, user) -> ResultReport:
    saved = ResultReport.objects.filter(pairing=pairing).first()
    if saved is None or saved.status != ResultReport.Status.PENDING:
        raise CompetitionError(_("There is no reported result waiting for an answer."))
    side = side_of(pairing, user)
    reporter_side = "home" if saved.entry_id == pairing.home_id else "away"
    if side is None:
        raise CompetitionError(_("Only the players of this match can answer its reported result."))
    if side == reporter_side:
        raise CompetitionError(_("A player of the other pair confirms the result, not your own pair."))
    return saved


def confirm(competition: Competition, pairing_id: int, user) -> None:
    """The other pair agrees: the reported result counts, as a result played at the club."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen=None)
        saved = _pending_for_opponent(pairing, user)
        if not may_report(pairing):
            raise CompetitionError(_("This match's result cannot be reported by its players now."))
        winner = {"home": pairing.home_id, "away": pairing.away_id}.get(saved.winner_side)
        manager.decide(pairing, winner, saved.home_points, saved.away_points, False, Pairing.Source.CLUB,
                       timezone.now())
        saved.status, saved.answered_by, saved.answered_at = ResultReport.Status.CONFIRMED, user, timezone.now()
        saved.save(update_fields=["status", "answered_by", "answered_at"])
        _audit(pairing, user, AuditEntry.Action.CONFIRMED, saved)
        ranking.refresh(competition)
    manager.step(competition.pk)


def dispute(competition: Competition, pairing_id: int, user) -> None:
    """The other pair does not agree: nothing counts, and the club's organisers are asked to decide."""
    with transaction.atomic():
        pairing = locked_pairing(competition, pairing_id, seen=None)
        saved = _pending_for_opponent(pairing, user)
        saved.status, saved.answered_by, saved.answered_at = ResultReport.Status.DISPUTED, user, timezone.now()
        saved.save(update_fields=["status", "answered_by", "answered_at"])
        _audit(pairing, user, AuditEntry.Action.DISPUTED, saved)
        organisers = {m.user for m in Membership.objects.filter(
            club_id=competition.club_id, role__in=[Membership.Role.OWNER, Membership.Role.ORGANISER]).select_related("user")}
        if competition.created_by is not None:
            organisers.add(competition.created_by)
        params = {"competition": competition.name, "number": pairing.round_number,
                  "home": pairing.home.name, "away": pairing.away.name}
        for organiser in organisers:
            notify(organiser, f"disputed:{saved.pk}:{saved.answered_at.timestamp():.0f}", "result_disputed", params,
                   _round_url(pairing), competition=competition)


def reports_of(pairing_ids) -> dict[int, ResultReport]:
    """The reports of these pairings, by pairing id (one query)."""
    return {r.pairing_id: r for r in ResultReport.objects.filter(pairing_id__in=list(pairing_ids))}

