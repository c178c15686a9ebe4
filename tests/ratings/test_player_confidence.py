"""A player's page (/players/<name>/) says how sure each rating is (issue 32): in words and in
percent, from the Glicko-2 deviation and the rated matches, in the reader's language."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.ratings.models import Rating
from tournaments.ratings.policy import confidence_level


pytestmark = pytest.mark.django_db


def test_the_level_in_words_follows_the_deviation_and_the_matches():
    assert confidence_level(350, 0) == "unrated"
    assert confidence_level(200, 3) == "provisional"
    assert confidence_level(100, 20) == "established"
    assert confidence_level(40, 80) == "well established"


@pytest.mark.parametrize("language, words, percent", [
    ("en", "Established rating", "confidence 70 %"), ("es", "Puntuación asentada", "fiabilidad 70 %"),
    ("ar", "تصنيف ثابت", "الثقة 70 %"),
])
def test_the_player_page_shows_each_ratings_confidence_in_words_and_numbers(client, language, words, percent):
    user = get_user_model().objects.create_user(f"conf-{language}", f"conf-{language}@example.com", "pw")
    Rating.objects.create(user=user, game="baloot", elo=1612, glicko_rating=1640, glicko_rd=105, rated_matches=24)
    client.cookies["django_language"] = language
    page = client.get(reverse("player", args=[user.username])).content.decode()
    start = page.index('data-testid="confidence-baloot"')
    line = page[start:page.index("</p>", start)]
    assert words in line and percent in line and "24" in line
    unrated = page[page.index('data-testid="confidence-allfours"'):]
    assert "confidence 0 %" in unrated[:unrated.index("</p>")] or language != "en"
