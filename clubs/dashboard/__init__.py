"""A player's own pages, part of clubs (the players' app): the signed-in home (queries, views),
the per-user socket /ws/me/ (consumers, alerts), the navigation's count (context) and the
how-to-play pages. Gameplay is read through gameplay/api.py only; the competitions through
their page readers (tournaments.pages, tournaments.services.notify, tournaments.ratings.services).
"""
