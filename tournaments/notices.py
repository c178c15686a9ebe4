"""Notifications are stored as a kind and its parameters and written out in the reader's language
when read (or mailed): the sentence is chosen here, never frozen in the language of whoever acted."""

from __future__ import annotations

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from gameplay import api as gameplay
from tournaments.display import in_zone

SENTENCES = {
    "round_open": gettext_noop("%(competition)s: round %(number)s is open. Check in to reach your table."),
    "invited": gettext_noop("%(name)s invites you to play %(competition)s as a pair."),
    "accepted": gettext_noop("%(name)s accepted: your pair is entered in %(competition)s."),
    "declined": gettext_noop("%(name)s declined your invitation to %(competition)s."),
    "match_moved": gettext_noop("%(competition)s: your match of round %(number)s now starts at %(at)s."),
    "club_invited": gettext_noop("%(name)s invites you to join the club %(club)s. Answer on your home page."),
    "cancelled": gettext_noop("%(competition)s has been cancelled by its organiser."),
    "result_reported": gettext_noop("%(competition)s, round %(number)s: %(name)s reported the result %(home)s–%(away)s. "
                                    "Confirm it or dispute it on the round's page."),
    "result_disputed": gettext_noop("%(competition)s, round %(number)s: the reported result of %(home)s against "
                                    "%(away)s is disputed. Enter the result played at the club to settle it."),
    "announcement": gettext_noop("%(competition)s: the organiser announces: %(text)s"),
    "moved_up": gettext_noop("%(competition)s: a place came free and your pair moved up from the waiting list. "
                             "You are entered."),
    "waiting_listed": gettext_noop("%(competition)s is full: your pair is on the waiting list, number %(number)s."),
    "check_in_reminder": gettext_noop("%(competition)s: round %(number)s is open and you have not checked in yet. "
                                      "Check in to reach your table."),
    "table_invited": gettext_noop("%(name)s keeps a seat for you at a table of %(game)s. Answer on your home page."),
}


def sentence(kind: str, params: dict, fallback: str = "", zone: str = "UTC") -> str:
    """The notification in the active language, a moment (`at`, stored as ISO 8601) in the
    reader's `zone` with the zone named; the stored text for a kind this code no longer has."""
    template = SENTENCES.get(kind)
    if template is None:
        return fallback
    try:
        if "at" in params:
            params = {**params, "at": in_zone(parse_datetime(params["at"]), zone)}
        if "game" in params:  # stored as the game's code, named in the reader's language
            params = {**params, "game": gameplay.game_label(params["game"])}
        return _(template) % params
    except (KeyError, TypeError, ValueError):
        return fallback


def zone_of_reader(user) -> str:
    return getattr(getattr(user, "player", None), "time_zone", "") or "UTC"


def text_of(notification) -> str:
    params = notification.params or {}
    zone = zone_of_reader(notification.user) if "at" in params else "UTC"  # a query only when needed
    return sentence(notification.kind, params, notification.text, zone)
