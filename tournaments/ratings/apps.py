from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """The Django side of ratings; the maths (elo, glicko2, recompute, policy) stays pure."""

    name = "tournaments.ratings"
    label = "ratings"
    verbose_name = _("Ratings")

    def ready(self):
        from gameplay import api as gameplay

        from . import services
        from .receivers import enqueue_rating

        gameplay.match_finished.connect(enqueue_rating, sender=gameplay.match_signal_sender(),
                                        dispatch_uid="ratings.enqueue_rating")
        # Play now seats players of similar rating: gameplay reads the Elo through this.
        gameplay.use_ratings(lambda user, game: services.rating_for(user, game).elo)
