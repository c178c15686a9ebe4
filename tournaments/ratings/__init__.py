"""Ratings for partnership games: Elo (``elo``), Glicko-2 (``glicko2``), the
replay of a match history (``recompute``) and which matches are rated
(``policy``). Pure Python, no Django: a Celery task loads the four players'
current values, calls ``elo.rate_match`` and stores the changes.
"""
