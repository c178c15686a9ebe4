"""Entering a competition: a pair is a player and a partner who accepts, or a pair an organiser
adds (players or bots). A player is in at most one pair per competition (a unique constraint);
until the competition starts a pair may withdraw, which removes it.

An entry cap (docs/entries.md): past `entry_cap` entered pairs a pair goes on the waiting list, and
moves up, first come first served, when an entered pair withdraws before the start (or the cap is
raised). Late entries: a Swiss or a league with `late_entries_until` takes pairs after its start
until that round is drawn (Swiss) or opens (league); the pair plays from the next round.

Who may enter: anyone signed in for a public competition; members of the club for a members-only
one (both players). The entry window: from `entries_open_at` (or creation) to `entries_close_at`
(or the start).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.permissions import is_member
from tournaments.formats.league import rest_weeks
from tournaments.models import AuditEntry, Competition, Entry, EntryPlayer, Pairing, Round
from tournaments.ratings.services import ratings_for
from tournaments.services import lineups, ranking
from tournaments.services.manager import CompetitionError
from tournaments.services.notify import notify


def player_name(user) -> str:
    player = getattr(user, "player", None)
    return player.name if player else user.get_username()


def pair_name(users) -> str:
    return " & ".join(player_name(u) for u in users)


def entries_open(competition: Competition, now=None) -> bool:
    now = now or timezone.now()
    if competition.status == Competition.Status.RUNNING:
        return not late_entry_refusal(competition)
    opens = competition.entries_open_at or competition.created_at or now
    closes = competition.entries_close_at or competition.starts_at
    return competition.status == Competition.Status.OPEN and opens <= now < closes


LATE_FORMATS = (Competition.Format.SWISS, Competition.Format.LEAGUE)


def late_entry_refusal(competition: Competition) -> str:
    """Why a pair cannot enter this running competition late ("" when it can): late entries are a
    Swiss's until round N is drawn, a league's until week N opens and while its fixture has a rest
    week to give (docs/entries.md "Late entries")."""
    until = competition.late_entries_until
    if competition.status != Competition.Status.RUNNING or not until or competition.format not in LATE_FORMATS:
        return _("Entries are closed.")
    rounds = Round.objects.filter(competition=competition)
    if competition.format == Competition.Format.SWISS:
        # Every round exists from the draw with its time; a round is drawn once it has its pairings.
        drawn = rounds.filter(number__gte=until, pairings__isnull=False)
        if drawn.exists() or (competition.swiss_rounds or 0) < until:
            return _("Late entries closed when round %(number)s was drawn.") % {"number": until}
        return ""
    if rounds.filter(number__gte=until).exclude(status=Round.Status.SCHEDULED).exists():
        return _("Late entries closed when week %(number)s opened.") % {"number": until}
    if not _rest_weeks(competition):
        return _("This league's fixture has no rest week left for a late pair: late entries are closed.")
    return ""


def _rest_weeks(competition: Competition) -> list[Pairing]:
    """The byes of the league's weeks not yet open: the places a late pair takes."""
    scheduled = list(Pairing.objects.filter(competition=competition, round__status=Round.Status.SCHEDULED)
                     .order_by("round_number", "slot"))
    places = set(rest_weeks([(p.round_number, p.slot, p.away_id) for p in scheduled]))
    return [p for p in scheduled if (p.round_number, p.slot) in places]


def _join_late(competition: Competition, entry: Entry, actor) -> None:
    """A pair entered after the start: the last seed; in a league it takes the rest weeks to come.
    Refused, with the reason, once its round is drawn (Swiss) or open (league)."""
    refusal = late_entry_refusal(competition)
    if refusal:
        raise CompetitionError(refusal)
    last = Entry.objects.filter(competition=competition, seed__isnull=False).order_by("-seed").first()
    entry.seed = (last.seed if last else 0) + 1
    players = list(EntryPlayer.objects.filter(entry=entry).values_list("user_id", flat=True))
    ratings = ratings_for(players, competition.game)
    entry.rating = sum(ratings[u].elo for u in players) / len(players) if players else None  # as at the start
    entry.save(update_fields=["seed", "rating"])
    weeks = []
    if competition.format == Competition.Format.LEAGUE:
        rests = _rest_weeks(competition)
        Pairing.objects.filter(pk__in=[p.pk for p in rests]).update(away=entry)
        weeks = [p.round_number for p in rests]
        lineups.refresh_unplayed(entry.pk)
    AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.LATE_ENTRY,
                              entry=entry, detail={"weeks": weeks} if weeks else {})
    ranking.refresh(competition)


def has_room(competition: Competition) -> bool:
    """Whether one more pair can be entered under the cap (no cap: always)."""
    if competition.entry_cap is None:
        return True
    return Entry.objects.filter(competition=competition, status=Entry.Status.CONFIRMED).count() < competition.entry_cap


def _url(competition: Competition) -> str:
    return reverse("tournaments:detail", args=[competition.pk])


def _tell_pair(entry: Entry, key: str, kind: str, params: dict) -> None:
    for place in EntryPlayer.objects.filter(entry=entry).select_related("user__player"):
        notify(place.user, key, kind, params, url=_url(entry.competition), competition=entry.competition)


def confirm_or_wait(competition: Competition, entry: Entry, actor) -> Entry:
    """A complete pair is entered, or goes on the waiting list when the cap is reached; after the
    start it joins late (or is refused with the reason)."""
    if not has_room(competition) and competition.status == Competition.Status.RUNNING:
        raise CompetitionError(_("The competition is full: late entries are closed."))
    if not has_room(competition):
        entry.status, entry.waiting_since = Entry.Status.WAITING, timezone.now()
        entry.save(update_fields=["status", "waiting_since"])
        number = Entry.objects.filter(competition=competition, status=Entry.Status.WAITING).count()
        AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.WAITING_LISTED,
                                  entry=entry, detail={"number": number})
        _tell_pair(entry, f"waiting:{entry.pk}", "waiting_listed", {"competition": competition.name, "number": number})
        return entry
    entry.status = Entry.Status.CONFIRMED
    entry.save(update_fields=["status"])
    if competition.status == Competition.Status.RUNNING:
        _join_late(competition, entry, actor)
    return entry


def move_up(competition: Competition, actor=None) -> list[Entry]:
    """Waiting pairs take the places free under the cap, in the list's order, before the start;
    each pair's players are told. Returns the pairs moved up."""
    moved = []
    if competition.status != Competition.Status.OPEN:
        return moved
    while has_room(competition):
        entry = (Entry.objects.filter(competition=competition, status=Entry.Status.WAITING)
                 .order_by("waiting_since", "pk").first())
        if entry is None:
            break
        entry.status, entry.waiting_since = Entry.Status.CONFIRMED, None
        entry.save(update_fields=["status", "waiting_since"])
        AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.MOVED_UP,
                                  entry=entry)
        _tell_pair(entry, f"moved-up:{entry.pk}", "moved_up", {"competition": competition.name})
        moved.append(entry)
    return moved


def may_enter(user, competition: Competition) -> bool:
    return competition.is_public or is_member(user, competition.club)


def _locked(competition: Competition) -> Competition:
    return Competition.objects.select_for_update().get(pk=competition.pk)


def _create(competition: Competition, users, accepted: list[bool], name: str, created_by, status) -> Entry:
    entry = Entry.objects.create(competition=competition, name=name or pair_name(users), status=status,
                                 created_by=created_by)
    now = timezone.now()
    try:
        with transaction.atomic():
            EntryPlayer.objects.bulk_create([
                EntryPlayer(entry=entry, competition=competition, user=user, position=n,
                            accepted_at=now if ok else None)
                for n, (user, ok) in enumerate(zip(users, accepted))])
    except IntegrityError:
        raise CompetitionError(_("A player can be in only one pair in a competition.")) from None
    return entry


def enter(competition: Competition, user, partner, name: str = "") -> Entry:
    """`user` enters with `partner`, who is invited and must accept."""
    if partner is None or partner.pk == user.pk:
        raise CompetitionError(_("Choose a partner other than yourself."))
    with transaction.atomic():
        competition = _locked(competition)
        if not entries_open(competition):
            raise CompetitionError(late_entry_refusal(competition) if competition.status ==
                                   Competition.Status.RUNNING else _("Entries are closed."))
        if not (may_enter(user, competition) and may_enter(partner, competition)):
            raise CompetitionError(_("Both players must be members of the club."))
        entry = _create(competition, [user, partner], [True, False], name, user, Entry.Status.PENDING)
        notify(partner, f"invited:{entry.pk}", "invited",
               {"name": player_name(user), "competition": competition.name},
               url=reverse("tournaments:detail", args=[competition.pk]), competition=competition)
    return entry


def answer_invitation(entry: Entry, user, accept: bool) -> Entry | None:
    """The invited partner accepts (the pair is entered) or declines (the pair is removed)."""
    with transaction.atomic():
        competition = _locked(entry.competition)
        place = EntryPlayer.objects.filter(entry=entry, user=user, accepted_at__isnull=True).first()
        if place is None or competition.status not in (Competition.Status.OPEN, Competition.Status.RUNNING):
            raise CompetitionError(_("There is no open invitation for you in this pair."))
        inviter = entry.created_by
        if not accept:
            entry.delete()
            kind = "declined"
        else:
            if competition.status == Competition.Status.RUNNING and late_entry_refusal(competition):
                raise CompetitionError(late_entry_refusal(competition))
            place.accepted_at = timezone.now()
            place.save(update_fields=["accepted_at"])
            confirm_or_wait(competition, entry, user)
            kind = "accepted" if entry.status == Entry.Status.CONFIRMED else ""  # else both heard "waiting list"
        if inviter is not None and kind:
            notify(inviter, f"answered:{entry.pk or place.pk}:{accept}", kind,
                   {"name": player_name(user), "competition": competition.name},
                   url=reverse("tournaments:detail", args=[competition.pk]), competition=competition)
    return entry if accept else None


def withdraw_before_start(entry: Entry, user) -> None:
    with transaction.atomic():
        competition = _locked(entry.competition)
        if competition.status != Competition.Status.OPEN:
            raise CompetitionError(_("The competition has started: ask an organiser to withdraw your pair."))
        if not EntryPlayer.objects.filter(entry=entry, user=user).exists():
            raise CompetitionError(_("You are not in this pair."))
        entry.delete()
        move_up(competition)


def add_pair(competition: Competition, actor, users, name: str = "") -> Entry:
    """An organiser enters two players directly (no invitation)."""
    if len({u.pk for u in users}) != 2:
        raise CompetitionError(_("A pair is two different players."), field="second")
    with transaction.atomic():
        competition = _locked(competition)
        if competition.status != Competition.Status.OPEN and late_entry_refusal(competition):
            raise CompetitionError(_("Pairs can only be added before the start.") if not
                                   competition.late_entries_until else late_entry_refusal(competition))
        taken = set(EntryPlayer.objects.filter(competition=competition, user__in=users).values_list("user_id", flat=True))
        for field, user in zip(("first", "second"), users):
            if user.pk in taken:
                raise CompetitionError(_("%(name)s is already in a pair in this competition.") % {
                    "name": player_name(user)}, field=field)
        entry = _create(competition, users, [True, True], name, actor, Entry.Status.PENDING)
        AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.PAIR_ADDED,
                                  entry=entry, detail={"players": [u.pk for u in users]})
        confirm_or_wait(competition, entry, actor)
    return entry


def add_bot_pairs(competition: Competition, actor, count: int, bot: str = "random") -> list[Entry]:
    """Pairs played by bots on both seats: for practice, and for tests of a whole competition."""
    with transaction.atomic():
        competition = _locked(competition)
        if competition.status != Competition.Status.OPEN:
            raise CompetitionError(_("Pairs can only be added before the start."))
        first = Entry.objects.filter(competition=competition).exclude(bot="").count() + 1
        entries = Entry.objects.bulk_create([
            Entry(competition=competition, bot=bot, status=Entry.Status.CONFIRMED, created_by=actor,
                  name=_("Bots %(number)s") % {"number": first + n})
            for n in range(count)])
        AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.PAIR_ADDED,
                                  detail={"bots": count})
    return entries
