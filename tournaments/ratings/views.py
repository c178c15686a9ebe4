"""Leaderboards and rating history pages (thin: queries live in services.leaderboard)."""

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from clubs.models import Club
from config.public_cache import cached_for_visitors
from gameplay.api import Game

from . import services
from .models import Rating, RatingChange
from .policy import LEADERBOARD_MAX_RD, confidence

PER_PAGE = 50
HISTORY_ROWS = 50


def index(request):
    return redirect("ratings:leaderboard", game=Game.values[0])


@cached_for_visitors
def leaderboard(request, game, club=None):
    if game not in Game.values:
        raise Http404
    club = get_object_or_404(Club, slug=club) if club else None
    established = request.GET.get("established") == "1"
    page = Paginator(services.leaderboard(game, club, established_only=established), PER_PAGE).get_page(
        request.GET.get("page"))
    return render(request, "ratings/leaderboard.html", {
        "game": game, "game_name": Game(game).label, "games": Game.choices, "club": club, "page": page,
        "established": established, "provisional_below": confidence(LEADERBOARD_MAX_RD),
    })


def player(request, username):
    user = get_object_or_404(get_user_model().objects.select_related("player"), username=username)
    ratings = list(Rating.objects.filter(user=user).order_by("game"))
    changes = (RatingChange.objects.filter(user=user)
               .order_by("-finished_at", "-match_id")[:HISTORY_ROWS])
    return render(request, "ratings/player.html", {
        "subject": user, "ratings": ratings, "changes": changes, "provisional_below": confidence(LEADERBOARD_MAX_RD),
    })
