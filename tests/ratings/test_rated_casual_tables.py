"""A rated casual table (issue 32): an option of the new-table form for four people, shown on the
table and in the archive, whose result moves both teams' ratings as a competition match's does,
and which `recompute_ratings` reproduces to the same numbers."""

import random

import pytest

from gameplay.models import Match
from gameplay.rules import get_game
from tournaments.ratings.models import Rating, RatingChange
from tournaments.ratings.rebuild import rebuild_game

from ..gameplay.helpers import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.integration]


def form_data(**overrides):
    data = {"game": "allfours", "preset": "short_seven", "time_control": "0", "best_of": "1",
            "is_public": "on", "opt_players": "4", "opt_target_score": "1", "opt_kick_scoring": "trinidad",
            "opt_game_points": "1", "opt_hang_jack_points": "3", "opt_follow_rule": "follow_or_trump",
            "opt_undertrump": "allowed", "opt_give_one_at_game": "allowed", "opt_game_tie": "none",
            "opt_timeout_result": "forfeit_match", "rated": "on"}
    data.update(overrides)
    return data


def kick_decided_seed():
    """All Fours to 1 point: a seed whose dealer (seat 3) kicks the winning point at the start."""
    engine = get_game("allfours")
    return next(s for s in range(1000) if engine.start(seed=s, options={"target_score": 1}, dealer=3).is_over)


class FixedDraw(random.Random):
    """What create_match draws a seed and a first dealer from, made predictable."""

    def __init__(self, seed):
        super().__init__()
        self.fixed = seed

    def randrange(self, stop, *args):
        return self.fixed if stop == 2**62 else 3


def test_a_rated_casual_table_of_four_people_changes_both_teams_ratings(client, monkeypatch):
    seed = kick_decided_seed()
    monkeypatch.setattr("gameplay.services.setup.random.SystemRandom", lambda: FixedDraw(seed))
    host, *others = [make_user() for _ in range(4)]
    client.force_login(host)
    client.post("/play/new/", form_data())
    match = Match.objects.get()
    assert match.rated and match.status == "waiting"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="rated-badge"' in page and 'data-testid="fill-bots"' not in page
    for user in others:  # the invite link
        client.force_login(user)
        client.get(f"/matches/join/{match.invite_code}/")
    match.refresh_from_db()
    assert match.status == "finished" and match.winner is not None

    users = [host, *others]
    changes = {c.user_id: c.elo_delta for c in RatingChange.objects.filter(match=match)}
    winners = {users[s].pk for s in range(4) if s % 2 == match.winner}
    assert changes == {user.pk: (20.0 if user.pk in winners else -20.0) for user in users}
    stored = {r.user_id: (r.elo, r.glicko_rating, r.glicko_rd) for r in Rating.objects.filter(game="allfours")}
    assert {pk for pk, (elo, *_rest) in stored.items() if elo == 1520.0} == winners

    report = rebuild_game("allfours")  # the recompute command's work: the same numbers, nothing written
    assert report.matches == 1 and report.changes_written == 0 and report.ratings_written == 0
    assert {r.user_id: (r.elo, r.glicko_rating, r.glicko_rd) for r in Rating.objects.filter(game="allfours")} == stored

    archive = client.get("/matches/?kind=casual").content.decode()
    assert 'data-testid="archive-rated"' in archive


@pytest.mark.parametrize("extra, words", [({"fill_with_bots": "on"}, "cannot be filled with bots"),
                                          ({"preset": "all_twos", "opt_players": "2"}, "rules for four players")])
def test_a_rated_table_with_bots_or_for_two_is_refused_beside_the_field(client, extra, words):
    client.force_login(make_user())
    response = client.post("/play/new/", form_data(**extra))
    page = response.content.decode()
    assert response.status_code == 200 and words in page
    field = page.split('id="id_rated"', 1)[1].split("</div>", 1)[0]
    assert words in field  # beside the field, not at the top
    assert 'id="id_rated" checked' in page  # what was typed is kept
    assert not Match.objects.exists()


def test_the_bots_button_cannot_fill_a_rated_table(client):
    host = make_user()
    client.force_login(host)
    client.post("/play/new/", form_data(opt_target_score="7"))
    match = Match.objects.get()
    response = client.post(f"/matches/{match.pk}/bots/", {"level": "normal"}, follow=True)
    assert "cannot be filled with bots" in response.content.decode()
    assert not match.seats.exclude(bot="").exists() and Match.objects.get().status == "waiting"
