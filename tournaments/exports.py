"""CSV downloads of a competition: a round's pairings, every result, the standings. Column headers in
the reader's language, times in the competition's zone (named in the header), UTF-8 with a byte-order
mark so spreadsheet programs (Excel) read Arabic and Spanish names as they are."""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _, pgettext

from config.formatting import zone_name, zone_of
from tournaments.forms import TIEBREAK_LABELS
from tournaments.models import Competition, Pairing, Round

BOM = "\ufeff"
LOCAL = "%Y-%m-%d %H:%M"


def local(value, competition: Competition) -> str:
    """A moment in the competition's (its club's) zone, as a spreadsheet reads it: 2026-12-07 19:30."""
    return timezone.localtime(value, zone_of(competition.club.time_zone)).strftime(LOCAL) if value else ""


def zoned(header: str, competition: Competition) -> str:
    return f"{header} ({zone_name(competition.club.time_zone)})"


def cell(text: str) -> str:
    """A name as a cell: one that starts like a formula (= + - @) is kept as text, not run by a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def result_text(pairing: Pairing) -> str:
    """What a pairing's result column says: games won, or how it was decided without games."""
    if pairing.is_bye:
        return _("bye")
    if not pairing.is_decided:
        return ""
    if pairing.walkover:
        return _("double forfeit") if pairing.winner_id is None else str(Pairing.Source.WALKOVER.label)
    return f"{pairing.home_points}–{pairing.away_points}"


def pairings_table(competition: Competition, round_row: Round) -> tuple[list[str], list[list]]:
    header = [_("Table"), pgettext("pairing side", "Home"), pgettext("pairing side", "Away"),
              zoned(_("Starts"), competition), _("Result"), _("Winner")]
    pairings = (Pairing.objects.filter(round=round_row).select_related("home", "away", "winner", "round")
                .order_by("slot"))
    return header, [[p.slot, cell(p.home.name), cell(p.away.name) if p.away_id else _("bye"),
                     local(p.starts, competition), result_text(p), cell(p.winner.name) if p.winner_id else ""]
                    for p in pairings]


def results_table(competition: Competition) -> tuple[list[str], list[list]]:
    header = [_("Round"), _("Table"), pgettext("pairing side", "Home"), pgettext("pairing side", "Away"),
              _("Games won by the home pair"), _("Games won by the away pair"), _("Result"), _("Winner"), _("How it was decided"),
              zoned(_("Decided at"), competition)]
    decided = (Pairing.objects.filter(competition=competition, decided_at__isnull=False)
               .select_related("home", "away", "winner").order_by("round_number", "slot"))
    return header, [[p.round_number, p.slot, cell(p.home.name), cell(p.away.name) if p.away_id else _("bye"),
                     "" if p.is_bye or p.walkover else p.home_points, "" if p.is_bye or p.walkover else p.away_points,
                     result_text(p), cell(p.winner.name) if p.winner_id else "", p.get_source_display(),
                     local(p.decided_at, competition)] for p in decided]


def standings_table(competition: Competition, rows) -> tuple[list[str], list[list]]:
    """`rows`: the stored standings in order (pages.standings_rows); a column per tiebreak in its order."""
    names = [name for name, _value in (rows[0].tiebreaks if rows else ())]
    header = [_("Rank"), _("Pair"), pgettext("standings column", "Played"), pgettext("standings column", "Won"),
              pgettext("standings column", "Drawn"), pgettext("standings column", "Lost"), _("Points"), _("Games for"),
              _("Games against")] + [str(TIEBREAK_LABELS.get(name, name)) for name in names]
    body = []
    for s in rows:
        values = dict(s.tiebreaks or ())
        body.append([s.rank, cell(s.entry.name), s.played, s.won, s.drawn, s.lost, f"{s.points:g}", s.games_for,
                     s.games_against] + ["" if values.get(name) is None else f"{values[name]:g}" for name in names])
    return header, body


def csv_response(competition: Competition, what: str, header: list[str], rows: list[list]) -> HttpResponse:
    """The table as a CSV download: UTF-8 with a byte-order mark, named after the competition."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    response = HttpResponse((BOM + out.getvalue()).encode("utf-8"), content_type="text/csv; charset=utf-8")
    name = f"{slugify(competition.name) or 'competition'}-{competition.pk}-{what}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
