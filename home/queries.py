"""What a signed-in player's home shows, in a fixed number of queries whatever the player's history.

Read-only. Every function takes the user and returns plain rows (values, labels made here) or
small value objects the template lays out; nothing here writes. Tables come from gameplay.api,
competitions from tournaments.pages, ratings from tournaments.ratings.services.

Two things are kept per player between requests, both forgotten by `forget` on every event
that changes them (receivers connected in home/apps.py):

- the parts that change only through an event (the club and partner invitations, the player's
  competitions and clubs), for DASHBOARD_CACHE_SECONDS (`settled`);
- the whole rendered page, for DASHBOARD_PAGE_SECONDS (`kept_page`), served again only while
  the parts that change with every move are as they were: the tables, whose turn it is there,
  and the table invitations (`live_parts`, read on every request, two queries, the `stamp`).
  The rest of the page changes through events: the next match (a competition's step, a
  check-in, an organiser's act), results (ratings written), the unread count (notifications),
  tables starting or ending, the player's profile. A change no event reports (a rebuild of
  every rating) shows within DASHBOARD_PAGE_SECONDS.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from clubs.models import MemberInvitation, Membership
from config import soft_cache
from gameplay import api as gameplay
from tournaments import pages as competitions
from tournaments.ratings import services as ratings
from tournaments.services import notify

RECENT_RESULTS = 8
LIST_SIZE = 12
ORGANISER_ROLES = (Membership.Role.OWNER, Membership.Role.ORGANISER)


def club_invitations(user) -> list[dict]:
    """Clubs whose organisers invited this player by name, still open to an answer."""
    rows = (MemberInvitation.objects.filter(user=user, status=MemberInvitation.Status.PENDING,
                                            expires_at__gt=timezone.now())
            .order_by("expires_at")
            .values("pk", "expires_at", "club__name", "invited_by__username", "invited_by__player__display_name")
            [:LIST_SIZE])
    return [{"pk": row["pk"], "expires_at": row["expires_at"], "club": row["club__name"],
             "by": row["invited_by__player__display_name"] or row["invited_by__username"] or row["club__name"]}
            for row in rows]


def invitations(user) -> dict:
    """Every invitation waiting for the player's answer: clubs, partners, tables (read now)."""
    return {**settled_invitations(user), "table_invitations": gameplay.table_invitations_of(user)}


def settled_invitations(user) -> dict:
    return {"club_invitations": club_invitations(user), "invitations": competitions.partner_invitations_of(user)}


def memberships(user) -> dict:
    """The player's competitions and clubs (an answered invitation may change both)."""
    return labelled(membership_rows(user))


def membership_rows(user) -> dict:
    return {"competitions": competitions.competitions_of(user), **clubs_of(user)}


def labelled(parts: dict) -> dict:
    return {**parts, "competitions": status_words(parts["competitions"])}


def status_words(competition_rows: list[dict]) -> list[dict]:
    """The competitions' rows with their status in the reader's language (the kept rows have none)."""
    return [{**row, "status_label": str(competitions.STATUS_WORDS.get(row["status"], ""))} for row in competition_rows]


def clubs_of(user) -> dict:
    """The player's clubs by name, and those where they may create a competition (owners and
    organisers): one query, the first LIST_SIZE clubs."""
    rows = list(Membership.objects.filter(user=user).order_by("club__name", "club_id")
                .values("role", "club__name", "club__slug")[:LIST_SIZE])
    clubs = [{"name": row["club__name"], "slug": row["club__slug"]} for row in rows]
    return {"clubs": clubs, "organised": [club for club, row in zip(clubs, rows) if row["role"] in ORGANISER_ROLES]}


def results(user) -> list[dict]:
    """The player's last rated matches, with the words of the result made here."""
    return ratings.recent_results(user, RECENT_RESULTS)


def unread_notifications(user) -> int:
    return notify.unread_count(user)


# ----- the parts kept between requests ------------------------------------------------------------

def cache_key(user_id: int) -> str:
    return f"dashboard:{user_id}"


def page_key(user_id: int) -> str:
    return f"dashboard-page:{user_id}"


def keeping() -> bool:
    """Whether anything is kept between requests (tests turn both off)."""
    return settings.DASHBOARD_CACHE_SECONDS > 0 or settings.DASHBOARD_PAGE_SECONDS > 0


def settled(user) -> dict:
    """The invitations by clubs and partners, the competitions and the clubs: kept per player for
    DASHBOARD_CACHE_SECONDS and forgotten on any event that changes them (`forget`)."""
    seconds = settings.DASHBOARD_CACHE_SECONDS
    parts = soft_cache.get(cache_key(user.pk)) if seconds > 0 else None
    if parts is None:
        parts = {**settled_invitations(user), **membership_rows(user)}
        if seconds > 0:
            soft_cache.set(cache_key(user.pk), parts, seconds)
    return labelled(parts)


def forget(*user_ids: int) -> None:
    """Drop the kept parts of these players: the next request reads them again.

    A write never fails for it: when Redis cannot be reached there is nothing kept to drop that
    will not expire by itself within DASHBOARD_CACHE_SECONDS."""
    if user_ids and keeping():
        soft_cache.delete_many([key(user_id) for user_id in user_ids for key in (cache_key, page_key)])


# The events that change the kept parts (connected in home/apps.py). Model signals catch every
# writer of a membership, a club invitation or a place in a pair, whichever service made it.

def on_notifications_changed(sender, user_id: int, **kwargs) -> None:
    """A partner's invitation, a club's, a round opening...: each notifies the player."""
    forget(user_id)


def on_match_event(sender, match_id: int, **kwargs) -> None:
    """A table started or finished: a competition's round may have moved on."""
    if keeping():  # else no query for the players
        forget(*gameplay.seated_users(match_id))


def on_competition_changed(sender, competition_id: int, **kwargs) -> None:
    """A competition's step did something, or a player checked in (sent after the commit)."""
    if keeping():  # else no query for the players
        forget(*competitions.player_ids_of(competition_id))


def on_audited(sender, instance, created: bool = False, **kwargs) -> None:
    """An organiser acted on a competition (each act is an AuditEntry): after the commit."""
    if created:
        competition_id = instance.competition_id
        transaction.on_commit(lambda: on_competition_changed(None, competition_id))


def on_ratings_changed(sender, user_ids, **kwargs) -> None:
    forget(*user_ids)


def on_row_changed(sender, instance, **kwargs) -> None:
    """A Membership, MemberInvitation, EntryPlayer or Player (profile) saved or deleted: its
    player's kept parts and page."""
    if instance.user_id is not None:
        forget(instance.user_id)


def live_parts(user) -> dict:
    """The parts that change with every move, read on every request: the player's tables (and
    whose turn it is) and their table invitations, in one statement."""
    tables, invitations = gameplay.home_tables_of(user, LIST_SIZE)
    return {"tables": tables, "table_invitations": invitations}


def stamp(live: dict) -> tuple:
    """What a kept page must have been rendered with to be served again (with the language and
    the time zone, which the view adds)."""
    return (tuple((row.match_id, row.your_turn, row.waiting) for row in live["tables"]),
            tuple((row.match_id, row.host, row.partner) for row in live["table_invitations"]))


def kept_page(user_id: int, page_stamp: tuple) -> str | None:
    """The page kept for this player, if it was rendered at this stamp."""
    if settings.DASHBOARD_PAGE_SECONDS <= 0:
        return None
    kept = soft_cache.get(page_key(user_id))
    return kept[1] if kept is not None and kept[0] == page_stamp else None


def keep_page(user_id: int, page_stamp: tuple, body: str) -> None:
    if settings.DASHBOARD_PAGE_SECONDS > 0:
        soft_cache.set(page_key(user_id), (page_stamp, body), settings.DASHBOARD_PAGE_SECONDS)


def dashboard(user, live: dict | None = None) -> dict:
    """Everything the signed-in home shows, by part (`live`: the live parts, if already read)."""
    return {"next_match": competitions.next_match_of(user), **(live or live_parts(user)), **settled(user),
            "results": results(user)}
