"""Players' reports of a match played at the club, from the round page (thin, docs/style.md §5):
report, confirm, dispute. They parse and authorise here and act through
tournaments/services/reports.py; a refused report comes back on the round page with what was
typed and the error beside its field."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import forms, pages
from tournaments.services import CompetitionError, reports
from tournaments.views import followable, render_round

ANSWERS = {"confirm": reports.confirm, "dispute": reports.dispute}
ANSWERED = {"confirm": gettext_lazy("The result is confirmed: it counts now."),
            "dispute": gettext_lazy("The result is disputed: the organiser will decide it.")}


def _pairing(competition, pairing_id):
    return get_object_or_404(pages.round_pairings_query(), pk=pairing_id, competition=competition)


@login_required
@require_POST
def report(request, pk, pairing_id):
    competition = followable(request, pk)
    pairing = _pairing(competition, pairing_id)
    form = forms.report_form(pairing, request.POST)
    try:
        if not form.is_valid():
            raise CompetitionError(_("The result cannot be reported: see the boxes below."))
        data = form.cleaned_data
        reports.report(competition, pairing.pk, request.user, data["winner"], data["home_points"], data["away_points"])
    except CompetitionError as error:
        if error.field in form.fields:
            form.add_error(error.field, error.message)
        messages.error(request, error.message)
        return render_round(request, competition, pairing.round, report_form=(pairing.pk, form), status=400)
    messages.success(request, _("Your result is reported. It counts once the other pair confirms it."))
    return redirect("tournaments:round", pk=competition.pk, number=pairing.round_number)


@login_required
@require_POST
def answer(request, pk, pairing_id, answer):
    if answer not in ANSWERS:
        raise Http404
    competition = followable(request, pk)
    pairing = _pairing(competition, pairing_id)
    try:
        ANSWERS[answer](competition, pairing.pk, request.user)
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(ANSWERED[answer]))
    return redirect("tournaments:round", pk=competition.pk, number=pairing.round_number)
