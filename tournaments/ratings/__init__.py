"""Ratings for partnership games: Elo (``elo``), Glicko-2 (``glicko2``), the
replay of a match history (``recompute``), which matches are rated
(``policy``) and the history chart's geometry (``chart``). Those modules are
pure Python and import without Django, so this file imports nothing.

The same package is the Django app ``tournaments.ratings`` (label
``ratings``; ``apps.py``): models, the per-match Celery task, the
``recompute_ratings`` command, leaderboards and template tags. See
docs/ratings.md.
"""
