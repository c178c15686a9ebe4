"""Entering a competition: a pair is a player and a partner who accepts, or a pair an organiser
adds (players or bots). A player is in at most one pair per competition (a unique constraint);
until the competition starts a pair may withdraw, which removes it.

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
from tournaments.models import AuditEntry, Competition, Entry, EntryPlayer
from tournaments.services.manager import CompetitionError
from tournaments.services.notify import notify


def player_name(user) -> str:
    player = getattr(user, "player", None)
    return player.name if player else user.get_username()


def pair_name(users) -> str:
    return " & ".join(player_name(u) for u in users)


def entries_open(competition: Competition, now=None) -> bool:
    now = now or timezone.now()
    opens = competition.entries_open_at or competition.created_at or now
    closes = competition.entries_close_at or competition.starts_at
    return competition.status == Competition.Status.OPEN and opens <= now < closes


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
            raise CompetitionError(_("Entries are closed."))
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
        if place is None or competition.status != Competition.Status.OPEN:
            raise CompetitionError(_("There is no open invitation for you in this pair."))
        inviter = entry.created_by
        if not accept:
            entry.delete()
            kind = "declined"
        else:
            place.accepted_at = timezone.now()
            place.save(update_fields=["accepted_at"])
            entry.status = Entry.Status.CONFIRMED
            entry.save(update_fields=["status"])
            kind = "accepted"
        if inviter is not None:
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


def add_pair(competition: Competition, actor, users, name: str = "") -> Entry:
    """An organiser enters two players directly (no invitation)."""
    if len({u.pk for u in users}) != 2:
        raise CompetitionError(_("A pair is two different players."), field="second")
    with transaction.atomic():
        competition = _locked(competition)
        if competition.status != Competition.Status.OPEN:
            raise CompetitionError(_("Pairs can only be added before the start."))
        taken = set(EntryPlayer.objects.filter(competition=competition, user__in=users).values_list("user_id", flat=True))
        for field, user in zip(("first", "second"), users):
            if user.pk in taken:
                raise CompetitionError(_("%(name)s is already in a pair in this competition.") % {
                    "name": player_name(user)}, field=field)
        entry = _create(competition, users, [True, True], name, actor, Entry.Status.CONFIRMED)
        AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.PAIR_ADDED,
                                  entry=entry, detail={"players": [u.pk for u in users]})
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
