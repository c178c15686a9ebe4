"""A competition's public page shared as a link shows a preview (issue 31): Open Graph title,
description (game, format, dates in the club's zone, club), type and absolute URL; a summary card."""

import re
from datetime import datetime, timezone as dt_timezone

import pytest

from tests.competitions_db.helpers import make_club, make_competition
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def meta(html: str, key: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)"', html)
    assert found, f"no {key}"
    return found.group(1)


def test_the_public_page_has_open_graph_and_a_summary_card_in_the_readers_language(client):
    club = make_club(time_zone="America/Port_of_Spain")
    club.name = "Club de Todos"
    club.save(update_fields=["name"])
    competition = make_competition(club, format="single_elimination")
    Competition.objects.filter(pk=competition.pk).update(
        name="Copa del Caribe", starts_at=datetime(2030, 3, 1, 23, 0, tzinfo=dt_timezone.utc))
    html = client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text

    assert meta(html, "og:title") == "Copa del Caribe"
    assert meta(html, "og:type") == "website"
    assert meta(html, "og:url") == f"http://testserver/competitions/{competition.pk}/"
    assert meta(html, "twitter:card") == "summary"
    description = meta(html, "og:description")
    assert description.startswith("All Fours · Eliminación directa · Empieza el ")
    assert "19:00" in description and "America/Port of Spain" in description  # the club's zone, named
    assert "marzo" in description and description.endswith("Club de Todos")
