"""Bad URLs are a 400 or a 404, never a 500: every URL pattern, walked with NUL bytes, over-long
ids, junk and over-long parameters, as a visitor and as a signed-in player (issue 16, item 4).

A NUL byte that reached a PostgreSQL query would be a DataError, an id past 2**63 a
DataError too: either is a 500, which this walk fails on.
"""

from urllib.parse import quote

import pytest

from tests.gameplay.helpers import make_user
from tests.web.urlwalk import CONVERTER, fill, real_ids, routes

pytestmark = pytest.mark.django_db

ACCEPTABLE = {200, 301, 302, 400, 403, 404, 405}
# Every name a view or the API reads from the query string (grep request.GET and tournaments/api.py).
PARAMETERS = ["club", "game", "year", "page", "status", "player", "mine", "provisional", "preset", "part",
              "round", "next", "q"]
HUGE = "9" * 40
NUL = "%00"
# Refused at once (NUL, over-long), then values a view must parse: huge, negative, and junk text.
QUERY_VALUES = [f"a{NUL}b", "x" * 600, HUGE, "-1e309%27%22%3C%3E%ED%A0%80%FF"]


def bad_paths(route):
    if not CONVERTER.search(route) and "(?P<" not in route:
        return ["/" + route + NUL]
    return [fill(route, HUGE, "x" * 3000), fill(route, "-1", quote("a\x00b")), fill(route, "0" + NUL, "%ED%A0%80%FF")]


def bad_queries(path):
    return [path + "?" + "&".join(f"{name}={value}" for name in PARAMETERS) for value in QUERY_VALUES]


def walk(client, sample):
    """(url, status) of every request that did not end as a 400 or a 404 class answer."""
    failures = []
    for route in routes():
        if route.endswith(".json") and "openapi" in route:
            continue
        for url in bad_paths(route) + bad_queries(real_ids(route, sample)):
            status = client.get(url).status_code
            if status not in ACCEPTABLE:
                failures.append((url[:120], status))
    return failures


def test_every_url_with_nul_bytes_junk_and_huge_ids_is_a_400_or_404_for_a_visitor(client, sample):
    assert walk(client, sample) == []


def test_every_url_with_nul_bytes_junk_and_huge_ids_is_a_400_or_404_for_a_player(client, sample):
    client.force_login(make_user("walker"))

    assert walk(client, sample) == []


@pytest.mark.parametrize("url", ["/players/%00/", "/matches/?player=%00", "/competitions/archive/?club=%00"])
def test_a_nul_byte_in_a_url_is_a_bad_request_that_names_the_problem(client, url):
    response = client.get(url)

    assert response.status_code == 400
    assert "That address is not one Chalk understands." in response.content.decode()


@pytest.mark.parametrize("url", ["/competitions/api/competitions?club=%00", "/competitions/api/competitions?status=%00"])
def test_a_nul_byte_in_an_api_url_is_a_bad_request_in_json(client, url):
    response = client.get(url)

    assert response.status_code == 400
    assert response.json() == {"detail": "Bad Request"}


def test_an_id_too_large_for_the_database_is_not_found(client):
    response = client.get(f"/matches/{HUGE}/")

    assert response.status_code == 404


DIGITS_PAST_PYTHONS_LIMIT = "9" * 5000  # int() refuses more than 4,300 digits


def test_a_join_request_id_of_thousands_of_digits_is_not_found_for_the_clubs_organiser(client):
    from tests.competitions_db.helpers import make_club

    organiser = make_user("organiser")
    club = make_club(organiser=organiser, is_public=True)
    client.force_login(organiser)

    for decision in ["approve", "decline"]:
        response = client.post(f"/clubs/{club.slug}/requests/{DIGITS_PAST_PYTHONS_LIMIT}/{decision}/")

        assert response.status_code == 404


@pytest.mark.parametrize("digits", ["9" * 20, DIGITS_PAST_PYTHONS_LIMIT])
def test_an_id_captured_as_text_is_bounded_like_a_number(digits):
    from config.request_guard import is_bad_argument

    assert is_bad_argument(digits, "request_id") and is_bad_argument(digits, "pk")
    assert is_bad_argument(str(2**63), "request_id")
    assert not is_bad_argument(str(2**63 - 1), "request_id")
    assert not is_bad_argument(digits, "slug")  # a club's address may be all digits
