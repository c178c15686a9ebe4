"""Leaderboards, the history page, and the chart/badge/changes tags other pages include."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from clubs.models import Club, Membership
from tournaments.ratings import services
from tournaments.ratings.models import Rating

from .conftest import finished_matches, make_users, random_specs

pytestmark = pytest.mark.django_db
SVG = "{http://www.w3.org/2000/svg}"


def rate_all(matches):
    for match in matches:
        services.rate_finished_match(match.pk)


@pytest.fixture
def regulars_and_newcomers():
    """Six regulars with 60 matches among them (RD below the threshold) and four newcomers
    with a single match each (RD far above it)."""
    regulars, newcomers = make_users(6, "regular"), make_users(4, "newcomer")
    rate_all(finished_matches(random_specs(regulars, 60, seed=1) + [(newcomers, 0)]))
    return regulars, newcomers


def names_on(html):
    return set(re.findall(r'href="/ratings/players/([^/]+)/"', html))


def test_leaderboard_lists_every_rated_player_and_marks_provisional_ones(client, regulars_and_newcomers):
    regulars, newcomers = regulars_and_newcomers
    url = reverse("ratings:leaderboard", args=["baloot"])

    html = client.get(url).content.decode()
    assert names_on(html) == {u.username for u in regulars + newcomers}
    assert html.count('data-testid="provisional"') == 4

    established = client.get(url, {"established": "1"}).content.decode()
    assert names_on(established) == {u.username for u in regulars}


def test_leaderboard_is_ordered_by_elo(client, regulars_and_newcomers):
    html = client.get(reverse("ratings:leaderboard", args=["baloot"])).content.decode()
    best_first = list(Rating.objects.order_by("-elo", "user__username").values_list("user__username", flat=True))
    assert re.findall(r'href="/ratings/players/([^/]+)/"', html) == best_first


def test_confidence_reads_the_glicko_deviation_from_0_to_100_percent():
    from tournaments.ratings.policy import LEADERBOARD_MAX_RD, confidence

    assert confidence(350) == 0 and confidence(0) == 100 and confidence(400) == 0
    assert confidence(LEADERBOARD_MAX_RD) == 69  # provisional below this


def test_player_page_headlines_elo_with_its_confidence_explained(client, regulars_and_newcomers):
    regulars, _newcomers = regulars_and_newcomers
    rating = Rating.objects.get(user=regulars[0], game="baloot")
    html = client.get(reverse("ratings:player", args=[regulars[0].username])).content.decode()
    assert f"<strong>{round(rating.elo)}</strong>" in html
    assert f"confidence {rating.confidence} %" in html and "Below 69 % the rating is provisional" in html


def test_club_leaderboard_lists_members_only(client, regulars_and_newcomers):
    regulars, _newcomers = regulars_and_newcomers
    club = Club.objects.create(name="Port of Spain", slug="pos")
    Membership.objects.bulk_create([Membership(club=club, user=u) for u in regulars[:3]])
    html = client.get(reverse("ratings:club_leaderboard", args=["baloot", "pos"])).content.decode()
    assert names_on(html) == {u.username for u in regulars[:3]}
    assert client.get(reverse("ratings:club_leaderboard", args=["baloot", "nowhere"])).status_code == 404


def test_leaderboard_queries_are_bounded(client, django_assert_max_num_queries):
    users = make_users(16)
    rate_all(finished_matches(random_specs(users, 40, seed=8)))
    with django_assert_max_num_queries(6):
        response = client.get(reverse("ratings:leaderboard", args=["baloot"]))
    assert len(names_on(response.content.decode())) == 16


def test_unknown_game_is_not_found(client):
    assert client.get("/ratings/chess/").status_code == 404
    assert client.get("/ratings/").status_code == 302


def test_player_page_shows_a_chart_per_game_and_the_history(client, four):
    rate_all(finished_matches([(four, 0), (four, 1)], game="allfours") + finished_matches([(four, 0)]))
    html = client.get(reverse("ratings:player", args=[four[0].username])).content.decode()
    assert html.count("<svg") == 2 and "All Fours" in html and "Baloot" in html
    assert html.count('class="gain"') + html.count('class="loss"') == 3


def render(source, **context):
    return Template("{% load ratings %}" + source).render(Context(context))


def svg_of(html):
    return ET.fromstring(html[html.index("<svg"):html.index("</svg>") + len("</svg>")])


@pytest.mark.parametrize("language", ["en", "es", "ar"])
def test_rating_chart_is_valid_svg_with_a_point_per_match(four, language):
    rate_all(finished_matches([(four, n % 3 == 0) for n in range(7)]))
    with translation.override(language):
        html = render("{% rating_chart user 'baloot' %}", user=four[0])
    svg = svg_of(html)
    assert svg.tag == SVG + "svg" and svg.get("role") == "img"
    points = svg.find(SVG + "polyline").get("points").split()
    assert len(points) == 8  # the start and after each of the seven matches
    assert all(re.fullmatch(r"-?\d+(\.\d+)?,-?\d+(\.\d+)?", p) for p in points)  # no "12,5" decimals
    assert svg.find(SVG + "title").text.strip()


def test_rating_chart_without_matches_says_so(four):
    assert "<svg" not in render("{% rating_chart user 'cuatrola' %}", user=four[0])


def test_rating_badge_marks_a_provisional_rating(four):
    rate_all(finished_matches([(four, 0)]))
    html = render("{% rating_badge user 'baloot' %}", user=four[0])
    assert "1520?" in html and "provisional" in html


def test_rating_changes_lists_the_four_players_of_a_match(four):
    [match] = finished_matches([(four, 0)])
    services.rate_finished_match(match.pk)
    html = render("{% rating_changes match %}", match=match)
    assert html.count("+20.0") == 2 and html.count("-20.0") == 2


def test_staff_see_ratings_in_the_admin(admin_client, four):
    rate_all(finished_matches([(four, 0)]))
    assert admin_client.get("/admin/ratings/rating/").status_code == 200
    assert admin_client.get("/admin/ratings/ratingchange/").status_code == 200


@pytest.mark.parametrize("language, heading", [("ar", "تصنيفات بلوت"), ("es", "Puntuaciones de Baloot")])
def test_leaderboard_is_translated(client, language, heading):
    html = client.get(reverse("ratings:leaderboard", args=["baloot"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert heading in html and f'lang="{language}"' in html
