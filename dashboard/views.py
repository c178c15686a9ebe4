"""The signed-in home (dashboard), its in-place invitation answers, and the how-to-play pages.

Thin: reads come from dashboard.queries, the one write (answering a partner's invitation) goes
through tournaments.services.entries.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config import views as site_views
from dashboard import queries
from gameplay.models import Game
from tournaments.models import EntryPlayer
from tournaments.services import CompetitionError, entries

HELP_GAMES = {"allfours": Game.ALLFOURS.label, "baloot": Game.BALOOT.label, "cuatrola": Game.CUATROLA.label}


def home(request):
    """The dashboard for a signed-in player; the presentation page for everyone else."""
    if not request.user.is_authenticated:
        return site_views.home(request)
    return render(request, "dashboard/home.html", queries.dashboard(request.user))


@login_required
@require_POST
def answer_invitation(request, place_id):
    """Accept or decline a partner's invitation from the dashboard; htmx swaps the list in place."""
    place = get_object_or_404(EntryPlayer.objects.select_related("entry__competition"), pk=place_id,
                              user=request.user)
    accept = request.POST.get("accept") == "1"
    try:
        entries.answer_invitation(place.entry, request.user, accept)
    except CompetitionError as error:
        notice, ok = error.message, False
    else:
        notice, ok = (_("Your pair is entered.") if accept else _("You declined the invitation.")), True
    context = {"invitations": queries.partner_invitations(request.user), "notice": notice, "notice_ok": ok}
    return render(request, "dashboard/invitations.html", context, status=200 if ok else 409)


def how_to_play(request, game):
    """A game's rules for players, in the page's language (one template per game and language)."""
    if game not in HELP_GAMES:
        raise Http404
    language = (get_language() or "en").split("-")[0]
    try:
        body = select_template([f"dashboard/help/{game}.{language}.html", f"dashboard/help/{game}.en.html"])
    except TemplateDoesNotExist:
        raise Http404 from None
    return render(request, "dashboard/how_to_play.html", {
        "game": game, "game_name": HELP_GAMES[game], "body": body.template.name, "games": HELP_GAMES})


def help_index(request):
    return render(request, "dashboard/help_index.html", {"games": HELP_GAMES})
