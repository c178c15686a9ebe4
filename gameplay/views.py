"""Pages of live play: the lobby, a new table, the table itself, invitations, the archive.

Thin (docs/style.md §5): they read through gameplay.listings and gameplay.log, ask gameplay.access
who may see what, and call
gameplay.services to change anything. The live table itself talks to the websocket consumer;
these pages only hand it its start-up data.
"""

from __future__ import annotations

import functools
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.paging import window_page
from config.public_cache import cached_for_visitors
from gameplay import archive, listings, log, play_now as queue, rematch, replay_cache, services
from gameplay.access import READER_FIELDS, reader_for
from gameplay.bot_levels import LEVEL_CHOICES, bot_seat_name, valid_level
from gameplay.cardfaces import deck_folder
from gameplay.forms import NewTableForm, PlayNowForm, queue_label
from gameplay.labels import client_labels, match_ending
from gameplay.models import Game, Match, Seat
from gameplay.rules import get_game
from gameplay.table import Table

LIST_SIZE = listings.LIST_SIZE


# ----- finding tables --------------------------------------------------------------------------

@cached_for_visitors
def lobby(request):
    return render(request, "gameplay/lobby.html", listings.lobby_lists(request.user))


ARCHIVE_KINDS = ("casual", "competition")


@cached_for_visitors
def archive_list(request):
    game, player = request.GET.get("game", ""), request.GET.get("player", "")  # player: from a player page
    kind = request.GET.get("kind", "")
    only_mine = request.GET.get("mine") == "1" and request.user.is_authenticated
    matches = (listings.archive_matches(request.user, game, player, only_mine)
               .select_related("pairing__competition").prefetch_related("seats__user__player")
               .order_by("-finished_at", "-pk"))
    if kind in ARCHIVE_KINDS:
        matches = matches.filter(pairing__isnull=kind == "casual")
    page = window_page(matches, LIST_SIZE, request.GET.get("page"))  # no COUNT of the whole archive
    rows = [archive_row(match) for match in page.object_list]
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "gameplay/archive_list.html", {
        "page": page, "rows": rows, "games": Game.choices, "game": game, "kind": kind, "only_mine": only_mine,
        "player": player, "query": query.urlencode()})


def archive_row(match: Match) -> dict:
    """One finished match as the archive lists it: teams (seats 0 & 2, 1 & 3), score, winner."""
    names = [seat_name(seat) for seat in match.seats.all()]
    teams = [" & ".join(names[team::2]) for team in (0, 1)]
    pairing = getattr(match, "pairing", None)
    return {"match": match, "teams": teams, "score": archive.final_score(match.result, match.games_to_win),
            "winner": match.winner, "competition": pairing.competition if pairing else None}


def seat_name(seat: Seat) -> str:
    if seat.user_id:
        player = getattr(seat.user, "player", None)
        return player.name if player else seat.user.get_username()
    return bot_seat_name(seat.bot, seat.seat) if seat.bot else ""


# ----- starting and joining --------------------------------------------------------------------

@login_required
def new_table(request):
    form = NewTableForm(request.POST or None, game=request.GET.get("game", Game.ALLFOURS),
                        preset=request.GET.get("preset"), user=request.user)
    if request.method == "POST" and form.is_valid():
        match = form.create_table(request.user)
        return redirect("gameplay:table", match_id=match.pk)
    template = "gameplay/new_table_form.html" if request.htmx else "gameplay/new_table.html"
    return render(request, template, {"form": form})


# ----- Play now (gameplay/play_now.py) ---------------------------------------------------------

@login_required
def play_now(request):
    """The queue's page: the form to join one, or the wait in it (refreshed by htmx), or the
    table it seated the player at. A player waiting in another queue is told beside the field."""
    if (match_id := queue.pick_up(request.user)) is not None:
        return redirect("gameplay:table", match_id=match_id)
    form = PlayNowForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        game, preset = form.game_and_preset()
        try:
            queue.join(request.user, game, preset, form.cleaned_data["bots_after"])
        except queue.QueueRefused as refused:
            form.add_error("queue", refused.message)
        else:
            return redirect("gameplay:play_now")  # the wait, or the table it seated them at at once
    return render(request, "gameplay/play_now.html", {"form": form, **_queue_context(request.user)})


def _queue_context(user) -> dict:
    entry = queue.waiting_entry(user)
    if entry is None or entry.match_id is not None:
        return {"entry": None}
    return {"entry": entry, "queue_name": queue_label(entry.game, entry.preset),
            "waited": queue.waited_seconds(entry), "bots_after": entry.bots_after}


@login_required
def play_now_status(request):
    """The wait's panel for htmx every few seconds; a seated player is sent to the table."""
    entry = queue.waiting_entry(request.user)
    if entry is not None and entry.match_id is not None:
        response = render(request, "gameplay/play_now_status.html", {"entry": None})
        response["HX-Redirect"] = reverse("gameplay:play_now")
        return response
    return render(request, "gameplay/play_now_status.html", _queue_context(request.user))


@login_required
@require_POST
def play_now_leave(request):
    if queue.leave(request.user):
        messages.info(request, _("You left the queue."))
    return redirect("gameplay:play_now")


@login_required
def join(request, code):
    match = get_object_or_404(Match, invite_code=code)
    try:
        services.take_seat(match, request.user)
    except services.ActionRejected as rejected:
        messages.info(request, _("This table has already started; you can watch it.")
                      if rejected.code != "forbidden" or match.status != Match.Status.WAITING
                      else _("There is no free seat at this table."))
        if not reader_for(match, request.user).may_watch:
            raise Http404 from None
    return redirect("gameplay:table", match_id=match.pk)


@login_required
@require_POST
def fill_with_bots(request, match_id):
    match = get_object_or_404(Match, pk=match_id)
    if match.created_by_id != request.user.pk:
        raise Http404
    if match.rated:  # four people or nothing: the form offers no bots for it either
        messages.info(request, _("A rated table waits for four people: it cannot be filled with bots."))
        return redirect("gameplay:table", match_id=match.pk)
    services.fill_with_bots(match, valid_level(request.POST.get("level")))
    return redirect("gameplay:table", match_id=match.pk)


@login_required
@require_POST
def withdraw_invitation(request, match_id, seat):
    """The creator takes back the seat kept for a friend; the waiting room shows it free."""
    match = get_object_or_404(Match, pk=match_id)
    if match.created_by_id != request.user.pk:
        raise Http404
    try:
        services.withdraw_invitation(match, request.user, seat)
    except services.ActionRejected:
        messages.info(request, _("That invitation can no longer be withdrawn."))
    else:
        messages.success(request, _("The invitation is withdrawn: the seat is free again."))
    return redirect("gameplay:table", match_id=match.pk)


# ----- the table and the archive ---------------------------------------------------------------

def watchable(request, match_id, only: tuple[str, ...] = ()) -> tuple[Match, object]:
    """The match and the reader, or 404 for a table this user may not see (private tables stay
    unlisted: a stranger cannot tell them from missing ones). `only`: the match's fields to read,
    when the caller needs few of them (the rest are read if touched)."""
    rows = Match.objects.only(*only) if only else Match.objects.select_related("created_by")
    match = get_object_or_404(rows, pk=match_id)
    reader = reader_for(match, request.user)
    if not reader.may_watch:
        raise Http404
    return match, reader


def seat_names(match: Match) -> list[dict]:
    you = _("You")
    return [{"seat": seat.seat, "name": seat_name(seat), "user_id": seat.user_id, "bot": bool(seat.bot), "you": you,
             "user": seat.user, "invited": seat.invited,
             "declined_by": seat_name_of(seat.declined_by) if seat.declined_by_id and not seat.is_filled else ""}
            for seat in match.seats.select_related("user__player", "declined_by__player").order_by("seat")]


def seat_name_of(user) -> str:
    player = getattr(user, "player", None)
    return player.name if player else user.get_username()


@functools.lru_cache(maxsize=8)
def card_urls(game: str) -> dict:
    """Static URLs of a game's card faces: fixed for the life of a process (the manifest is
    read once), and some sixty lookups a table or replay page otherwise."""
    folder = deck_folder(game)
    codes = get_game(game).deck.codes
    # the four-colour deck's faces where they differ (the Spanish deck has four colours already)
    four = {code: static(f"cards/french4/{code}.svg") for code in codes if folder == "french" and code[-1] in "DC"}
    return {"faces": {code: static(f"cards/{folder}/{code}.svg") for code in codes},
            "faces4": four, "back": static("cards/back.svg"), "deck": folder}


def past_target(match: Match) -> bool:
    """Whether a team must pass the target to win (Baloot's "more than 151": 152 is what players
    say) rather than reach it (All Fours' 14, La Cuatrola's 11, Baloot's "at least" rule)."""
    return get_game(match.game).resolve_options(match.options).get("target_rule") == "greater"


def table(request, match_id):
    match, reader = watchable(request, match_id)
    seats = seat_names(match)
    context = {"match": match, "reader": reader, "seats": seats,
               "is_creator": request.user.is_authenticated and match.created_by_id == request.user.pk,
               "invite_url": request.build_absolute_uri(reverse("gameplay:join", args=[match.invite_code])),
               "empty_seats": sum(1 for s in seats if not s["name"]), "bot_levels": LEVEL_CHOICES,
               "invited_here": any(s["invited"] and s["user_id"] == request.user.pk for s in seats),
               "names_json": json.dumps([{"name": s["name"], "bot": s["bot"]} for s in seats])}
    if request.htmx:
        return render(request, "gameplay/table_waiting.html", context)
    context["boot"] = {
        "match": match.pk, "ws": f"/ws/matches/{match.pk}/", "seat": reader.seat, "game": match.game,
        "names": [s["name"] for s in seats], "bots": [s["bot"] for s in seats],
        "cards": card_urls(match.game), "labels": client_labels(),
        "replay": reverse("gameplay:replay", args=[match.pk]), "lobby": match.return_to or reverse("gameplay:lobby"),
        "lobby_label": "back_to_competition" if match.return_to else "lobby",
        "status": match.status, "user": request.user.pk, "table_url": reverse("gameplay:table", args=[match.pk]),
        "past_target": past_target(match), "prefs": table_prefs(request.user),
    }
    if match.status != Match.Status.ABORTED:  # once finished, a casual match offers Rematch
        context["boot"]["rematch"] = {"offer": rematch.may_offer(match, reader.seat), "labels": rematch.labels()}
    return render(request, "gameplay/table.html", context)


# The table settings a player keeps in their profile (clubs' Player: hand order, four-colour
# deck, card size, sound and vibration on their turn), and what a visitor gets.
TABLE_PREFS = {"hand_order": "suit", "four_colour_deck": False, "card_size": "medium", "turn_alert": False}


def table_prefs(user) -> dict:
    player = getattr(user, "player", None) if user.is_authenticated else None
    return {name: getattr(player, name, default) for name, default in TABLE_PREFS.items()}


def finished_match(request, match_id, only: tuple[str, ...] = ()) -> Match:
    """A finished match this reader may watch; 404 before the end (an archive shows every hand)."""
    match, _reader = watchable(request, match_id, only)
    if not match.is_finished:
        raise Http404
    return match


def finished_table(request, match_id) -> tuple[Match, Table]:
    """The replayed table of a finished match (finished_match)."""
    match = finished_match(request, match_id)
    return match, log.replay(match)


@cached_for_visitors
def replay(request, match_id):
    match = finished_match(request, match_id)
    summary = replay_cache.summary(match)  # the timeline is worked out once per finished match
    names = [s["name"] for s in seat_names(match)]
    boot = {"match": match.pk, "game": match.game, "names": names,
            "cards": card_urls(match.game), "labels": client_labels(),
            "timeline": reverse("gameplay:replay_timeline", args=[match.pk])}
    winners = " & ".join(names[match.winner::2]) if match.winner is not None else ""
    return render(request, "gameplay/replay.html", {
        "match": match, "games": range(summary.games), "games_won": summary.games_won, "boot": boot,
        "ending": match_ending(match.finish, winners)})


def replay_timeline(request, match_id):
    """What replay.js steps through: every frame of every game, every hand shown. Its match row
    is read for the access rule and the cache's key alone: the whole row and its creator cost
    more than the rest of the answer, the ready timeline read from the cache included."""
    fields = ("status", *READER_FIELDS, *replay_cache.KEY_FIELDS)  # finished? may they watch? which timeline?
    return replay_cache.timeline_response(request, finished_match(request, match_id, fields))


def export(request, match_id):
    match, table = finished_table(request, match_id)
    try:
        number = int(request.GET.get("game", 0))
    except ValueError:
        raise Http404 from None
    scenario = archive.scenario(table.all_games(), number)
    if scenario is None:
        raise Http404
    response = JsonResponse(scenario, json_dumps_params={"indent": 1})
    # A download, named for the match and the game shown (best of N: one file per game).
    response["Content-Disposition"] = f'attachment; filename="chalk-{match.game}-match-{match.pk}-game-{number + 1}.json"'
    return response
