"""Bot levels where seats are filled and shown: the new-table form, the waiting table's button,
the seat names, the bot move in the worker, and a competition's substitute level."""

import pytest

from gameplay import services
from gameplay.bot_levels import substitute_level
from gameplay.models import Match
from gameplay.services import SeatSpec
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
    # the worker's task calls submit_bot_move until it returns None: a person is to act.
    # (Forget the process's cached live table: an earlier test's match may have had this id.)
    services.forget_table(match.pk)
    moves = 0
    while services.submit_bot_move(match.pk) is not None:
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
