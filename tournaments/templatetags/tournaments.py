"""Tags of the competition pages. The long loops (a standings row per pair, a bracket box per
match) are built here in Python with escaping rather than as template loops: at 512 pairs a
template loop spends most of the page's time resolving variables (benchmarks/standings_page.py)."""

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from config.formatting import date_time, duration_words, readers_date_time
from tournaments import display
from tournaments.brackets import BOX_H, BOX_W

register = template.Library()


def short_names() -> dict:
    return {"buchholz": _("Bu"), "sonneborn_berger": _("SB"), "head_to_head": _("H2H"),
            "game_difference": _("GD"), "game_points": _("GP")}


def number(value) -> str:
    return f"{value:g}"


@register.filter
def tiebreak_text(tiebreaks, names=None) -> str:
    """[[name, value], ...] as "Bu 7 · SB 4.5" (unbroken or unused ones left out)."""
    names = names or short_names()
    return " · ".join(f"{names.get(name, name)} {number(value)}" for name, value in tiebreaks or ()
                      if value is not None)


@register.simple_tag
def standings_body(rows, competition):
    """The <tr> of every standings row (tiebreaks outside brackets)."""
    names, out, show_tiebreaks = short_names(), [], not competition.is_bracket
    for s in rows:
        cells = [s.rank, escape(s.entry.name), s.played, s.won, s.drawn, s.lost, number(s.points),
                 f"{s.games_for}-{s.games_against}"]
        if show_tiebreaks:
            cells.append(escape(tiebreak_text(s.tiebreaks, names)))
        css = "" if s.entry.status == "confirmed" else ' class="out"'
        out.append(f"<tr{css}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return mark_safe("\n".join(out))


def _side_text(y: int, side, mirror: bool) -> str:
    """One pair's line of a box: (seed) name at the start, the games won at the end."""
    start, end = (BOX_W - 6, 8) if mirror else (6, BOX_W - 8)
    css = ' class="won"' if side.won else ""
    seed = f"({side.seed}) " if side.seed else ""
    name = escape(Truncator(seed + side.text).chars(36))
    points = f'<text x="{end}" y="{y}" class="points"{css}>{side.points}</text>' if side.points else ""
    return f'<text x="{start}" y="{y}"{css}>{name}</text>{points}'


def _box_link(box, competition) -> str:
    p = box.pairing
    if p is None:
        return ""
    if p.match_id and p.match.is_finished:
        return reverse("gameplay:replay", args=[p.match_id])
    if p.match_id:
        return reverse("gameplay:table", args=[p.match_id])
    return reverse("tournaments:round", args=[competition.pk, p.round_number])


@register.simple_tag
def bracket_boxes(drawing, competition, mirror=False):
    """One SVG group per box: its name, both sides, the games won, a link to its match."""
    out = []
    for box in drawing.boxes:
        title = f'<title>{escape(box.title)}</title>'
        body = (f'{title}<rect width="{BOX_W}" height="{BOX_H}" rx="4"/>'
                f'{_side_text(17, box.home, mirror)}{_side_text(37, box.away, mirror)}')
        link = _box_link(box, competition)
        future = "" if box.pairing else ' class="future"'
        if link:
            body = f'<a href="{link}" data-testid="bracket-match">{body}</a>'
        out.append(f'<g transform="translate({box.x} {box.y})"{future} data-box="{escape(box.label)}">{body}</g>')
    return mark_safe("\n".join(out))


# ----- words and times (formatted by config/formatting.py, described by tournaments/display.py) --

@register.filter
def club_time(value, club) -> str:
    """<time> in the club's zone, the zone named: every competition page reads the same clock."""
    if value is None:
        return ""
    return format_html('<time datetime="{}">{}</time>', value.isoformat(), date_time(value, club.time_zone or "UTC"))


@register.filter
def reader_time(value, user) -> str:
    """<time> in the reader's own zone (their profile's), the zone named."""
    if value is None:
        return ""
    return format_html('<time datetime="{}">{}</time>', value.isoformat(), readers_date_time(value, user))


@register.filter
def in_words(value) -> str:
    return "" if value is None else duration_words(value)


@register.filter
def preset_name(key) -> str:
    return display.preset_label(key)


@register.filter
def option_lines(options, game="") -> list:
    return display.option_lines(options or {}, game or "")


@register.filter
def option_word(value) -> str:
    return display.option_value(value)


@register.simple_tag(takes_context=True)
def organised_clubs(context):
    """The clubs the signed-in reader may create competitions in (for the New competition links)."""
    from clubs.models import Club, Membership
    user = context.get("user")
    if not getattr(user, "is_authenticated", False):
        return []
    roles = [Membership.Role.OWNER, Membership.Role.ORGANISER]
    return list(Club.objects.filter(memberships__user=user, memberships__role__in=roles).order_by("name"))


@register.filter
def notice_text(notification) -> str:
    """A notification in the reader's language (tournaments/notices.py)."""
    from tournaments.notices import text_of
    return text_of(notification)


@register.filter
def pairing_seen(pairing) -> str:
    from tournaments.services.controls import pairing_state
    return pairing_state(pairing)


@register.simple_tag(takes_context=True)
def control_fields(context, action, pairing, members):
    """A control's fields: the refused form again (its errors beside its fields) or a fresh one."""
    from tournaments.forms import control_form
    failed = context.get("failed_form")
    if failed is not None and context.get("failed_action") == action:
        return failed.as_div()
    return control_form(action, pairing, members).as_div()


@register.filter
def tiebreak_short(name) -> str:
    return short_names().get(name, "")


@register.filter
def as_float(value):
    """An exact fraction (a duplicate's matchpoints and percentages) for floatformat / signed."""
    return "" if value is None else float(value)
