"""What a person reads about a competition, in words: times in a named zone, durations, the
rules by name, round names of a bracket. One rule for time (docs/competitions.md): a competition's
pages use its club's zone, a reader's own pages (notifications) the reader's zone, and the zone is
always written beside the time."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

# Numbers, dates and durations have one owner, config/formatting.py; this module says what
# competitions mean in words and formats through it.
# Zone choices live there too, so clubs' zone field uses them without importing tournaments.
from config.formatting import (COMMON_ZONES, date_time, duration_words, preset_label, valid_zone_names, zone_choices,
                               zone_of)
from gameplay.api import CHOICE_LABELS, KEY_LABELS, OPTION_LABELS, option_help, options_chosen

__all__ = ["COMMON_ZONES", "bracket_title", "duration", "in_zone", "option_lines", "option_value", "preset_label",
           "round_name", "valid_zone_names", "zone_choices", "zone_of"]

def in_zone(value, zone_name: str) -> str:
    """A moment as the reader's language writes it, in `zone_name`, with the zone named."""
    return date_time(value, zone_name or "UTC")


def duration(value) -> str:
    """15 minutes, 1 hour 30 minutes, 2 days: never 0:15:00 (config.formatting.duration_words)."""
    return "" if value is None else duration_words(value)


def option_lines(options: dict, game: str = "") -> list[tuple[str, str, str]]:
    """(label, value, what it does) of each rule option, in words: for a known game the options its
    form offers in that mode, in the form's order; otherwise every option but the clock and the mode.
    Every shown option has a label (tests/foundation/test_players_terms.py)."""
    chosen = options_chosen(game, options) or [
        (key, value) for key, value in sorted(options.items()) if key not in ("turn_timer_seconds", "game_mode")]
    return [(str(OPTION_LABELS[key]), option_value(value), str(option_help(game, key))) for key, value in chosen]


def option_value(value) -> str:
    if type(value) is bool:
        return _("Yes") if value else _("No")
    if isinstance(value, dict) and set(value) <= KEY_LABELS.keys():  # La Cuatrola's contract values
        return ", ".join(f"{KEY_LABELS[key]} {option_value(v)}" for key, v in value.items())
    if isinstance(value, (list, tuple, dict)):
        return ", ".join(option_value(v) for v in (value.values() if isinstance(value, dict) else value))
    return str(CHOICE_LABELS.get(str(value), value))


def round_name(columns_from_end: int, bracket: str = "main") -> str:
    """Final, Semi-final, Quarter-final, Round of 16... counted from the bracket's last round."""
    if bracket != "main":
        return ""
    if columns_from_end == 0:
        return pgettext("knockout round", "Final")
    if columns_from_end == 1:
        return pgettext("knockout round", "Semi-finals")
    if columns_from_end == 2:
        return pgettext("knockout round", "Quarter-finals")
    return pgettext("knockout round", "Round of %(n)d") % {"n": 2 ** (columns_from_end + 1)}


def bracket_title(name: str) -> str:
    return {"main": _("Main bracket"), "winners": _("Winners' bracket"), "losers": _("Losers' bracket"),
            "final": _("Grand final"),
            "third_place": _("Third-place match")}.get(name, "")
