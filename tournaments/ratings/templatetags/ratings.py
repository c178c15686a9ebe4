"""Template tags other pages include: ``{% load ratings %}`` then

* ``{% rating_chart user game %}`` — the player's Elo history in ``game`` as inline SVG
  (one query);
* ``{% rating_badge user game %}`` — the current Elo, marked provisional while the Glicko-2
  deviation is high (one query; a list of players should use ``services.ratings_for``);
* ``{% rating_heading user game name %}`` — a game's heading with the badge and the rating's
  confidence in words and percent (a player's page; one query);
* ``{% rating_changes match %}`` — the four players' changes on a match result (one query).
"""

from django import template

from gameplay.api import Game

from .. import chart, services
from ..models import RatingChange
from ..policy import confidence_level

register = template.Library()


@register.inclusion_tag("ratings/includes/rating_chart.html")
def rating_chart(user, game):
    steps = list(RatingChange.objects.filter(user=user, game=game).order_by("finished_at", "match_id", "board")
                 .values_list("elo_before", "elo_after"))
    values = [steps[0][0], *(after for _, after in steps)] if steps else []
    return {"chart": chart.build(values) if values else None, "game_name": Game(game).label,
            "chart_id": f"rating-chart-{getattr(user, 'pk', user)}-{game}"}


@register.inclusion_tag("ratings/includes/rating_badge.html")
def rating_badge(user, game):
    return {"rating": services.rating_for(user, game), "game_name": Game(game).label}


@register.inclusion_tag("ratings/includes/rating_heading.html")
def rating_heading(user, game, name):
    """A game's heading on a player's page with the Elo badge, and how sure the rating is: the
    confidence in words and in percent, from the Glicko-2 deviation (policy.confidence) and the
    rated matches (one query, as the badge alone)."""
    rating = services.rating_for(user, game)
    return {"rating": rating, "game": game, "game_name": name,
            "level": confidence_level(rating.glicko_rd, rating.rated_matches)}


@register.inclusion_tag("ratings/includes/rating_changes.html")
def rating_changes(match):
    """The four players' changes; a duplicate's table, rated board by board, shows each player's
    boards there as one change (before the first board, after the last)."""
    changes = (RatingChange.objects.filter(match=match).select_related("user__player")
               .order_by("team", "user__username", "board"))
    rows: dict = {}
    for change in changes:
        first = rows.setdefault(change.user_id, change)
        if first is not change:
            first.elo_after = change.elo_after
            first.elo_delta = first.elo_after - first.elo_before
    return {"changes": list(rows.values())}
