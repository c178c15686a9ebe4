"""A player's home is kept between requests (home/queries.py `kept_page`): served
again, without rendering, only while their tables, whose turn it is and their table invitations
are as they were; every event that changes the rest of the page shows at once."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from home import queries
from gameplay import services
from tests.competitions_db.helpers import human_pairs, make_competition, make_user
from tests.dashboard.test_dashboard_queries import scheduled_pairing
from tests.ratings.conftest import finished_matches
from tournaments.models import Round
from tournaments.ratings.services import rate_pending_matches
from tournaments.services import manager
from tournaments.services.notify import notify
from tournaments.signals import competition_changed, send_competition_changed

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("kept")]


@pytest.fixture
def kept():
    with override_settings(DASHBOARD_PAGE_SECONDS=30, DASHBOARD_CACHE_SECONDS=30):
        yield


def signed_in(user) -> Client:
    cache.delete_many([queries.page_key(user.pk), queries.cache_key(user.pk)])
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(user)
    return browser


def home_of(browser) -> str:
    response = browser.get("/")
    assert response.status_code == 200
    return response.content.decode()


def without_tokens(page: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[A-Za-z0-9]+', r"\1", page)


def test_the_kept_page_is_served_again_with_fewer_queries_and_the_same_content():
    player = make_user()
    browser = signed_in(player)
    first = home_of(browser)
    with CaptureQueriesContext(connection) as rendered_again:
        second = home_of(browser)
    assert without_tokens(second) == without_tokens(first)  # each response masks its token anew
    # session, user, the tables, the table invitations: no next match, results, counts or profile
    assert len(rendered_again) <= 4, [q["sql"][:60] for q in rendered_again]


def test_a_move_at_the_players_table_shows_whose_turn_it_is_at_once():
    players = [make_user() for _ in range(4)]
    match = services.create_match("allfours", {}, [services.SeatSpec(user=u) for u in players], seed=3, first_dealer=0)
    live = services.live_table(match).table
    actor = players[live.to_act]
    browser = signed_in(actor)
    assert 'data-testid="your-turn"' in home_of(browser)
    seat = live.to_act
    while live.to_act == seat:  # the actor's own moves, until the turn passes on
        services.take(match.pk, services.Act.by_player(actor, live.seq, f"kept-page-{live.seq}", live.legal_for(seat)[0]))
        match.refresh_from_db()
        live = services.live_table(match).table
    assert 'data-testid="your-turn"' not in home_of(browser)


def test_a_table_invitation_shows_at_once():
    host, friend = make_user(), make_user()
    browser = signed_in(friend)
    assert 'data-testid="table-invitation"' not in home_of(browser)
    services.create_match("allfours", {}, [services.SeatSpec(user=host), services.SeatSpec(user=friend, invited=True)],
                          created_by=host)
    assert 'data-testid="table-invitation"' in home_of(browser)


def test_a_new_notification_is_counted_at_once(django_capture_on_commit_callbacks):
    player = make_user()
    browser = signed_in(player)
    assert "<bdi data-count>0</bdi>" in home_of(browser)
    with django_capture_on_commit_callbacks(execute=True):
        notify(player, "kept-page-notice", "round_open", {"competition": "Cup", "number": 1}, email=False)
    assert "<bdi data-count>1</bdi>" in home_of(browser)


def test_checking_in_shows_at_once(django_capture_on_commit_callbacks):
    pairing, users = scheduled_pairing(starts_in=timedelta(minutes=5), status=Round.Status.OPEN)
    browser = signed_in(users[0])
    assert 'data-testid="check-in"' in home_of(browser)
    with django_capture_on_commit_callbacks(execute=True):
        manager.check_in(users[0], pairing.pk)
    page = home_of(browser)
    assert 'data-testid="checked-in"' in page and 'data-testid="check-in"' not in page


def test_a_competitions_event_shows_the_new_next_match_to_each_of_its_players_at_once(
        django_capture_on_commit_callbacks):
    pairing, users = scheduled_pairing(starts_in=timedelta(minutes=5))
    browsers = [signed_in(users[0]), signed_in(users[3])]
    assert all('data-testid="check-in"' not in home_of(browser) for browser in browsers)
    Round.objects.filter(pk=pairing.round_id).update(status=Round.Status.OPEN)  # unreported: still kept
    assert all('data-testid="check-in"' not in home_of(browser) for browser in browsers)
    with django_capture_on_commit_callbacks(execute=True):
        send_competition_changed(pairing.competition_id)
    assert all('data-testid="check-in"' in home_of(browser) for browser in browsers)


def test_a_step_that_changes_a_competition_reports_it(django_capture_on_commit_callbacks):
    competition = make_competition()
    human_pairs(competition, 2)
    heard = []

    def hear(sender, competition_id, **kwargs):
        heard.append(competition_id)

    competition_changed.connect(hear)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert manager.step(competition.pk)  # starts it and opens round 1
        with django_capture_on_commit_callbacks(execute=True):
            manager.step(competition.pk)  # nothing new
    finally:
        competition_changed.disconnect(hear)
    assert heard == [competition.pk]


def test_new_ratings_show_the_result_at_once(django_capture_on_commit_callbacks):
    players = [make_user() for _ in range(4)]
    browser = signed_in(players[0])
    assert "No rated matches yet." in home_of(browser)
    finished_matches([(players, 0)], game="allfours")
    with django_capture_on_commit_callbacks(execute=True):
        rate_pending_matches()
    assert "No rated matches yet." not in home_of(browser)


def test_a_renamed_player_is_greeted_by_the_new_name_at_once():
    player = make_user()
    browser = signed_in(player)
    assert "Hello, Zebedee" not in home_of(browser)
    player.player.display_name = "Zebedee"
    player.player.save()
    assert "Hello, Zebedee" in home_of(browser)


def test_each_browser_gets_its_own_csrf_token_from_the_kept_page():
    player = make_user()
    first, second = signed_in(player), Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True)
    second.force_login(player)
    home_of(first)  # kept
    page = home_of(second)
    token = page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
    assert "\x00" not in page
    response = second.post("/language/", {"language": "es", "next": "/", "csrfmiddlewaretoken": token})
    assert response.status_code == 302


def test_a_page_with_a_message_waiting_is_rendered_and_not_kept():
    player = make_user()
    browser = signed_in(player)
    home_of(browser)  # kept
    response = browser.post(f"/me/tables/{999_999}/answer/", {"accept": "0"})  # not htmx: a message
    assert response.status_code == 302
    assert 'class="messages"' in home_of(browser)
    assert 'class="messages"' not in home_of(browser)  # shown once, as messages are
