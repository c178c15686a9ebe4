"""How numbers, signs, dates and durations read, the same on every page (issue 14).

Pure functions, registered as template filters for every template (TEMPLATES "builtins"), so
no page formats a score change or a clock its own way:

    {{ change.elo_delta|signed:1 }}   ->  "⁦+12.5⁩" (isolated, so Arabic never shows "12.5+")
    {{ match.time_control|duration_words }}  ->  "15 minutes", "دقيقتان", "1 minuto y 30 segundos"
    {{ when|short_date }} {{ when|clock_time }} {{ when|short_datetime }}

Digits are Western (0-9) in every language, as the Gulf's card apps write them.
"""

from datetime import timedelta

from django import template
from django.utils import formats, timezone
from django.utils.translation import ngettext, pgettext

register = template.Library()

LEFT_TO_RIGHT_ISOLATE = "\u2066"
POP_DIRECTIONAL_ISOLATE = "\u2069"


def isolate(text: str) -> str:
    """Wrap text in a left-to-right isolate so a sign keeps its side inside right-to-left text."""
    return f"{LEFT_TO_RIGHT_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


@register.filter
def signed(value, digits=0) -> str:
    """A change of score or rating: "+3", "-2", "0", with the sign always before the digits."""
    if value in (None, ""):
        return ""
    number = round(float(value), int(digits))
    figure = f"{abs(number):.{int(digits)}f}"
    sign = "+" if number > 0 else "-" if number < 0 else ""  # ASCII, as exports and the table write it
    return isolate(sign + figure)


def _parts(seconds: int) -> list[str]:
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    units = [
        (hours, lambda n: ngettext("%(count)s hour", "%(count)s hours", n)),
        (minutes, lambda n: ngettext("%(count)s minute", "%(count)s minutes", n)),
        (seconds, lambda n: ngettext("%(count)s second", "%(count)s seconds", n)),
    ]
    return [word(count) % {"count": count} for count, word in units if count]


@register.filter
def duration_words(value) -> str:
    """A length of time in words ("15 minutes"), from seconds or a timedelta; never "0:15:00"."""
    if value in (None, ""):
        return ""
    seconds = int(value.total_seconds() if isinstance(value, timedelta) else value)
    parts = _parts(seconds) or [ngettext("%(count)s second", "%(count)s seconds", 0) % {"count": 0}]
    text = parts[-1]
    for larger in reversed(parts[:-1]):
        # Translators: joins parts of a duration, larger unit first: "1 hour" + "5 minutes".
        text = pgettext("duration", "%(larger)s %(smaller)s") % {"larger": larger, "smaller": text}
    return text


def _local(value):
    return timezone.localtime(value) if timezone.is_aware(value) else value


@register.filter
def short_date(value) -> str:
    return formats.date_format(_local(value), "SHORT_DATE_FORMAT") if value else ""


@register.filter
def clock_time(value) -> str:
    return formats.time_format(_local(value), "TIME_FORMAT") if value else ""


@register.filter
def short_datetime(value) -> str:
    return formats.date_format(_local(value), "SHORT_DATETIME_FORMAT") if value else ""


@register.filter
def preset_label(key) -> str:
    """A rules preset's name from the translated table (gameplay/forms.py); never its key."""
    from gameplay.forms import PRESET_LABELS

    return str(PRESET_LABELS[key]) if key in PRESET_LABELS else ""


@register.filter
def choice_label(key) -> str:
    """A game option's chosen value from the translated table (gameplay/forms.py); never its key."""
    from gameplay.forms import CHOICE_LABELS

    return str(CHOICE_LABELS[str(key)]) if str(key) in CHOICE_LABELS else ""
