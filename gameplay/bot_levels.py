"""The bot levels a person can pick, with their translated labels, and a bot seat's shown name.

The level is the bot's registry name (`gameplay.bots.BOTS`), stored as `Seat.bot`; `random` is
kept for load tests and older tables.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from gameplay.bots import DEFAULT_LEVEL, LEVELS

LEVEL_LABELS = {
    "easy": pgettext_lazy("bot level", "Easy"),
    "normal": pgettext_lazy("bot level", "Normal"),
    "strong": pgettext_lazy("bot level", "Strong"),
    "random": pgettext_lazy("bot level", "Random"),
}
LEVEL_CHOICES = [(level, LEVEL_LABELS[level]) for level in LEVELS]


def level_label(bot: str) -> str:
    return str(LEVEL_LABELS.get(bot, LEVEL_LABELS[DEFAULT_LEVEL]))


def bot_seat_name(bot: str, seat: int) -> str:
    """How a bot seat is named wherever seats are listed: a bot, its level, its seat."""
    return _("Bot %(number)s (%(level)s)") % {"number": seat + 1, "level": level_label(bot)}


def valid_level(value) -> str:
    """A level from a form post, or the default for anything else."""
    return value if value in LEVELS else DEFAULT_LEVEL


def substitute_level(match) -> str:
    """The level of a bot that takes an absent player's seat at this table: the competition's
    choice for a competition table, else the default (normal)."""
    pairing = getattr(match, "pairing", None) if match.pk else None
    if pairing is None:
        return DEFAULT_LEVEL
    return valid_level(pairing.competition.substitute_bot)
