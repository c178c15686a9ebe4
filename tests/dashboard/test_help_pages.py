"""How to play: a page for each game in each language, linked from where people play."""

import pytest

from tests.competitions_db.helpers import make_competition, make_user
from tests.gameplay.helpers import make_match

pytestmark = pytest.mark.django_db

WORDS = {  # a few words a player of each game expects, per language
    ("allfours", "en"): ["Stand", "Beg", "hang jack", "14 points"],
    ("allfours", "es"): ["Plantarse", "Pedir", "jota colgada", "14 puntos"],
    ("allfours", "ar"): ["الكيك", "الولد المعلّق", "14 نقطة"],  # Western digits unless the profile says Eastern (config/digits.py)
    ("baloot", "en"): ["Hokum", "Sun", "Ashkal", "gahwa", "kaboot", "Contract mode"],
    ("baloot", "es"): ["Hokum", "Sun", "baza", "triunfo", "Modalidad de subasta"],
    ("baloot", "ar"): ["صن", "حكم", "أشكال", "مشاريع", "سرا", "خمسين", "مية", "أربعمية", "بلوت", "دبل", "قهوة",
                       "كبوت", "شايب", "بنت", "ولد", "إكة"],
    ("cuatrola", "en"): ["Solo", "Cuatrola", "Quintola", "las cuarenta"],
    ("cuatrola", "es"): ["las veinte", "las cuarenta", "triunfo", "baza", "mano", "diez de últimas"],
    ("cuatrola", "ar"): ["الحكم", "العشرين", "الأربعين", "كواترولا"],
}


@pytest.mark.parametrize("game, language", sorted(WORDS))
def test_each_game_has_its_rules_in_each_language(client, game, language):
    response = client.get(f"/help/{game}/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 200 and f'<html lang="{language}"' in html
    assert [word for word in WORDS[game, language] if word not in html] == []


def test_an_unknown_game_has_no_help_page(client):
    assert client.get("/help/poker/").status_code == 404


def test_the_help_index_links_every_game(client):
    html = client.get("/help/").content.decode()
    assert all(f"/help/{game}/" in html for game in ("allfours", "baloot", "cuatrola"))


def test_the_table_links_its_game_rules(client):
    match, users = make_match("baloot")
    client.force_login(users[0])
    assert "/help/baloot/" in client.get(f"/matches/{match.pk}/").content.decode()


def test_the_new_table_form_links_the_chosen_game_rules(client):
    client.force_login(make_user())
    assert "/help/cuatrola/" in client.get("/play/new/?game=cuatrola").content.decode()


def test_the_competition_page_links_its_game_rules(client):
    competition = make_competition(game="allfours")
    assert "/help/allfours/" in client.get(f"/competitions/{competition.pk}/").content.decode()
