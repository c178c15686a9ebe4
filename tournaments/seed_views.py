"""The organiser's seeds by hand (thin): a number box per pair, reordered by drag and drop too
(static/js/seeds.js), written through tournaments.services.seeds."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.forms import SeedsForm
from tournaments.models import Competition
from tournaments.services import CompetitionError, seeds
from tournaments.views import managed


@login_required
def seeds_page(request, pk):
    competition = managed(request, pk)
    if competition.status != Competition.Status.OPEN or competition.seeding != Competition.Seeding.HAND:
        messages.error(request, _("Seeds are set by hand before the start, when the competition's seeding is by hand."))
        return redirect(competition)
    entries = seeds.seedable(competition)
    form = SeedsForm(entries, request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        try:
            seeds.set_seeds(competition, form.seeds(), request.user)
        except CompetitionError as error:
            messages.error(request, error.message)
            return redirect("tournaments:seeds", pk=competition.pk)
        messages.success(request, _("The seeds have been saved: the draw follows them."))
        return redirect(competition)
    return render(request, "tournaments/seeds.html", {"competition": competition, "form": form, "can_manage": True},
                  status=400 if form.is_bound else 200)
