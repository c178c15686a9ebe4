"""The organiser's announcements to every entrant (docs/entries.md "Announcements"): the text as
typed, kept on the competition page with its time, and sent to each entrant once as a site
notification and an e-mail whose frame is in the reader's language (tournaments/notices.py)."""

from __future__ import annotations

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Announcement, AuditEntry, Competition, Entry, EntryPlayer
from tournaments.services.manager import CompetitionError
from tournaments.services.notify import notify

MAX_LENGTH = 1000
# Who hears it: every player who has accepted their place in a pair still in (or waiting).
LISTENING = (Entry.Status.CONFIRMED, Entry.Status.WAITING, Entry.Status.PENDING)


def text_errors(text: str) -> str:
    """Why this text cannot be sent ("" when it can): empty, or longer than MAX_LENGTH."""
    text = (text or "").strip()
    if not text:
        return _("Write the announcement.")
    if len(text) > MAX_LENGTH:
        return _("An announcement is at most %(max)s characters; this one has %(count)s.") % {
            "max": MAX_LENGTH, "count": len(text)}
    return ""


def entrants(competition: Competition):
    places = (EntryPlayer.objects.filter(competition=competition, accepted_at__isnull=False,
                                         entry__status__in=LISTENING)
              .select_related("user__player").order_by("entry_id", "position"))
    return [place.user for place in places]


def announce(competition: Competition, actor, text: str) -> Announcement:
    """Send `text` to every entrant; refused (beside the field `text`) when empty or too long, or
    once the competition is cancelled."""
    problem = text_errors(text)
    if problem:
        raise CompetitionError(problem, field="text")
    text = text.strip()
    with transaction.atomic():
        competition = Competition.objects.select_for_update().get(pk=competition.pk)
        if competition.status == Competition.Status.CANCELLED:
            raise CompetitionError(_("The competition is cancelled: there is nobody to tell."), field="text")
        announcement = Announcement.objects.create(competition=competition, author=actor, text=text)
        people = entrants(competition)
        url = reverse("tournaments:detail", args=[competition.pk])
        for user in people:
            notify(user, f"announcement:{announcement.pk}", "announcement",
                   {"competition": competition.name, "text": text}, url=url, competition=competition)
        AuditEntry.objects.create(competition=competition, actor=actor, action=AuditEntry.Action.ANNOUNCED,
                                  detail={"announcement": announcement.pk, "entrants": len(people)})
    announcement.sent_to = len(people)
    return announcement
