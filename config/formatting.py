"""How numbers, signs, dates and durations read, the same on every page (issue 14).

The one owner of that formatting: pure functions, registered as template filters for every
template (TEMPLATES "builtins"), and called by tournaments/display.py and the competition tags,
so no page formats a score change or a clock its own way:

    {{ change.elo_delta|signed:1 }}   ->  "⁦+12.5⁩" (isolated, so Arabic never shows "12.5+")
    {{ match.time_control|duration_words }}  ->  "15 minutes", "دقيقتان", "1 minuto y 30 segundos"
    {{ when|day_date }} {{ when|clock_time }}  ->  one format per language (DATE_FORMATS)
    {{ when|date_time }}  ->  the date and time in the active zone, the zone named: "Dec. 1, 2026, 9 p.m. (UTC)"
    date_time(when, "Asia/Riyadh")  ->  the same in a named zone (a club's)
    {{ when|readers_date_time:user }}  ->  the same in the reader's own zone

Digits are Western (0-9) in every language, as the Gulf's card apps write them; on Arabic pages a
player may choose Eastern Arabic digits, applied to the whole page by config/digits.py.
"""

import zoneinfo
from datetime import timedelta

from django import template
from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from gameplay.api import PRESET_LABELS

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
    days, rest = divmod(seconds, 24 * 3600)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    units = [
        (days, lambda n: ngettext("%(n)d day", "%(n)d days", n) % {"n": n}),
        (hours, lambda n: ngettext("%(count)s hour", "%(count)s hours", n) % {"count": n}),
        (minutes, lambda n: ngettext("%(count)s minute", "%(count)s minutes", n) % {"count": n}),
        (seconds, lambda n: ngettext("%(count)s second", "%(count)s seconds", n) % {"count": n}),
    ]
    return [word(count) for count, word in units if count]


@register.filter
def duration_words(value) -> str:
    """A length of time in words ("15 minutes", "2 days 3 hours"), from seconds or a timedelta;
    never "0:15:00". No time at all reads "no time"."""
    if value in (None, ""):
        return ""
    seconds = int(value.total_seconds() if isinstance(value, timedelta) else value)
    parts = _parts(max(seconds, 0))
    if not parts:
        return _("no time")
    text = parts[-1]
    for larger in reversed(parts[:-1]):
        # Translators: joins parts of a duration, larger unit first: "1 hour" + "5 minutes".
        text = pgettext("duration", "%(larger)s %(smaller)s") % {"larger": larger, "smaller": text}
    return text


def zone_of(name: str):
    """The zone called `name`; UTC for an empty or unknown name."""
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def zone_name(name: str) -> str:
    """A zone as people read it: "America/Port of Spain"."""
    return (name or "UTC").replace("_", " ")


# The zones people pick most, first in the list (the full list stays accepted). The players' and
# the clubs' zone field (clubs/forms.py) and the competitions' pages share them.
COMMON_ZONES = (
    "America/Port_of_Spain", "Asia/Riyadh", "Asia/Dubai", "Asia/Kuwait", "Asia/Qatar", "Asia/Bahrain",
    "Europe/Madrid", "Europe/London", "America/New_York", "America/Toronto", "Atlantic/Canary",
    "America/Caracas", "America/Mexico_City", "Europe/Paris", "UTC",
)


def valid_zone_names() -> set[str]:
    """Every real zone; `localtime` and `Factory` are not places a person lives in."""
    return {name for name in zoneinfo.available_timezones() if name not in ("localtime", "Factory")}


def zone_choices() -> list[tuple[str, str]]:
    """Common zones first, then the rest alphabetically."""
    rest = sorted(valid_zone_names() - set(COMMON_ZONES))
    return [(name, name.replace("_", " ")) for name in (*COMMON_ZONES, *rest)]


def _local(value):
    return timezone.localtime(value) if timezone.is_aware(value) else value


# One way to write a date per language, and one a time (issue 32: English showed "12/07/2026" on
# the home and "Dec. 7" elsewhere, Arabic three formats). Every date a person reads goes through
# day_date or date_time; month names come translated from Django's catalogues.
DATE_FORMATS = {"en": "N j, Y", "es": r"j \d\e F \d\e Y", "ar": "j F Y"}
TIME_FORMATS = {"en": "P", "es": "H:i", "ar": "g:i A"}


def _language() -> str:
    language = (translation.get_language() or "en")[:2]
    return language if language in DATE_FORMATS else "en"


@register.filter
def day_date(value) -> str:
    """A day as the reader's language writes it, the only way: "Dec. 7, 2026", "7 de diciembre
    de 2026", «7 ديسمبر 2026»."""
    return dateformat.format(_local(value), DATE_FORMATS[_language()]) if value else ""


short_date = register.filter("short_date", day_date)  # the older name of the same format


@register.filter
def clock_time(value) -> str:
    return dateformat.time_format(_local(value), TIME_FORMATS[_language()]) if value else ""


def _date_and_time(local) -> str:
    # Translators: a date and a time of day, as in "Dec. 7, 2026, 9 p.m."
    return pgettext("date and time", "%(date)s, %(time)s") % {
        "date": dateformat.format(local, DATE_FORMATS[_language()]),
        "time": dateformat.time_format(local, TIME_FORMATS[_language()])}


@register.filter
def date_time(value, zone: str = "") -> str:
    """A moment as the reader's language writes it, in `zone` (the active zone when not given),
    with the zone named: every time shown names its zone."""
    if not value:
        return ""
    name = zone or timezone.get_current_timezone_name()
    local = timezone.localtime(value, zone_of(name)) if timezone.is_aware(value) else value
    return f"{_date_and_time(local)} ({zone_name(name)})"


def reader_zone(user) -> str:
    """The zone of the reader's profile; UTC for a visitor or a profile without one."""
    return getattr(getattr(user, "player", None), "time_zone", "") or "UTC"


@register.filter
def readers_date_time(value, user) -> str:
    """date_time in the reader's own zone (their profile's), the zone named: `{{ when|readers_date_time:user }}`."""
    return date_time(value, reader_zone(user))


@register.filter
def preset_label(key) -> str:
    """A rules preset's name from the translated table (gameplay/forms.py); never its key."""
    return str(PRESET_LABELS[key]) if key in PRESET_LABELS else ""

