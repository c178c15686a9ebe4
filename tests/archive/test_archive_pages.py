"""The archive: the list shows game, date, teams, score, winner and competition, with filters and
pages; the replay's steps land where their labels say; the export is the game asked for, as a
download with a file name."""

import pytest

from gameplay import archive, services
from gameplay.models import Match
from gameplay.rules.replay import replay
from gameplay.table import Table
from tests.competitions_db.helpers import bot_pairs, drive, make_competition
from tests.gameplay.helpers import make_user

pytestmark = pytest.mark.django_db(transaction=True)  # bots move after the commit


def bots_match(game="allfours", options=None, seed=5, **kwargs):
    match = services.create_match(game, options or {}, [services.SeatSpec(bot="random")] * 4, seed=seed,
                                  first_dealer=0, **kwargs)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def timeline_of(match):
    actions = match.actions.order_by("seq").values_list("action", flat=True)
    table = Table.replay(services.spec_of(match), actions)
    return archive.timeline(services.spec_of(match), table.all_games())


def kinds(frame):
    return [event["kind"] for event in frame["view"]["events"]]


def test_the_archive_lists_game_teams_score_and_winner(client):
    match = bots_match(options={"target_score": 5})
    html = client.get("/matches/").content.decode()
    score = match.result["games"][0]["score"]
    assert "Bot 1 (Random) &amp; Bot 3 (Random)" in html and "Bot 2 (Random) &amp; Bot 4 (Random)" in html
    assert f"{score[0]}–{score[1]}" in html and 'data-testid="winner"' in html and "Casual" in html


def test_a_best_of_three_lists_the_games_won():
    match = bots_match(options={"target_score": 3}, games_to_win=2)
    assert archive.final_score(match.result, match.games_to_win) == match.games_won


def test_a_competition_match_names_its_competition_and_the_kind_filter_keeps_it(client):
    competition = make_competition(format="single_elimination")
    bot_pairs(competition, 2)
    drive(competition)
    bots_match()
    competition_only = client.get("/matches/?kind=competition").content.decode()
    assert competition.name in competition_only and "Casual</span>" not in competition_only
    assert competition.name not in client.get("/matches/?kind=casual").content.decode()


def test_the_archive_is_paginated_and_the_pages_keep_the_filters(client, monkeypatch):
    monkeypatch.setattr("gameplay.views.LIST_SIZE", 2)
    for seed in range(3):
        bots_match("cuatrola", {"target": 1}, seed=seed)
    html = client.get("/matches/?game=cuatrola").content.decode()
    assert html.count('data-testid="archive-row"') == 2 and "Page 1" in html and "page=2" in html
    assert "?game=cuatrola&amp;page=2" in html
    assert client.get("/matches/?game=cuatrola&page=2").content.decode().count('data-testid="archive-row"') == 1


def test_a_deals_first_step_is_its_own_with_no_action_and_its_number():
    frames = timeline_of(bots_match(options={"target_score": 8}))[0]
    starts = [i for i, f in enumerate(frames) if "deal" in kinds(f)]
    assert len(starts) >= 2
    for i in starts[1:]:
        assert frames[i]["action"] is None and frames[i]["view"]["deal_number"] == frames[i - 1]["view"]["deal_number"] + 1


def test_the_step_that_ends_a_deal_shows_that_deal_and_its_summary_numbered_from_one():
    frames = timeline_of(bots_match(options={"target_score": 8}))[0]
    closing = [f for f in frames if "deal_over" in kinds(f)]
    assert [f["deal_record_number"] for f in closing] == list(range(1, len(closing) + 1))
    first = closing[0]
    assert first["view"]["deal_number"] == 1 and first["action"]["type"] == "play"
    assert first["view"]["last_trick"]["cards"][-1] == first["action"]["card"]
    assert "deal" not in kinds(first)


def test_export_is_a_download_named_for_the_match_and_game(client):
    match = bots_match(options={"target_score": 3}, games_to_win=2)
    response = client.get(f"/matches/{match.pk}/export.json?game=1")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="chalk-allfours-match-{match.pk}-game-2.json"'
    result, status = replay(response.json())
    assert status == 0 and result["score"] == match.result["games"][1]["score"]  # the second game


def test_export_of_a_game_that_does_not_exist_is_404(client):
    match = bots_match(options={"target_score": 3})
    assert client.get(f"/matches/{match.pk}/export.json?game=5").status_code == 404
    assert client.get(f"/matches/{match.pk}/export.json?game=x").status_code == 404


def test_my_matches_filter_shows_only_mine(client):
    user = make_user()
    client.force_login(user)
    bots_match()
    assert 'data-testid="archive-row"' not in client.get("/matches/?mine=1").content.decode()
