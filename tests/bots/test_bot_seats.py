"""Bot levels where seats are filled and shown: the new-table form, the waiting table's button,
the seat names, the bot move in the worker, and a competition's substitute level."""

import threading
from unittest.mock import patch

import pytest

from gameplay import services
from gameplay.bot_levels import substitute_level
from gameplay.models import Match
from gameplay.bots.rule_bot import RuleBot
from gameplay.services import SeatSpec, moves
from gameplay.services.tables import match_lock
from gameplay.views import seat_names
from tests.gameplay.helpers import make_user
from tests.gameplay.test_views import logged_in, new_table_data

pytestmark = pytest.mark.django_db


def test_the_new_table_form_fills_the_seats_with_bots_of_the_chosen_level(client):
    logged_in(client)
    client.post("/play/new/", new_table_data(fill_with_bots="on", bot_level="easy"))
    match = Match.objects.get()
    assert sorted(match.seats.exclude(bot="").values_list("bot", flat=True)) == ["easy"] * 3


def test_the_new_table_form_refuses_an_unknown_level_and_creates_nothing(client):
    logged_in(client)
    response = client.post("/play/new/", new_table_data(fill_with_bots="on", bot_level="godlike"))
    assert response.status_code == 200 and not Match.objects.exists()


def test_bots_default_to_the_normal_level(client):
    logged_in(client)
    client.post("/play/new/", new_table_data(fill_with_bots="on"))
    assert set(Match.objects.get().seats.exclude(bot="").values_list("bot", flat=True)) == {"normal"}


def test_the_waiting_table_offers_the_levels_and_fills_with_the_one_chosen(client):
    creator = logged_in(client)
    match = services.create_match("cuatrola", {}, [SeatSpec(user=creator)], created_by=creator)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="bot-level"' in page and ">Strong<" in page
    client.post(f"/matches/{match.pk}/bots/", {"level": "strong"})
    assert set(match.seats.exclude(bot="").values_list("bot", flat=True)) == {"strong"}


def test_a_bot_seat_is_named_as_a_bot_with_its_level():
    user = make_user()
    match = services.create_match("baloot", {}, [SeatSpec(user=user), SeatSpec(bot="strong"),
                                                 SeatSpec(bot="easy")], created_by=user)
    names = [seat["name"] for seat in seat_names(match)]
    assert names[1:3] == ["Bot 2 (Strong)", "Bot 3 (Easy)"]


def test_bots_of_every_level_play_their_turns_until_a_person_is_to_act():
    user = make_user()
    match = services.create_match("allfours", {}, [SeatSpec(bot="normal"), SeatSpec(user=user),
                                                   SeatSpec(bot="strong"), SeatSpec(bot="easy")],
                                  seed=3, first_dealer=0)
    # the worker's task calls play_bot_turn until it returns None: a person is to act.
    # (Forget the process's cached live table: an earlier test's match may have had this id.)
    services.forget_table(match.pk)
    moves = 0
    while services.play_bot_turn(match.pk) is not None:
        moves += 1
        assert moves < 200
    match.refresh_from_db()
    assert match.status in ("playing", "finished")
    if match.status == "playing":
        table = services.live_table(match).table
        assert table.to_act == 1


def test_a_table_outside_a_competition_substitutes_a_normal_bot():
    user = make_user()
    match = services.create_match("allfours", {}, [SeatSpec(user=user)], created_by=user)
    assert substitute_level(match) == "normal"


class _Thinker:
    """A bot that, while it thinks, records whether another thread could take the match's lock,
    and can have the table moved on under it (another worker's move)."""

    needs_view = True

    def __init__(self, match_id, move_meanwhile):
        self.match_id, self.move_meanwhile, self.lock_was_free = match_id, move_meanwhile, None

    def choose(self, view, legal):
        free = []
        worker = threading.Thread(target=lambda: free.append(_take_and_release(self.match_id)))
        worker.start()
        worker.join()
        self.lock_was_free = free[0]
        if self.move_meanwhile:
            self.move_meanwhile = False
            with patch.object(moves, "get_bot", lambda *a, **k: RuleBot(options={})):
                assert services.play_bot_turn(self.match_id) is not None
        return legal[0]


def _take_and_release(match_id):
    lock = match_lock(match_id)
    if lock.try_acquire():
        lock.release()
        return True
    return False


def _bot_table():
    user = make_user()
    match = services.create_match("cuatrola", {}, [SeatSpec(bot="normal"), SeatSpec(bot="normal"),
                                                   SeatSpec(user=user), SeatSpec(bot="normal")],
                                  seed=5, first_dealer=2)
    services.forget_table(match.pk)
    return match


def test_a_bot_chooses_without_holding_the_match_lock_and_its_move_is_applied():
    match = _bot_table()
    thinker = _Thinker(match.pk, move_meanwhile=False)
    with patch.object(moves, "get_bot", lambda *a, **k: thinker):
        assert services.play_bot_turn(match.pk) is not None
    match.refresh_from_db()
    assert thinker.lock_was_free and match.seq == 1


def test_a_bot_move_chosen_on_a_table_that_moved_on_meanwhile_is_dropped():
    match = _bot_table()
    thinker = _Thinker(match.pk, move_meanwhile=True)
    with patch.object(moves, "get_bot", lambda *a, **k: thinker):
        assert services.play_bot_turn(match.pk) is None
    match.refresh_from_db()
    assert match.seq == 1  # only the move made meanwhile was written
