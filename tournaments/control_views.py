"""The organiser's controls as pages (thin, docs/style.md §5): a control on one pairing of a round page
(answered in place with htmx, or by a redirect without JavaScript), a round moved, Start now.
They parse and authorise here and act through tournaments/services/controls.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import display, forms, pages
from tournaments.models import Round
from tournaments.services import CompetitionError, controls, organiser
from tournaments.views import _act, managed, render_round


CONTROL_DONE = {
    "start": gettext_lazy("The table is open."), "bot": gettext_lazy("A bot plays this seat now; the match is not rated."),
    "walkover": gettext_lazy("The walkover is recorded."), "substitute": gettext_lazy("The player has been substituted."),
    "correct": gettext_lazy("The result has been corrected."), "move": gettext_lazy("The match has been moved."),
    "club": gettext_lazy("The result of the match played at the club is recorded."),
}


@login_required
@require_POST
def pairing_control(request, pk, pairing_id, action):
    """One organiser control on one pairing; htmx gets the pairing's rows back, changed in place.
    Times are typed and shown in the club's zone; a refused form comes back with its errors."""
    competition = managed(request, pk)
    if action not in forms.CONTROL_FORMS:
        raise Http404
    with timezone.override(display.zone_of(competition.club.time_zone)):
        pairing = get_object_or_404(pages.round_pairings_query(), pk=pairing_id, competition=competition)
        form = forms.control_form(action, pairing, pages.free_members(competition), request.POST)
        notice, level, failed = str(CONTROL_DONE[action]), "success", None
        try:
            if not form.is_valid():
                failed = form
                raise CompetitionError(" ".join(str(e[0]) for e in form.errors.values()))
            run_control(competition, pairing, action, form.cleaned_data, request.user, request.POST.get("seen"))
        except CompetitionError as error:
            notice, level = error.message, "error"
            if failed is None and error.field in form.fields:  # beside its field, what was typed kept
                form.add_error(error.field, error.message)
                failed = form
        if not request.htmx:
            messages.add_message(request, messages.SUCCESS if level == "success" else messages.ERROR, notice)
            return redirect("tournaments:round", pk=competition.pk, number=pairing.round_number)
        fresh = pages.round_pairings_query().get(pk=pairing.pk)
        return render(request, "tournaments/pairing_row.html", {
            "competition": competition, "round": fresh.round, "p": fresh, "can_manage": True,
            "members": pages.free_members(competition), "notice": notice, "notice_level": level,
            "failed_form": failed, "failed_action": action if failed is not None else ""})


def run_control(competition, pairing, action: str, data: dict, user, seen) -> None:
    users = get_user_model().objects
    if action == "start":
        controls.start_pairing_now(competition, pairing.pk, user, seen)
    elif action == "bot":
        controls.seat_bot(competition, pairing.pk, data["absent"], user, seen)
    elif action == "walkover":
        controls.award_walkover(competition, pairing.pk, data["winner"], user, data["reason"], seen)
    elif action == "substitute":
        controls.substitute(competition, pairing.pk, users.get(pk=data["old"]), users.get(pk=data["new"]), user,
                            data["reason"], seen)
    elif action == "move":
        controls.move_pairing(competition, pairing.pk, data["starts_at"], user, data["reason"], seen)
    elif action == "club":
        controls.enter_club_result(competition, pairing.pk, data["winner"], data["home_points"], data["away_points"],
                                   user, data["reason"], seen)
    else:
        controls.correct_result(competition, pairing.pk, data["winner"], data["home_points"], data["away_points"],
                                user, data["reason"], seen)


@login_required
@require_POST
def move_round(request, pk, number):
    competition = managed(request, pk)
    round_row = get_object_or_404(Round, competition=competition, number=number)
    with timezone.override(display.zone_of(competition.club.time_zone)):
        form = forms.MoveRoundForm(request.POST, zone_name=competition.club.time_zone)
        valid = form.is_valid()
    if valid:
        try:
            organiser.reschedule_round(round_row, form.cleaned_data["starts_at"], request.user,
                                       form.cleaned_data["reason"])
        except CompetitionError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("The round has been moved."))
            return redirect("tournaments:round", pk=competition.pk, number=number)
    return render_round(request, competition, round_row, move_form=form, status=400)


@login_required
@require_POST
def start_now(request, pk):
    competition = managed(request, pk)
    return _act(request, competition, lambda: controls.start_competition_now(competition, request.user),
                _("The competition has started."))
