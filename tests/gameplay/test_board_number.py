"""A duplicate's table page carries the words of "Board k of N" in the reader's language (the table
client fills in k and N from the state frame's `match.board` / `match.boards`); another table's
page has no such line."""

import pytest

from gameplay import services
from gameplay.rules import get_game
from tournaments.duplicate import make_board_set

from .helpers import make_match, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, words, numbered", [
    ("en", "Board %(number)s of %(boards)s", "Board %(number)s of %(boards)s (board %(board)s of the event)"),
    ("es", "Tablero %(number)s de %(boards)s", "Tablero %(number)s de %(boards)s (tablero %(board)s del torneo)"),
    ("ar", "اللوح %(number)s من %(boards)s", "اللوح %(number)s من %(boards)s (اللوح %(board)s في المسابقة)"),
])
def test_a_board_tables_page_says_board_k_of_n_in_the_readers_language(client, language, words, numbered):
    boards = [b.to_json() for b in make_board_set(get_game("cuatrola"), 8, 2, {}).boards]
    users = [make_user() for _ in range(4)]
    match = services.create_match("cuatrola", {}, [services.SeatSpec(user=u) for u in users], boards=boards)
    client.force_login(users[0])
    html = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'data-testid="board-number"' in html
    assert f'data-text="{words}"' in html
    assert f'data-text-numbered="{numbered}"' in html  # a table whose boards are not the event's first
    state = services.current_state(match.pk, users[0])
    assert (state["view"]["match"]["board"], state["view"]["match"]["boards"]) == (1, 2)


def test_a_table_without_boards_has_no_board_line(client):
    match, users = make_match("cuatrola")
    client.force_login(users[0])
    assert 'data-testid="board-number"' not in client.get(f"/matches/{match.pk}/").content.decode()
