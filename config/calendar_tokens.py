"""A player's calendar token: their user id, signed, so a calendar app can subscribe to their
fixtures (tournaments/calendars.py serves the feed) without logging in. Here, not in tournaments,
because the profile page (clubs/views.py) shows the feed's address and clubs imports nothing of
the competitions. The salt is unchanged, so the addresses already handed out keep working."""

from django.core import signing
from django.http import Http404

SALT = "chalk.tournaments.calendar"


def player_token(user) -> str:
    return signing.Signer(salt=SALT).sign(str(user.pk))


def user_of_token(token: str) -> int:
    """The user id a token was signed for; 404 for a token not signed here."""
    try:
        return int(signing.Signer(salt=SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        raise Http404 from None
