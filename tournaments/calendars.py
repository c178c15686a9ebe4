"""iCal feeds (RFC 5545) of fixtures: a club's, and a player's (by a signed token, so a calendar
app can subscribe without logging in). One VEVENT per round a pair of the feed plays in, from the
round's start to its no-show deadline (a league: the fixture week)."""

from __future__ import annotations

from datetime import timezone as dt_timezone

from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club
from clubs.permissions import can_view_club
from config.calendar_tokens import player_token, user_of_token
from tournaments.models import Competition, EntryPlayer, Pairing


def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _stamp(moment) -> str:
    return moment.astimezone(dt_timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def _fold(line: str) -> str:
    """Lines longer than 75 octets continue on the next line after a space (RFC 5545 3.1)."""
    out, data = [], line.encode()
    while len(data) > 75:
        cut = 75
        while (data[cut] & 0xC0) == 0x80:
            cut -= 1
        out.append(data[:cut].decode())
        data = b" " + data[cut:]
    out.append(data.decode())
    return "\r\n".join(out)


def calendar(name: str, pairings, request) -> HttpResponse:
    now = _stamp(timezone.now())
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chalk//Competitions//EN", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{_escape(name)}"]
    for p in pairings:
        away = p.away.name if p.away_id else "bye"
        url = request.build_absolute_uri(reverse("tournaments:round", args=[p.competition_id, p.round_number]))
        lines += ["BEGIN:VEVENT", f"UID:pairing-{p.pk}@chalk", f"DTSTAMP:{now}",
                  f"DTSTART:{_stamp(p.starts)}", f"DTEND:{_stamp(p.deadline)}",
                  f"SUMMARY:{_escape(f'{p.competition.name} R{p.round_number}: {p.home.name} v {away}')}",
                  f"URL:{url}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    body = "\r\n".join(_fold(line) for line in lines) + "\r\n"
    return HttpResponse(body, content_type="text/calendar; charset=utf-8")


def _fixtures(**filters):
    return (Pairing.objects.filter(**filters).select_related("round", "competition", "home", "away")
            .order_by("round__starts_at", "slot")[:500])


def club_feed(request, club_slug):
    club = get_object_or_404(Club, slug=club_slug)
    if not club.is_public:
        raise Http404
    return calendar(club.name, _fixtures(competition__club=club,
                                         competition__visibility=Competition.Visibility.PUBLIC), request)


def player_feed(request, token):
    user_id = user_of_token(token)
    entry_ids = list(EntryPlayer.objects.filter(user_id=user_id).values_list("entry_id", flat=True))
    pairings = (Pairing.objects.filter(Q(home_id__in=entry_ids) | Q(away_id__in=entry_ids))
                .select_related("round", "competition", "home", "away").order_by("round__starts_at")[:500])
    return calendar("Chalk", pairings, request)


__all__ = ["club_feed", "player_feed", "player_token", "can_view_club"]
