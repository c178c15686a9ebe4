from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from clubs.forms import ProfileForm
from clubs.middleware import set_language_cookie
from clubs.models import Club, Player


@login_required
def profile(request):
    player, _created = Player.objects.get_or_create(user=request.user)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        player = form.save()
        return profile_saved(request, player)
    return render(request, "clubs/profile.html", {"form": form, "player": player})


def profile_saved(request, player):
    language = player.preferred_language or translation.get_language()
    translation.activate(language)  # the confirmation is already in the new language
    messages.success(request, _("Your profile has been saved."))
    response = redirect("profile")
    set_language_cookie(response, language)
    return response


@require_POST
def switch_language(request):
    """Django's set_language, plus: a logged-in player's choice is remembered in the profile."""
    response = set_language(request)
    language = request.POST.get("language")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        Player.objects.update_or_create(user=request.user, defaults={"preferred_language": language})
    return response


def club_list(request):
    return render(request, "clubs/club_list.html", {"clubs": Club.objects.all()})


def club_detail(request, slug):
    club = get_object_or_404(Club, slug=slug)
    memberships = club.memberships.select_related("user__player").order_by("role", "user__username")
    return render(request, "clubs/club_detail.html", {"club": club, "memberships": memberships})
