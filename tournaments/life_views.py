"""A competition's life, from its page (tournaments/services/lifecycle.py does the work): cancel and
reopen, delete, run it again, and the edit page after the start. Each is a confirmation page (GET)
and its POST; a refused POST shows the page again with what was typed and the error beside its field."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import display, forms
from tournaments.models import Competition, Round
from tournaments.services import CompetitionError, lifecycle
from tournaments.views import managed


def _refused(form, error: CompetitionError) -> None:
    form.add_error(error.field if error.field in form.fields else None, error.message)


@login_required
def cancel(request, pk):
    competition = managed(request, pk)
    if competition.status in lifecycle.ENDED:
        messages.error(request, _("This competition has already ended."))
        return redirect(competition)
    form = forms.CancelForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            lifecycle.cancel(competition, request.user, form.cleaned_data["reason"])
        except CompetitionError as error:
            _refused(form, error)
        else:
            messages.success(request, _("The competition has been cancelled."))
            return redirect(competition)
    return render(request, "tournaments/cancel.html", {
        "competition": competition, "form": form, "plan": lifecycle.cancel_plan(competition)},
        status=400 if form.errors else 200)


def _start_form(form_class, request, competition, initial=None):
    zone = competition.club.time_zone
    if request.method == "POST":
        return form_class(request.POST, zone_name=zone)
    return form_class(initial=initial or {}, zone_name=zone)


@login_required
def reopen(request, pk):
    competition = managed(request, pk)
    if competition.status != Competition.Status.CANCELLED or lifecycle.has_played(competition):
        messages.error(request, _("Only a cancelled competition whose matches were not played can be reopened."))
        return redirect(competition)
    with timezone.override(display.zone_of(competition.club.time_zone)):
        start = competition.starts_at if competition.starts_at > timezone.now() else None
        form = _start_form(forms.ReopenForm, request, competition, {"starts_at": start})
        if request.method == "POST" and form.is_valid():
            try:
                lifecycle.reopen(competition, form.cleaned_data["starts_at"], request.user)
            except CompetitionError as error:
                _refused(form, error)
            else:
                messages.success(request, _("The competition is open for entries again."))
                return redirect(competition)
        return render(request, "tournaments/reopen.html", {"competition": competition, "form": form},
                      status=400 if form.errors else 200)


@login_required
def delete(request, pk):
    competition = managed(request, pk)
    played = lifecycle.has_played(competition)
    error = ""
    if request.method == "POST" and not played:
        try:
            lifecycle.delete(competition, request.user)
        except CompetitionError as refused:
            error = refused.message
        else:
            messages.success(request, _("The competition %(name)s has been deleted.") % {"name": competition.name})
            return redirect("clubs:detail", slug=competition.club.slug)
    if played:
        error = _("Matches of this competition were played: it cannot be deleted. "
                  "Cancel it instead; its results stay in the archive.")
    status = (403 if played else 400) if request.method == "POST" else 200
    return render(request, "tournaments/delete.html", {"competition": competition, "played": played, "error": error},
                  status=status)


@login_required
def run_again(request, pk):
    competition = managed(request, pk)
    with timezone.override(display.zone_of(competition.club.time_zone)):
        form = _start_form(forms.RunAgainForm, request, competition)
        if request.method == "POST" and form.is_valid():
            try:
                copy = lifecycle.run_again(competition, form.cleaned_data["starts_at"],
                                           form.cleaned_data["with_entries"], request.user)
            except CompetitionError as error:
                _refused(form, error)
            else:
                messages.success(request, _("The copy is made. Check its settings and save them."))
                return redirect("tournaments:edit", pk=copy.pk)
        return render(request, "tournaments/run_again.html", {"competition": competition, "form": form},
                      status=400 if form.errors else 200)


def edit_live(request, competition):
    """The edit page of a running competition: what can still change (lifecycle.edit_live)."""
    rounds = Round.objects.filter(competition=competition).order_by("number")
    zone = competition.club.time_zone
    with timezone.override(display.zone_of(zone)):
        seen = request.POST.get("seen") if request.method == "POST" else None
        conflict = ""
        if request.method == "POST":
            form = forms.LiveEditForm(request.POST, competition=competition, rounds=rounds, zone_name=zone)
        else:
            form = forms.LiveEditForm.of(competition, rounds, zone_name=zone)
        if request.method == "POST" and form.is_valid():
            try:
                changed = lifecycle.edit_live(competition, form.values(), form.round_starts(), request.user,
                                              seen or None)
            except CompetitionError as error:
                if not error.field:  # another organiser saved meanwhile: the form shows what is now
                    competition.refresh_from_db()
                    if competition.status != Competition.Status.RUNNING:
                        messages.error(request, error.message)
                        return redirect(competition)
                    rounds = Round.objects.filter(competition=competition).order_by("number")
                    form = forms.LiveEditForm.of(competition, rounds, zone_name=zone)
                    seen, conflict = None, error.message
                else:
                    form.add_error(error.field, error.message)
            else:
                messages.success(request, _("The competition has been saved.") if changed else
                                 _("Nothing was changed."))
                return redirect(competition)
        return render(request, "tournaments/edit_live.html", {
            "competition": competition, "form": form,
            "seen": seen or lifecycle.live_fingerprint(competition), "conflict": conflict},
            status=400 if conflict or form.errors else 200)
