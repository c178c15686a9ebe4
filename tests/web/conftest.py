"""Rows for walking the site: a public club and competition, a playing table, a finished match."""

import pytest

from gameplay import services
from gameplay.services import SeatSpec
from tests.competitions_db.helpers import bot_pairs, make_club, make_competition
from tests.gameplay.helpers import make_match


def finished_bot_match(capture):
    with capture(execute=True):
        match = services.create_match("allfours", {}, [SeatSpec(bot="random")] * 4, seed=11, first_dealer=0)
    match.refresh_from_db()
    return match


@pytest.fixture
def sample(db, django_capture_on_commit_callbacks):
    club = make_club(is_public=True)
    competition = make_competition(club)
    bot_pairs(competition, 2)
    match, users = make_match()
    finished = finished_bot_match(django_capture_on_commit_callbacks)
    return {"club": club.slug, "competition": competition.pk, "match": match.pk, "finished": finished.pk,
            "finished_status": finished.status, "user": users[0].username}
