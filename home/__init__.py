"""A signed-in player's own pages, an app of its own above the other three: the signed-in home
(queries, views), the per-user socket /ws/me/ (consumers, alerts), the navigation's count
(context) and the how-to-play pages. It may import clubs, tournaments and gameplay.api; none of
them imports it (tests/foundation/test_app_seams.py). Gameplay is read through gameplay/api.py
only; the competitions through their page readers (tournaments.pages, tournaments.services.notify,
tournaments.ratings.services).
"""
