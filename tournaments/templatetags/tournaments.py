"""Tags of the competition pages. The long loops (a standings row per pair, a bracket box per
match) are built here in Python with escaping rather than as template loops: at 512 pairs a
template loop spends most of the page's time resolving variables (benchmarks/standings_page.py)."""

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext as _

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


def _line(y: int, name: str, points: str, won: bool) -> str:
    css = ' class="won"' if won else ""
    return f'<text x="6" y="{y}"{css}>{escape(Truncator(name).chars(22))}{points}</text>'


@register.simple_tag
def bracket_boxes(boxes):
    """One SVG group per match: both pairs, the games won, a link to the table."""
    bye, out = _("bye"), []
    for box in boxes:
        p = box.pairing
        decided = p.decided_at is not None and p.away_id is not None
        home = _line(17, p.home.name, f" {p.home_points}" if decided else "", p.winner_id == p.home_id)
        away = (_line(37, p.away.name, f" {p.away_points}" if decided else "", p.winner_id == p.away_id)
                if p.away_id else _line(37, bye, "", False))
        body = f'<rect width="190" height="44" rx="4"/>{home}{away}'
        if p.match_id:
            body = f'<a href="{reverse("gameplay:table", args=[p.match_id])}">{body}</a>'
        out.append(f'<g transform="translate({box.x} {box.y})">{body}</g>')
    return mark_safe("\n".join(out))
