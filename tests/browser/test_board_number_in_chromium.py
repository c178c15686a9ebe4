"""A duplicate's live table says which board is in play, "Board k of N", in the reader's language,
and moves on when a board ends (issue 34)."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match
from tests.gameplay.helpers import make_user
from tournaments.duplicate import make_board_set

from .play_helpers import log_in

pytestmark = pytest.mark.browser


def boards(count: int) -> list[dict]:
    from gameplay.rules import get_game

    return [b.to_json() for b in make_board_set(get_game("cuatrola"), 31, count, {}).boards]


def play_first_board(match_id: int, users) -> None:
    for _ in range(500):
        match = Match.objects.get(pk=match_id)
        if match.game_number == 1:
            return
        seat = services.current_state(match.pk, users[0])["to_act"]
        legal = services.current_state(match.pk, users[seat])["legal"][0]
        services.take(match.pk, services.Act.by_player(users[seat], match.seq, f"b{match.seq}", legal))
    raise AssertionError("board 1 did not end")


def test_a_board_match_shows_board_k_of_n_in_spanish_and_moves_on(browser, asgi_live):  # noqa: F811
    context = browser.new_context(base_url=asgi_live.url, locale="es-ES", extra_http_headers={"Accept-Language": "es"})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    log_in(tab, "lucia")
    users = [get_user_model().objects.get(username="lucia"), *(make_user() for _ in range(3))]
    match = services.create_match("cuatrola", {}, [services.SeatSpec(user=u) for u in users], boards=boards(2))

    tab.goto(f"/matches/{match.pk}/")
    line = tab.get_by_test_id("board-number")
    expect(line).to_have_text("Tablero 1 de 2")
    play_first_board(match.pk, users)
    expect(line).to_have_text("Tablero 2 de 2")
    context.close()
