"""The chat beside a table: quick phrases and free text, players and spectators apart.

A message is either a quick phrase (a key of PHRASES, shown in each reader's own language) or a
line of free text (at most MAX_LENGTH characters, stored and sent as plain text: the client sets
it as text, never as markup). A signed-in user may post RATE_COUNT messages per RATE_SECONDS at a
table; more are refused with a message, never dropped silently. Players (seated users) talk
among themselves; spectators have their own chat, which the players do not see, and vice versa.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from gameplay.models import ChatMessage
from gameplay.services import storable_text

MAX_LENGTH = 200
RATE_COUNT = 5
RATE_SECONDS = 10
HISTORY = 30

PHRASES = {
    "hello": _("Hello!"), "good_luck": _("Good luck"), "well_played": _("Well played"),
    "thanks_partner": _("Thanks, partner"), "nice_trick": _("Nice trick!"), "sorry": _("Sorry"),
    "oops": _("Oops"), "one_more": _("One more game?"), "good_game": _("Good game"),
}


class ChatRefused(Exception):
    """A message the chat does not take; `code` is the protocol's error code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def audience_of(seat) -> str:
    return ChatMessage.Audience.SPECTATORS if seat is None else ChatMessage.Audience.PLAYERS


def post(match_id: int, user, seat, text=None, phrase=None) -> dict:
    """Store one message from `user` (holding `seat`, or None: a spectator); its chat frame."""
    if not getattr(user, "is_authenticated", False):
        raise ChatRefused("forbidden", "Sign in to chat.")
    phrase, text = _checked(text, phrase)
    since = timezone.now() - timedelta(seconds=RATE_SECONDS)
    if ChatMessage.objects.filter(match_id=match_id, user=user, created_at__gte=since).count() >= RATE_COUNT:
        raise ChatRefused("rate_limited", f"At most {RATE_COUNT} messages every {RATE_SECONDS} seconds.")
    row = ChatMessage.objects.create(match_id=match_id, user=user, seat=seat, audience=audience_of(seat),
                                     phrase=phrase, text=text)
    return chat_frame(row, display_name(user))


def _checked(text, phrase) -> tuple[str, str]:
    if phrase is not None:
        if text is not None or not isinstance(phrase, str) or phrase not in PHRASES:
            raise ChatRefused("bad_message", "Send one of the quick phrases, or a text.")
        return phrase, ""
    if not isinstance(text, str) or not text.strip():
        raise ChatRefused("bad_message", "A chat message needs some text.")
    if not storable_text(text):
        raise ChatRefused("bad_message", "A chat message cannot hold that character.")
    text = " ".join(text.split())  # one line: no runs of spaces or line breaks
    if len(text) > MAX_LENGTH:
        raise ChatRefused("too_long", f"A chat message has at most {MAX_LENGTH} characters.")
    return "", text


def display_name(user) -> str:
    player = getattr(user, "player", None)  # a user made outside sign-up may have no profile
    return player.name if player and player.name else user.get_username()


def chat_frame(row: ChatMessage, name: str) -> dict:
    return {"type": "chat", "id": row.pk, "user": row.user_id, "seat": row.seat, "name": name, "audience": row.audience,
            "phrase": row.phrase or None, "text": row.text or None,
            "at": row.created_at.isoformat().replace("+00:00", "Z")}


def recent(match_id: int, seat) -> list[dict]:
    """The latest messages a reader (seat, or None) may see, oldest first."""
    rows = (ChatMessage.objects.filter(match_id=match_id, audience=audience_of(seat))
            .select_related("user__player").order_by("-pk")[:HISTORY])
    return [chat_frame(row, display_name(row.user)) for row in reversed(rows)]


def phrase_labels() -> dict:
    return {key: str(label) for key, label in PHRASES.items()}
