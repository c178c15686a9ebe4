"""Pages do bounded work: the lobby, the archives and a competition's page run the same queries
and render at most a page of rows however many tables, matches or competitions the site holds;
a finished match's replay is worked out once (issue 16, item 9)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from gameplay.models import Match
from gameplay import log
from gameplay.listings import LIST_SIZE, LOBBY_SIZE
from tests.competitions_db.helpers import big_finished_competition, make_competition
from tests.ratings.conftest import finished_matches, make_users, random_specs
from tests.web.conftest import finished_bot_match

pytestmark = pytest.mark.django_db


def playing_tables(count):
    users = make_users(4, prefix="lobbyist")
    matches = finished_matches([(users, None)] * count, game="allfours")
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(status=Match.Status.PLAYING, started_at=timezone.now())


def queries_and_html(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return [q["sql"] for q in queries.captured_queries], response.content.decode()


def test_the_lobby_runs_the_same_queries_and_lists_a_few_tables_however_many_are_playing(client):
    playing_tables(3)
    few, _ = queries_and_html(client, "/play/")
    playing_tables(LOBBY_SIZE * 3)

    many, html = queries_and_html(client, "/play/")

    assert len(many) == len(few)
    assert html.count('class="table-row ') == LOBBY_SIZE


def test_the_match_archive_counts_nothing_and_shows_one_page_however_many_matches_finished(client):
    finished_matches(random_specs(make_users(8, prefix="archived"), 5), game="allfours")
    few, _ = queries_and_html(client, "/matches/")
    finished_matches(random_specs(make_users(8, prefix="archived"), LIST_SIZE * 3), game="allfours")

    many, html = queries_and_html(client, "/matches/")

    assert len(many) == len(few)
    assert not any("COUNT(" in sql.upper() for sql in many)
    assert html.count('data-testid="archive-row"') == LIST_SIZE and "page=2" in html


def test_the_last_archive_page_has_no_older_link_and_a_junk_page_number_is_the_first_page(client):
    finished_matches(random_specs(make_users(8, prefix="paged"), LIST_SIZE + 2), game="allfours")

    last = client.get("/matches/?page=2").content.decode()
    junk = client.get("/matches/?page=-3").content.decode()

    assert last.count('data-testid="archive-row"') == 2 and "page=3" not in last and "page=1" in last
    assert junk.count('data-testid="archive-row"') == LIST_SIZE


def test_the_competition_archive_counts_nothing_however_many_competitions_finished(client):
    from tournaments.models import Competition

    def finish(count):
        for _ in range(count):
            competition = make_competition()
            Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.FINISHED,
                                                                 finished_at=timezone.now())

    finish(2)
    few, _ = queries_and_html(client, "/competitions/archive/")
    finish(12)

    many, _ = queries_and_html(client, "/competitions/archive/")

    assert len(many) == len(few)
    assert not any("COUNT(" in sql.upper() for sql in many)


def test_a_competition_page_runs_the_same_queries_for_four_pairs_as_for_sixteen(client):
    small, large = big_finished_competition("round_robin", 4), big_finished_competition("round_robin", 16)

    few, _ = queries_and_html(client, f"/competitions/{small.pk}/")
    many, _ = queries_and_html(client, f"/competitions/{large.pk}/")

    assert len(many) == len(few)
    standings = [sql for sql in many if 'FROM "tournaments_standing"' in sql]
    assert standings and all("LIMIT 10" in sql for sql in standings)  # the top ten, not every pair


def test_a_finished_match_is_replayed_once_then_its_replay_page_comes_from_the_cache(
        client, django_capture_on_commit_callbacks, monkeypatch):
    match = finished_bot_match(django_capture_on_commit_callbacks)
    timeline = f"/matches/{match.pk}/replay/timeline.json"
    first_page, first = client.get(f"/matches/{match.pk}/replay/"), client.get(timeline)

    def replay_again(*args, **kwargs):
        raise AssertionError("the finished match was replayed a second time")

    monkeypatch.setattr(log, "replay", replay_again)
    second_page = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert client.get(timeline).content == first.content

    boot = '<script id="replay-boot" type="application/json">'
    assert second_page.split(boot)[1].split("</script>")[0] == first_page.content.decode().split(boot)[1].split("</script>")[0]


def test_the_replay_page_is_light_and_its_timeline_is_fetched_once_by_the_browser(
        client, django_capture_on_commit_callbacks):
    match = finished_bot_match(django_capture_on_commit_callbacks)
    page = client.get(f"/matches/{match.pk}/replay/")
    timeline = client.get(f"/matches/{match.pk}/replay/timeline.json")
    assert timeline.status_code == 200 and timeline["Content-Type"] == "application/json"
    assert len(page.content) < len(timeline.content) and '"hands"' not in page.content.decode()
    assert "private" in timeline["Cache-Control"] and "max-age" in timeline["Cache-Control"]
    again = client.get(f"/matches/{match.pk}/replay/timeline.json", HTTP_IF_NONE_MATCH=timeline["ETag"])
    assert again.status_code == 304 and again.content == b""  # the browser's copy is still the match's


def test_a_timeline_fetched_before_its_page_is_the_whole_match_and_reads_one_narrow_row(
        client, django_capture_on_commit_callbacks):
    """The timeline's request reads only the match's key and access fields; a timeline the cache
    lacks is still worked out from the whole match (every game, every frame)."""
    import orjson

    from gameplay import archive

    match = finished_bot_match(django_capture_on_commit_callbacks)
    expected = archive.timeline(log.spec_of(match), log.replay(match).all_games())
    first = client.get(f"/matches/{match.pk}/replay/timeline.json")
    assert first.status_code == 200 and orjson.loads(first.content) == orjson.loads(orjson.dumps(expected))
    with CaptureQueriesContext(connection) as queries:
        again = client.get(f"/matches/{match.pk}/replay/timeline.json")
    assert again.content == first.content
    matches = [q["sql"] for q in queries.captured_queries if 'FROM "gameplay_match"' in q["sql"]]
    assert len(matches) == 1 and '"options"' not in matches[0] and "JOIN" not in matches[0]
