"""Tags of the competition pages. The long loops (a standings row per pair, a bracket box per
match) are built here in Python with escaping rather than as template loops: at 512 pairs a
template loop spends most of the page's time resolving variables (benchmarks/standings_page.py)."""

from django import template
from django.core.exceptions import FieldDoesNotExist
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.text import Truncator, capfirst
from django.utils.translation import gettext as _

from config.formatting import date_time, duration_words, readers_date_time, signed
from tournaments import display
from tournaments.brackets import BOX_H, BOX_W
from tournaments.models import Competition

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
    names, out, show_tiebreaks = short_names(), [], not competition.has_bracket
    for s in rows:
        difference = signed(s.games_for - s.games_against) or "0"
        cells = [s.rank, escape(s.entry.name), s.played, s.won, s.drawn, s.lost, number(s.points),
                 f'<span title="{s.games_for}–{s.games_against}" data-testid="games-difference">{difference}</span>']
        if show_tiebreaks:
            cells.append(escape(tiebreak_text(s.tiebreaks, names)))
        css = "" if s.entry.status == "confirmed" else ' class="out"'
        out.append(f"<tr{css}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return mark_safe("\n".join(out))


SIDE_CHARS = 48  # at 12px, the longest box label of the three languages fits BOX_W


def _side_text(y: int, side, mirror: bool) -> str:
    """One pair's line of a box: (seed) name at the start, the games won at the end."""
    start, end = (BOX_W - 6, 8) if mirror else (6, BOX_W - 8)
    css = ' class="won"' if side.won else ""
    seed = f"({side.seed}) " if side.seed else ""
    full = seed + side.text
    shown = Truncator(full).chars(SIDE_CHARS - (6 if side.points else 0))
    whole = f"<title>{escape(full)}</title>" if shown != full else ""  # a cut name is read whole on hover
    points = f'<text x="{end}" y="{y}" class="points"{css}>{escape(side.points)}</text>' if side.points else ""
    return f'<text x="{start}" y="{y}"{css}>{whole}{escape(shown)}</text>{points}'


def _box_link(box, competition) -> str:
    p = box.pairing
    if p is None:
        return ""
    if p.table is not None and p.table.is_finished:
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
    from clubs.permissions import clubs_for_new_competitions
    return clubs_for_new_competitions(context.get("user"))


@register.simple_tag
def club_competitions(club, include_drafts=False, member=False) -> dict:
    """A club's running and coming competitions and next rounds, for the club page (tournaments.pages's)."""
    from tournaments.pages import club_competitions as of_club
    return of_club(club, bool(include_drafts), bool(member))


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
def tiebreak_label(name) -> str:
    """A tiebreak's whole name in the reader's language (the competition page's facts)."""
    from tournaments.forms import TIEBREAK_LABELS
    return str(TIEBREAK_LABELS.get(name, ""))


@register.filter
def changed_fields(changed) -> str:
    """The names of the fields an edit changed, as the reader's language says them."""
    names = []
    for name in changed or ():
        if name.startswith("round_") and name[6:].isdigit():  # a round's start moved after the competition's start
            names.append(_("Round %(number)s starts at") % {"number": name[6:]})
            continue
        try:
            names.append(str(capfirst(Competition._meta.get_field(name).verbose_name)))
        except FieldDoesNotExist:  # a field since removed: its name is still better than nothing
            names.append(name)
    return ", ".join(names)


@register.simple_tag
def check_in_state(pairing) -> dict:
    """Who is here for a pairing, by name: players checked in, and a bot pair (always there); and
    who is not yet. From the round page's prefetched players and check-ins: no query."""
    checked = {check.user_id for check in pairing.check_ins.all()}
    here, waiting = [], []
    for entry in (pairing.home, pairing.away):
        if entry is None:
            continue
        if entry.bot:
            here.append(entry.name)
            continue
        for place in entry.players.all():
            name = getattr(getattr(place.user, "player", None), "name", "") or place.user.get_username()
            (here if place.user_id in checked else waiting).append(name)
    return {"here": here, "waiting": waiting}


@register.filter
def isolated(value) -> str:
    """A name inside a translated sentence, isolated (<bdi>): a Latin name with parentheses keeps
    its order in an Arabic heading."""
    return format_html("<bdi>{}</bdi>", value)


@register.filter
def as_float(value):
    """An exact fraction (a duplicate's matchpoints and percentages) for floatformat / signed."""
    return "" if value is None else float(value)


@register.inclusion_tag("tournaments/result_report.html", takes_context=True)
def result_report(context, pairing):
    """A match played at the club, as its players report it (tournaments/services/reports.py): the
    report form for its players, the answer buttons for the other pair, the report's state for all.
    The round page hands over every pairing's report and the reader's sides; a row re-rendered on
    its own (an organiser's control) looks them up."""
    from tournaments.forms import report_form
    from tournaments.services import reports

    competition = pairing.competition
    if not competition.players_report or pairing.away_id is None:
        return {"shown": False}
    request = context.get("request")
    user = getattr(request, "user", None)
    found = context.get("reports")
    report = found.get(pairing.pk) if found is not None else reports.reports_of([pairing.pk]).get(pairing.pk)
    sides = context.get("my_sides")
    side = sides.get(pairing.pk) if sides is not None else reports.side_of(pairing, user)
    refused = context.get("report_form")
    form = refused[1] if refused and refused[0] == pairing.pk else None
    reporter_side = None if report is None else ("home" if report.entry_id == pairing.home_id else "away")
    open_to_players = reports.may_report(pairing)
    return {
        "shown": True, "p": pairing, "competition": competition, "report": report, "side": side,
        "csrf_token": context.get("csrf_token"), "open": open_to_players,
        "can_report": open_to_players and side is not None and (report is None or (
            report.status == "pending" and reporter_side == side)),
        "can_answer": open_to_players and side is not None and report is not None and report.status == "pending"
        and reporter_side != side,
        "form": form or (report_form(pairing) if open_to_players and side else None),
        "reported_winner": None if report is None else
        {"home": pairing.home.name, "away": pairing.away.name}.get(report.winner_side, ""),
    }
@register.filter
def played_by(pairing, side: str) -> str:
    """Who played this side of a pairing when it is not what the pair's name says (a substitute
    came in, or the pair has a name of its own); "" otherwise (tournaments/services/lineups.py)."""
    from tournaments.services.lineups import played_by as names
    entry = pairing.home if side == "home" else pairing.away
    return names(pairing, side, entry.name if entry is not None else "")
