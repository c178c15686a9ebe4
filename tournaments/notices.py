"""Notifications are stored as a kind and its parameters and written out in the reader's language
when read (or mailed): the sentence is chosen here, never frozen in the language of whoever acted."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

SENTENCES = {
    "round_open": gettext_noop("%(competition)s: round %(number)s is open. Check in to reach your table."),
    "invited": gettext_noop("%(name)s invites you to play %(competition)s as a pair."),
    "accepted": gettext_noop("%(name)s accepted: your pair is entered in %(competition)s."),
    "declined": gettext_noop("%(name)s declined your invitation to %(competition)s."),
    "club_invited": gettext_noop("%(name)s invites you to join the club %(club)s. Answer on your home page."),
}


def sentence(kind: str, params: dict, fallback: str = "") -> str:
    """The notification in the active language; the stored text for a kind this code no longer has."""
    template = SENTENCES.get(kind)
    if template is None:
        return fallback
    try:
        return _(template) % params
    except (KeyError, TypeError, ValueError):
        return fallback


def text_of(notification) -> str:
    return sentence(notification.kind, notification.params or {}, notification.text)
