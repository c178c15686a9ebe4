"""Entries as clubs run them, from the competition page (docs/entries.md): withdraw a pair mid-event
(a confirmation page that says what the format's rule will do), announcements to every entrant and
the check-in Remind action. Thin: they parse and authorise here and act through the services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import forms
from tournaments.models import Competition, Entry
from tournaments.services import CompetitionError, announcements, controls, organiser
from tournaments.views import managed, render_detail

WITHDRAWAL_RULES = {
    "before": gettext_lazy("The pair leaves the competition before it starts; the first pair on the waiting "
                           "list, if there is one, takes its place."),
    Competition.Format.ROUND_ROBIN: gettext_lazy(
        "Its results are voided: every match it played or had left is removed from the standings, and the pair "
        "leaves the standings. Its table in play, if any, is closed."),
    Competition.Format.SWISS: gettext_lazy(
        "Its match still to play in the open round is a walkover to its opponent, and it is not paired in later "
        "rounds. Its results so far stay in the standings."),
    Competition.Format.LEAGUE: gettext_lazy(
        "Its match still to play and every fixture it has left are walkovers to its opponents. Its results so "
        "far stay in the standings."),
}
KNOCKOUT_RULE = gettext_lazy("Its match still to play, and any it would have reached, are walkovers to its "
                             "opponents. Its results so far stay.")


def withdrawal_rule(competition: Competition) -> str:
    if competition.status == Competition.Status.OPEN:
        return str(WITHDRAWAL_RULES["before"])
    return str(WITHDRAWAL_RULES.get(competition.format, KNOCKOUT_RULE))


@login_required
def withdraw_pair(request, pk, entry_id):
    """The organiser takes a pair out (or disqualifies it, once started): a page that says what the
    format's rule will do, then the POST. Audited naming the pair."""
    competition = managed(request, pk)
    entry = get_object_or_404(Entry, pk=entry_id, competition=competition)
    if competition.status not in (Competition.Status.OPEN, Competition.Status.RUNNING) or \
            entry.status in (Entry.Status.WITHDRAWN, Entry.Status.DISQUALIFIED):
        messages.error(request, _("This pair can no longer be withdrawn."))
        return redirect(competition)
    form = forms.CancelForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        disqualify = request.POST.get("disqualify") == "1" and competition.status == Competition.Status.RUNNING
        try:
            organiser.remove_pair(entry, request.user, form.cleaned_data["reason"], disqualify=disqualify)
        except CompetitionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(pair)s is disqualified.") % {"pair": entry.name} if disqualify else
                             _("%(pair)s has been withdrawn.") % {"pair": entry.name})
            return redirect(competition)
    return render(request, "tournaments/withdraw_pair.html", {
        "competition": competition, "entry": entry, "form": form, "rule": withdrawal_rule(competition),
        "can_manage": True}, status=400 if form.errors else 200)


@login_required
@require_POST
def announce(request, pk):
    """An announcement to every entrant from the competition page; refused text comes back there,
    as typed, with its error beside the field."""
    competition = managed(request, pk)
    form = forms.AnnouncementForm(request.POST)
    if form.is_valid():
        try:
            announcement = announcements.announce(competition, request.user, form.cleaned_data["text"])
        except CompetitionError as error:
            form.add_error("text", error.message)
        else:
            messages.success(request, ngettext("The announcement has been sent to %(count)s entrant.",
                                               "The announcement has been sent to %(count)s entrants.",
                                               announcement.sent_to) % {"count": announcement.sent_to})
            return redirect(competition)
    return render_detail(request, competition, status=400, announce_form=form)


@login_required
@require_POST
def remind(request, pk, number):
    """*Remind* on a round's check-in list: the players not checked in hear it again."""
    competition = managed(request, pk)
    try:
        reminded = controls.remind_not_checked_in(competition, number, request.user)
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, ngettext("%(count)s player not checked in has been reminded.",
                                           "%(count)s players not checked in have been reminded.",
                                           len(reminded)) % {"count": len(reminded)})
    return redirect("tournaments:round", pk=competition.pk, number=number)
