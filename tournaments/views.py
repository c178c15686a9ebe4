"""Pages of competitions: thin (docs/style.md §5). They read through tournaments.pages, decide who may
see or do what with clubs.permissions, and change things only through tournaments.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.permissions import can_create_competition
from config.paging import window_page
from config.public_cache import cached_for_visitors
from config.request_guard import bounded_int
from gameplay.api import Game
from tournaments import brackets, display, duplicate_pages, forms, pages
from tournaments.calendars import player_token
from tournaments.models import Competition, Entry, Notification, Pairing, Round
from tournaments.services import (CompetitionError, controls, entries, groups, lifecycle, manager, notify, organiser,
                                  reports)

LIST_SIZE = 30


def followable(request, pk) -> Competition:
    """The competition, or 404 when this user may not follow it (hidden ones look missing)."""
    competition = get_object_or_404(Competition.objects.select_related("club"), pk=pk)
    if not pages.can_follow(request.user, competition):
        raise Http404
    return competition


def managed(request, pk) -> Competition:
    competition = followable(request, pk)
    if not pages.can_manage(request.user, competition):
        raise PermissionDenied
    return competition


@cached_for_visitors
def competition_list(request):
    visible = pages.visible_competitions(request.user).select_related("club")
    current = visible.exclude(status__in=[Competition.Status.FINISHED, Competition.Status.CANCELLED])
    return render(request, "tournaments/list.html", {"competitions": current.order_by("starts_at")[:LIST_SIZE]})


@cached_for_visitors
def archive(request):
    finished = pages.visible_competitions(request.user).filter(status=Competition.Status.FINISHED)
    club, game, year = request.GET.get("club", ""), request.GET.get("game", ""), request.GET.get("year", "")
    if club:
        finished = finished.filter(club__slug=club)
    if game in Game.values:
        finished = finished.filter(game=game)
    if year_number := bounded_int(year, 1, 9999):  # a year past 9999 overflows the date lookup
        finished = finished.filter(finished_at__year=year_number)
    page = window_page(finished.select_related("club").order_by("-finished_at"), LIST_SIZE, request.GET.get("page"))
    years = sorted({d.year for d in Competition.objects.filter(status=Competition.Status.FINISHED)
                    .dates("finished_at", "year")}, reverse=True)
    return render(request, "tournaments/archive.html", {
        "page": page, "clubs": Club.objects.filter(competitions__status=Competition.Status.FINISHED).distinct(),
        "games": Game.choices, "years": years, "club": club, "game": game, "year": year})


@login_required
def new_competition(request, club_slug):
    club = get_object_or_404(Club, slug=club_slug)
    if not can_create_competition(request.user, club):
        raise PermissionDenied
    with timezone.override(display.zone_of(club.time_zone)):  # the form's times are the club's
        form = competition_form(request, club)
        if request.method == "POST" and form.is_bound and form.is_valid():
            competition = organiser.create_competition(form.create(club, request.user), request.user)
            return redirect(competition)
        template = "tournaments/new_form.html" if request.htmx else "tournaments/new.html"
        return render(request, template, {"form": form, "club": club})


def competition_form(request, club, competition=None) -> forms.CompetitionForm:
    """The bound form of a submission; else the form as the organiser left it after changing the
    game, format or preset (htmx sends which one; a browser without JavaScript posts `refresh`);
    else a new form, or the form of `competition` as it is (its edit page)."""
    url = reverse("tournaments:edit", args=[competition.pk]) if competition else reverse("tournaments:new",
                                                                                          args=[club.slug])
    zone = {"zone_name": club.time_zone, "refresh_url": url, "club_id": club.pk}
    if competition is not None:  # the groups are checked against the pairs entered so far
        zone["entered"] = competition.entries.filter(status=Entry.Status.CONFIRMED).count()
    if request.method == "POST" and "refresh" not in request.POST:
        return forms.CompetitionForm(request.POST, **zone)
    data = request.POST if request.method == "POST" else request.GET
    if "name" in data or "game" in data:
        return forms.CompetitionForm.refreshed(data, request.headers.get("HX-Trigger-Name", ""), **zone)
    if competition is not None:
        return forms.CompetitionForm.of(competition, **zone)
    return forms.CompetitionForm(game=club.first_game or Game.ALLFOURS, **zone)


@login_required
def edit_competition(request, pk):
    """Every field of a competition that has not started, on the creation form; audited. A second
    organiser's save in between is refused (the form's `seen`), and the form then shows what is."""
    competition = managed(request, pk)
    if competition.status == Competition.Status.RUNNING:
        from tournaments.life_views import edit_live  # after the start: what can still change
        return edit_live(request, competition)
    if competition.status != Competition.Status.OPEN:
        messages.error(request, _("The competition has ended: it can no longer be edited."))
        return redirect(competition)
    club = competition.club
    seen = (request.POST if request.method == "POST" else request.GET).get("seen") or \
        organiser.edit_fingerprint(competition)
    with timezone.override(display.zone_of(club.time_zone)):
        form = competition_form(request, club, competition)
        if request.method == "POST" and form.is_bound and form.is_valid():
            try:
                changed = organiser.edit_competition(competition, form.values(), request.user, seen)
            except CompetitionError as error:
                if error.field in form.fields:  # beside its field, what was typed kept
                    form.add_error(error.field, error.message)
                    return render(request, "tournaments/new_form.html" if request.htmx else "tournaments/edit.html",
                                  {"form": form, "club": club, "competition": competition, "seen": seen}, status=400)
                messages.error(request, error.message)
                competition.refresh_from_db()
                if competition.status != Competition.Status.OPEN:
                    return redirect(competition)
                form, seen = competition_form_of(request, competition), organiser.edit_fingerprint(competition)
            else:
                messages.success(request, _("The competition has been saved.") if changed else
                                 _("Nothing was changed."))
                return redirect(competition)
        context = {"form": form, "club": club, "competition": competition, "seen": seen}
        template = "tournaments/new_form.html" if request.htmx else "tournaments/edit.html"
        return render(request, template, context, status=400 if form.is_bound and form.errors else 200)


def competition_form_of(request, competition) -> forms.CompetitionForm:
    return forms.CompetitionForm.of(competition, zone_name=competition.club.time_zone,
                                    refresh_url=reverse("tournaments:edit", args=[competition.pk]))


@cached_for_visitors
def detail(request, pk):
    return render_detail(request, followable(request, pk))


def render_detail(request, competition, status=200, **refused):
    """The competition page; `refused` forms (an announcement that could not be sent) come back
    with what was typed and their errors beside their fields."""
    context = {"competition": competition, "can_manage": pages.can_manage(request.user, competition),
               "now_playing": pages.now_playing(competition), "mine": pages.my_part(request.user, competition)}
    if request.htmx and request.GET.get("part") == "now-playing":
        return render(request, "tournaments/now_playing.html", context)
    standings = pages.standings_rows(competition, limit=10)
    context.update({
        "entries": [e for e in pages.entry_list(competition) if e.status != Entry.Status.WAITING],
        "rounds": list(competition.rounds.order_by("number")),
        "standings": standings, "audit": pages.audit_lines(competition),
        "entries_open": entries.entries_open(competition), "enter_form": forms.EnterForm(),
        "tiebreaks": pages.tiebreak_names(competition), "champion": pages.champion(competition, standings),
        "has_played": context["can_manage"] and lifecycle.has_played(competition),
        "waiting_list": pages.waiting_list(competition),
        "announcements": pages.announcements(competition),
        "preview": pages.link_preview(competition),
        "page_url": request.build_absolute_uri(competition.get_absolute_url())})
    if context["can_manage"]:
        context["announce_form"] = refused.get("announce_form") or forms.AnnouncementForm()
    if competition.is_duplicate and competition.status == Competition.Status.OPEN:
        context["pairs_so_far"], context["fits"] = duplicate_pages.what_fits(competition)
    if competition.is_groups:  # each group's table and the knockout drawn whole
        context["group_tables"] = groups.group_tables(competition)
        context["drawings"] = brackets.drawings(competition, translation.get_language_bidi())
        context["mirror"] = translation.get_language_bidi()
        context["groups_problem"] = groups.problem_of(competition) if competition.status == Competition.Status.OPEN else ""
    return render(request, "tournaments/detail.html", context, status=status)


@cached_for_visitors
def standings_page(request, pk):
    competition = followable(request, pk)
    if competition.is_duplicate:  # ranked by the boards: the ranking with percentages is there
        return redirect("tournaments:duplicate", pk=competition.pk)
    return render(request, "tournaments/standings.html", {
        "competition": competition, "rows": pages.standings_rows(competition),
        "tiebreaks": pages.tiebreak_names(competition), "champion": pages.champion(competition)})


def bracket_page(request, pk):
    competition = followable(request, pk)
    mirror = translation.get_language_bidi()
    return render(request, "tournaments/bracket.html", {
        "competition": competition, "drawings": brackets.drawings(competition, mirror), "mirror": mirror,
        "champion": pages.champion(competition)})


def round_page(request, pk, number):
    competition = followable(request, pk)
    round_row = get_object_or_404(Round, competition=competition, number=number)
    return render_round(request, competition, round_row)


def render_round(request, competition, round_row, move_form=None, status=200, report_form=None):
    """A round's page; `move_form` is a refused Move this round, shown open with what was typed;
    `report_form` (pairing id, form) a player's refused report of a result, the same way."""
    can_manage = pages.can_manage(request.user, competition)
    pairings = pages.round_pairings(round_row)
    with timezone.override(display.zone_of(competition.club.time_zone)):
        return render(request, "tournaments/round.html", {
            "competition": competition, "round": round_row, "can_manage": can_manage,
            "pairings": pairings, "report_form": report_form,
            "reports": reports.reports_of(p.pk for p in pairings) if competition.players_report else {},
            "my_sides": reports.sides_of(request.user, pairings) if competition.players_report else {},
            "members": pages.free_members(competition) if can_manage else [],
            "move_refused": move_form is not None,
            "move_form": move_form or forms.MoveRoundForm(initial={"starts_at": round_row.starts_at},
                                                          zone_name=competition.club.time_zone)}, status=status)


def _act(request, competition, action, success: str):
    try:
        action()
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, success)
    return redirect(competition)


@login_required
@require_POST
def enter(request, pk):
    competition = followable(request, pk)
    form = forms.EnterForm(request.POST)
    if not form.is_valid():
        for error in form.errors.values():
            messages.error(request, error[0])
        return redirect(competition)
    return _act(request, competition, lambda: entries.enter(
        competition, request.user, form.cleaned_data["partner"], form.cleaned_data["name"]),
        _("Your partner has been invited. The pair is entered once they accept."))


@login_required
@require_POST
def answer(request, pk, entry_id):
    competition = followable(request, pk)
    entry = get_object_or_404(Entry, pk=entry_id, competition=competition)
    accept = request.POST.get("accept") == "1"
    return _act(request, competition, lambda: entries.answer_invitation(entry, request.user, accept),
                _("Your pair is entered.") if accept else _("You declined the invitation."))


@login_required
@require_POST
def withdraw(request, pk, entry_id):
    competition = followable(request, pk)
    entry = get_object_or_404(Entry, pk=entry_id, competition=competition)
    return _act(request, competition, lambda: entries.withdraw_before_start(entry, request.user),
                _("Your pair has withdrawn."))


@login_required
@require_POST
def check_in(request, pk, pairing_id):
    competition = followable(request, pk)
    try:
        pairing = manager.check_in(request.user, pairing_id)
    except CompetitionError as error:
        messages.error(request, error.message)
        return redirect(competition)
    pairing.refresh_from_db()
    if pairing.match_id:
        return redirect("gameplay:table", match_id=pairing.match_id)
    messages.success(request, _("You are checked in. Your table opens when all four players are here."))
    return redirect(competition)


# ----- organiser tools -------------------------------------------------------------------------

TOOLS = {
    "add_pair": forms.AddPairForm, "add_bots": forms.BotPairsForm, "pause": forms.RoundForm,
    "resume": forms.RoundForm, "reschedule": forms.RoundForm, "replace": forms.ReplaceForm,
    "withdraw": forms.RemoveForm, "disqualify": forms.RemoveForm, "override": forms.OverrideForm,
    "start_now": forms.ReasonForm,
}
SHOWN_TOOLS = ("add_pair", "add_bots", "start_now")  # the others act on a row of the page (no typed numbers)


@login_required
def manage(request, pk):
    """The organiser's tools. A refused form shown on this page comes back as typed, its error beside
    its field; a tool on a row of the page answers with a message."""
    competition = managed(request, pk)
    refused = None
    if request.method == "POST":
        tool = request.POST.get("tool", "")
        form = TOOLS[tool](request.POST) if tool in TOOLS else None
        if form is not None and form.is_valid():
            try:
                run_tool(competition, tool, form.cleaned_data, request.user)
            except CompetitionError as error:
                form.add_error(error.field if error.field in form.fields else None, error.message)
            else:
                messages.success(request, _("Done."))
                return redirect("tournaments:manage", pk=competition.pk)
        if form is not None and tool in SHOWN_TOOLS:
            refused = (tool, form)
        else:
            messages.error(request, _("Check the form: %(errors)s") % {
                "errors": "; ".join(str(e[0]) for e in form.errors.values()) if form else tool})
            return redirect("tournaments:manage", pk=competition.pk)
    tools = {name: TOOLS[name]() for name in SHOWN_TOOLS
             if name != "start_now" or competition.status == Competition.Status.OPEN}
    if refused is not None:
        tools[refused[0]] = refused[1]
    return render(request, "tournaments/manage.html", {
        "competition": competition, "tools": tools, "refused": refused[0] if refused else "",
        "entries": pages.entry_list(competition), "rounds": competition.rounds.order_by("number")},
        status=400 if refused else 200)


def run_tool(competition: Competition, tool: str, data: dict, user) -> None:
    """One organiser action from its form's cleaned data."""
    reason = data.get("reason", "")
    if tool == "add_pair":
        entries.add_pair(competition, user, [data["first"], data["second"]], data["name"])
    elif tool == "add_bots":
        entries.add_bot_pairs(competition, user, data["count"])
    elif tool == "start_now":
        controls.start_competition_now(competition, user)
    elif tool in ("pause", "resume", "reschedule"):
        round_row = Round.objects.filter(competition=competition, number=data["round"]).first()
        if round_row is None:
            raise CompetitionError(_("There is no such round."))
        if tool == "pause":
            organiser.pause_round(round_row, user, reason)
        elif tool == "resume":
            organiser.resume_round(round_row, user, reason)
        else:
            if not data.get("starts_at"):
                raise CompetitionError(_("Give the new start."))
            organiser.reschedule_round(round_row, data["starts_at"], user, reason)
    elif tool in ("replace", "withdraw", "disqualify"):
        entry = Entry.objects.filter(competition=competition, pk=data["entry"]).first()
        if entry is None:
            raise CompetitionError(_("There is no such pair."))
        if tool == "replace":
            organiser.replace_player(entry, data["old"], data["new"], user, reason)
        else:
            organiser.remove_pair(entry, user, reason, disqualify=tool == "disqualify")
    elif tool == "override":
        pairing = Pairing.objects.filter(competition=competition, pk=data["pairing"]).first()
        if pairing is None:
            raise CompetitionError(_("There is no such pairing."))
        winner = {"home": pairing.home, "away": pairing.away}.get(data["winner"])
        organiser.override_result(pairing, winner, data["home_points"], data["away_points"], data["reason"], user)


# ----- notifications ---------------------------------------------------------------------------

@login_required
def notifications(request):
    mine = Notification.objects.filter(user=request.user)
    if request.method == "POST":
        notify.mark_all_read(request.user)
        return redirect("tournaments:notifications")
    return render(request, "tournaments/notifications.html", {
        "notifications": mine.select_related("competition")[:100],
        "calendar_url": request.build_absolute_uri(reverse("tournaments:player_calendar",
                                                           args=[player_token(request.user)]))})


# ----- a duplicate's boards, pairs and ranking (tournaments/duplicate_pages.py) -----------------

def _duplicate(request, pk):
    competition = followable(request, pk)
    if not competition.is_duplicate:
        raise Http404
    return competition, duplicate_pages.load(competition), duplicate_pages.reader_entry(request.user, competition)


def duplicate_page(request, pk):
    """The ranking (live as boards finish), the boards the reader may open, the pairs' scorecards."""
    competition, event, reader = _duplicate(request, pk)
    return render(request, "tournaments/duplicate.html", {
        "competition": competition, "can_manage": pages.can_manage(request.user, competition),
        "ranking": duplicate_pages.ranking_fields(duplicate_pages.ranking(event)),
        "boards": [(number, event.visible_to(reader, number)) for number in range(1, event.board_count + 1)],
        "pairs": sorted((n, event.name(entry_id), entry_id) for entry_id, n in event.numbers.items()
                        if not event.entries[entry_id].evens_the_count),
        "movement": event.movement,
        "can_export": duplicate_pages.can_export(competition)})


def board_page(request, pk, number):
    """A board's traveller and hand record: 403 (nothing shown) before the reader may see it."""
    competition, event, reader = _duplicate(request, pk)
    if not event.visible_to(reader, number):
        raise PermissionDenied
    rows = duplicate_pages.traveller(event, number)
    dealer, hands, stock = duplicate_pages.hand_record(competition, number)
    watchable = duplicate_pages.replays_open_to(request.user, competition, event, reader)
    return render(request, "tournaments/board.html", {
        "competition": competition, "can_manage": pages.can_manage(request.user, competition), "number": number,
        "rows": rows, "dealer": dealer, "hands": hands, "stock": stock, "watchable": watchable,
        "cross_points": competition.scoring == Competition.Scoring.CROSS_POINTS,
        "previous": number - 1 if number > 1 else None, "next": number + 1 if number < event.board_count else None})


def pair_page(request, pk, entry_id):
    """A pair's scorecard: each board it has finished that the reader may see."""
    competition, event, reader = _duplicate(request, pk)
    if entry_id not in event.numbers or event.entries[entry_id].evens_the_count:
        raise Http404
    return render(request, "tournaments/pair_scorecard.html", {
        "competition": competition, "can_manage": pages.can_manage(request.user, competition),
        "entry": event.entries[entry_id], "number": event.numbers[entry_id],
        "rows": duplicate_pages.scorecard(event, entry_id, reader),
        "cross_points": competition.scoring == Competition.Scoring.CROSS_POINTS})


def boards_export(request, pk):
    """The board set as one JSON file (the scenario format's deals), once the competition is over."""
    competition, _event, _reader = _duplicate(request, pk)
    if not duplicate_pages.can_export(competition):
        raise PermissionDenied
    response = JsonResponse(competition.board_set, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="chalk-{competition.game}-boards-{competition.pk}.json"'
    return response
