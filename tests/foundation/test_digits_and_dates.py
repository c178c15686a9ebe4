"""One kind of digit on Arabic pages and one date format per language (issue 32): Western digits
by default (what Jawaker uses), Eastern Arabic digits as a profile setting, applied to every text a
person reads (config/digits.py; attributes, scripts and character references keep theirs), and
every date through config/formatting.py's one format per language."""

import html
import re
from datetime import datetime, timezone

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from config.digits import digits_html
from config.formatting import date_time, day_date
from gameplay.models import Match, Seat
from tournaments.ratings.services import rate_finished_match

pytestmark = pytest.mark.django_db

WESTERN = re.compile("[0-9]")
EASTERN = re.compile("[\u0660-\u0669\u06f0-\u06f9]")
FINISHED = datetime(2026, 12, 7, 21, 5, tzinfo=timezone.utc)
PAGES = ["/", "/play/", "/matches/", "/players/layla/", "/ratings/players/layla/", "/help/", "/help/baloot/",
         "/accounts/profile/", "/ratings/baloot/", "/clubs/"]


def readable_text(page: str) -> str:
    """What a person reads: the text between tags, without scripts, styles and form text boxes."""
    page = re.sub(r"<(script|style|textarea)\b.*?</\1\s*>", " ", page, flags=re.S | re.I)
    page = re.sub(r"<!--.*?-->|<[^>]*>", " ", page, flags=re.S)
    return html.unescape(page)


@pytest.fixture
def layla(client):
    user = get_user_model().objects.create_user("layla", "layla@example.com", "pw-chalk-123")
    others = [get_user_model().objects.create_user(name, f"{name}@example.com", "pw") for name in ("huda", "omar", "reem")]
    match = Match.objects.create(game="baloot", seed=3, status=Match.Status.FINISHED, finish=Match.Finish.PLAYED, winner=0,
                                 rated=True, finished_at=FINISHED,
                                 result={"games_won": [1, 0], "games": [{"score": [152, 88]}]})
    Seat.objects.bulk_create([Seat(match=match, seat=s, user=u) for s, u in enumerate([user, *others])])
    rate_finished_match(match.pk)  # a rating change, with its date, on the home and the rating pages
    client.force_login(user)
    client.cookies["django_language"] = "ar"
    return user


def choose_digits(client, digits):
    response = client.post("/accounts/profile/", {"display_name": "Layla", "preferred_language": "ar",
                                                  "time_zone": "Asia/Riyadh", "hand_order": "suit",
                                                  "card_size": "medium", "digits": digits})
    assert response.status_code == 302


def test_an_arabic_page_with_eastern_digits_chosen_has_no_western_digit_a_person_reads(client, layla):
    choose_digits(client, "eastern")
    for path in PAGES:
        response = client.get(path)
        assert response.status_code == 200, path
        page = response.content.decode()
        assert '<meta name="chalk-digits" content="eastern">' in page
        text = readable_text(page)
        found = WESTERN.findall(text)
        assert not found, f"{path}: Western digits in {[m for m in re.findall(r'.{0,30}[0-9].{0,10}', text)][:5]}"
        assert EASTERN.search(text), path  # the numbers are there, written the Eastern way
    # the links and the data for the scripts keep theirs
    assert 'href="/matches/' in client.get("/matches/").content.decode()


def test_an_arabic_page_by_default_has_no_eastern_digit(client, layla):
    for path in PAGES:
        page = client.get(path).content.decode()
        assert '<meta name="chalk-digits" content="western">' in page
        text = readable_text(page)
        assert not EASTERN.search(text), f"{path}: Eastern digits in {re.findall('.{0,30}[٠-٩].{0,10}', text)[:5]}"


def test_other_languages_are_left_as_they_are(client, layla):
    choose_digits(client, "eastern")
    client.cookies["django_language"] = "es"
    page = client.get("/players/layla/").content.decode()
    assert "chalk-digits" not in page and not EASTERN.search(readable_text(page))


def test_the_rewrite_keeps_tags_scripts_and_character_references():
    page = '<p title="12">Game 12 &#39;x&#39;</p><script>let a = 12;</script><a href="/m/7/">#7</a>'
    assert digits_html(page, "eastern") == '<p title="12">Game ١٢ &#39;x&#39;</p><script>let a = 12;</script><a href="/m/7/">#٧</a>'
    assert digits_html("<b>١٥٢ ۳</b>", "western") == "<b>152 3</b>"


@pytest.mark.parametrize("language, day, moment", [
    ("en", "Dec. 7, 2026", "Dec. 7, 2026, 9:05 p.m. (UTC)"),
    ("es", "7 de diciembre de 2026", "7 de diciembre de 2026 a las 21:05 (UTC)"),
    ("ar", "7 ديسمبر 2026", "7 ديسمبر 2026، 9:05 م (UTC)"),
])
def test_one_date_format_per_language(language, day, moment):
    with translation.override(language):
        assert day_date(FINISHED) == day
        assert date_time(FINISHED, "UTC") == moment


@pytest.mark.parametrize("language", ["en", "es", "ar"])
def test_every_date_on_the_pages_is_written_the_one_way(client, layla, language):
    client.cookies["django_language"] = language
    with translation.override(language):
        day = day_date(FINISHED)
    for path in ("/", "/matches/", "/ratings/players/layla/"):
        page = client.get(path).content.decode()
        dates = [d for d in re.findall(r"<time[^>]*>(.*?)</time>", page, re.S) if "data-countdown" not in d]
        assert dates, path
        for shown in dates:
            assert html.unescape(shown).strip().startswith(day), f"{path} ({language}): {shown!r} is not {day!r}"
    assert "12/07/2026" not in client.get("/matches/").content.decode()
