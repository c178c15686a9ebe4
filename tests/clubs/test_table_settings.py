"""A player's table settings (issue 32): hand order, four-colour deck, card size, sound and
vibration on their turn, kept in the profile, edited on the profile page and from the table's
menu, read by the table page. A value outside its choices is refused beside its field."""

import json
import re

import pytest

from clubs.models import Player
from gameplay import services
from gameplay.services import SeatSpec
from tests.clubs.conftest import make_user

pytestmark = pytest.mark.django_db

PROFILE = {"display_name": "Noura", "preferred_language": "", "time_zone": "", "hand_order": "rank",
           "four_colour_deck": "on", "card_size": "large", "turn_alert": "on", "digits": "western"}


def table_boot(client, match) -> dict:
    page = client.get(f"/matches/{match.pk}/").content.decode()
    return json.loads(re.search(r'<script id="table-boot" type="application/json">(.*?)</script>', page, re.S)[1])


def test_the_profile_keeps_the_table_settings_and_the_table_reads_them(client):
    user = make_user("noura")
    client.force_login(user)
    assert client.post("/accounts/profile/", PROFILE).status_code == 302
    player = Player.objects.get(user=user)
    assert (player.hand_order, player.four_colour_deck, player.card_size, player.turn_alert) == ("rank", True, "large", True)

    match = services.create_match("baloot", {}, [SeatSpec(user=user)], created_by=user)
    boot = table_boot(client, match)
    assert boot["prefs"] == {"hand_order": "rank", "four_colour_deck": True, "card_size": "large", "turn_alert": True}
    assert all("/cards/french4/" in url for url in boot["cards"]["faces4"].values())
    assert set(code[-1] for code in boot["cards"]["faces4"]) == {"D", "C"}


@pytest.mark.parametrize("field, value", [("hand_order", "random"), ("card_size", "huge"), ("digits", "roman")])
def test_a_setting_outside_its_choices_is_refused_beside_its_field_and_nothing_changes(client, field, value):
    user = make_user("sam")
    client.force_login(user)
    response = client.post("/accounts/profile/", {**PROFILE, field: value})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field]  # beside that field, no other
    page = response.content.decode()
    assert 'value="Noura"' in page  # what was typed is kept
    player = Player.objects.get(user=user)
    assert (player.display_name, player.hand_order, player.card_size, player.digits) == ("", "suit", "medium", "western")


def test_the_table_menu_saves_and_goes_back_to_the_table(client):
    user = make_user("devi")
    client.force_login(user)
    match = services.create_match("allfours", {}, [SeatSpec(user=user)], created_by=user)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="table-menu"' in page and 'action="/accounts/table-settings/"' in page
    response = client.post("/accounts/table-settings/", {"hand_order": "dealt", "card_size": "small",
                                                         "next": f"/matches/{match.pk}/"})
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert table_boot(client, match)["prefs"] == {"hand_order": "dealt", "four_colour_deck": False,
                                                  "card_size": "small", "turn_alert": False}

    refused = client.post("/accounts/table-settings/", {"hand_order": "dealt", "card_size": "enormous",
                                                        "next": f"/matches/{match.pk}/"})
    assert refused.status_code == 400 and list(refused.context["form"].errors) == ["card_size"]
    assert Player.objects.get(user=user).card_size == "small"
    # a forged "next" to another site is not followed
    away = client.post("/accounts/table-settings/", {"hand_order": "suit", "card_size": "medium",
                                                     "next": "https://evil.example/"})
    assert away["Location"] == "/accounts/table-settings/"


def test_a_visitor_gets_the_default_table(client):
    user = make_user("host")
    match = services.create_match("allfours", {}, [SeatSpec(user=user)], created_by=user)
    boot = table_boot(client, match)
    assert boot["prefs"] == {"hand_order": "suit", "four_colour_deck": False, "card_size": "medium", "turn_alert": False}
    assert 'data-testid="table-menu"' not in client.get(f"/matches/{match.pk}/").content.decode()
