"""The signed-in home (dashboard), its in-place invitation answers, and the how-to-play pages.

Thin: reads come from home.queries; each answer is one service call — a partner's
invitation through tournaments.services.entries, a club's through clubs.services, a table's
through gameplay.api — and htmx swaps the invitations part in place with the outcome in words.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs import services as clubs
from config import public_cache
from config import views as site_views
from gameplay import api as gameplay
from home import queries
from tournaments import pages as competitions
from tournaments.services import CompetitionError, entries

HELP_GAMES = {"allfours": gameplay.Game.ALLFOURS.label, "baloot": gameplay.Game.BALOOT.label,
              "cuatrola": gameplay.Game.CUATROLA.label}

# Why a table invitation could not be answered, by the code gameplay refused it with.
TABLE_REFUSALS = {
    "finished": gettext_lazy("This table has already ended."),
    "forbidden": gettext_lazy("This invitation is no longer valid: the seat is not kept for you any more."),
    "not_found": gettext_lazy("This table does not exist any more."),
}


def home(request):
    """The dashboard for a signed-in player; the presentation page for everyone else.

    A player's page is kept (queries.kept_page) and served again while their tables, whose turn
    it is and their table invitations are as they were, in the same language and time zone; a
    page with messages waiting is always rendered (and not kept)."""
    if not request.user.is_authenticated:
        return site_views.home(request)
    user = request.user
    live = queries.live_parts(user)
    page_stamp = (get_language(), timezone.get_current_timezone_name(), queries.stamp(live))
    keepable = request.method == "GET" and not len(messages.get_messages(request))
    body = queries.kept_page(user.pk, page_stamp) if keepable else None
    if body is not None:
        return public_cache.served(body, request)
    response = render(request, "clubs/dashboard/home.html", queries.dashboard(user, live))
    kept = public_cache.body_to_keep(response) if keepable else None
    if kept is not None:
        queries.keep_page(user.pk, page_stamp, kept)
    return response


def invitations_answered(request, notice: str, ok: bool):
    """The invitations part again, with the outcome; after an accepted answer also the player's
    competitions and clubs, swapped out of band (htmx), since one of them has just changed."""
    context = {**queries.invitations(request.user), "notice": notice, "notice_ok": ok}
    if ok:
        context.update(queries.memberships(request.user), oob=True)
    return render(request, "clubs/dashboard/invitations.html", context, status=200 if ok else 409)


@login_required
@require_POST
def answer_invitation(request, place_id):
    """Accept or decline a partner's invitation to enter a competition as a pair."""
    place = competitions.partner_place_of(request.user, place_id)
    if place is None:
        raise Http404
    accept = request.POST.get("accept") == "1"
    try:
        entries.answer_invitation(place.entry, request.user, accept)
    except CompetitionError as error:
        return invitations_answered(request, error.message, False)
    return invitations_answered(request, _("Your pair is entered.") if accept else _("You declined the invitation."),
                                True)


@login_required
@require_POST
def answer_club_invitation(request, invitation_id):
    """Accept (a member now) or decline (gone) a club's invitation by name."""
    accept = request.POST.get("accept") == "1"
    try:
        invitation = clubs.answer_member_invitation(request.user, invitation_id, accept)
    except clubs.ClubError as error:
        return invitations_answered(request, error.message, False)
    club = invitation.club.name
    notice = (_("Welcome to %(club)s!") if accept else _("You declined the invitation to %(club)s.")) % {"club": club}
    return invitations_answered(request, notice, True)


@login_required
@require_POST
def answer_table_invitation(request, match_id):
    """"Take your seat" (the page goes to the table) or "Decline" (the seat is free again and
    the host's waiting room says so). From the home page by htmx; from the table's waiting room
    as a plain form (a message, then the table or the home page)."""
    accept = request.POST.get("accept") == "1"
    try:
        (gameplay.take_invited_seat if accept else gameplay.decline_invited_seat)(match_id, request.user)
    except gameplay.TableAnswerRefused as refused:
        notice, ok = str(TABLE_REFUSALS.get(refused.code, TABLE_REFUSALS["forbidden"])), False
    else:
        notice, ok = (_("Your seat is taken: going to the table.") if accept
                      else _("You declined the table invitation.")), True
    table = reverse("gameplay:table", args=[match_id])
    if not request.htmx:
        messages.add_message(request, messages.SUCCESS if ok else messages.ERROR, notice)
        return redirect(table if ok and accept else "home")
    response = invitations_answered(request, notice, ok)
    if ok and accept:
        response["HX-Redirect"] = table
    return response


def how_to_play(request, game):
    """A game's rules for players, in the page's language (one template per game and language)."""
    if game not in HELP_GAMES:
        raise Http404
    language = (get_language() or "en").split("-")[0]
    try:
        body = select_template([f"clubs/dashboard/help/{game}.{language}.html", f"clubs/dashboard/help/{game}.en.html"])
    except TemplateDoesNotExist:
        raise Http404 from None
    return render(request, "clubs/dashboard/how_to_play.html", {
        "game": game, "game_name": HELP_GAMES[game], "body": body.template.name, "games": HELP_GAMES})


def help_index(request):
    return render(request, "clubs/dashboard/help_index.html", {"games": HELP_GAMES})
