"""Time zones found by their cities in English, Spanish and Arabic (config/zones.py): the zone
fields of the profile and the club accept what their hint suggests ("Puerto España")."""

import pytest

from config import zones
from config.formatting import COMMON_ZONES, valid_zone_names


@pytest.mark.parametrize("typed, zone", [
    ("Port of Spain", "America/Port_of_Spain"),
    ("Puerto España", "America/Port_of_Spain"),
    ("puerto espana", "America/Port_of_Spain"),
    ("بورت أوف سبين", "America/Port_of_Spain"),
    ("Riad", "Asia/Riyadh"),
    ("الرياض", "Asia/Riyadh"),
    ("Nueva York", "America/New_York"),
    ("Madrid", "Europe/Madrid"),
    ("Europe/Madrid", "Europe/Madrid"),
    ("America/Port of Spain", "America/Port_of_Spain"),
    ("  madrid ", "Europe/Madrid"),
])
def test_a_city_in_any_of_the_three_languages_or_the_zones_name_finds_the_zone(typed, zone):
    assert zones.find_zone(typed) == zone


@pytest.mark.parametrize("typed", ["", "Atlantis", "Mars/Olympus", "12345", "Madrid; drop table"])
def test_what_is_no_place_finds_nothing(typed):
    assert zones.find_zone(typed) is None


@pytest.mark.parametrize("language", ["en", "es", "ar"])
def test_what_a_box_shows_for_each_zone_reads_back_as_that_zone(language):
    for zone in valid_zone_names():
        assert zones.find_zone(zones.shown(zone, language)) == zone, zone


def test_the_suggestions_name_the_city_in_the_readers_language_and_the_other_two():
    spanish = dict(zones.zone_options("es"))
    arabic = dict(zones.zone_options("ar"))
    trinidad_es = next(text for text in spanish if "America/Port of Spain" in text)
    assert trinidad_es.startswith("Puerto España (Trinidad y Tobago)")
    assert spanish[trinidad_es] == "Port of Spain · بورت أوف سبين"
    assert next(text for text in arabic if "America/Port of Spain" in text).startswith("بورت أوف سبين")
    assert [zones.find_zone(text) for text, _others in zones.zone_options("en")][: len(COMMON_ZONES)] == list(COMMON_ZONES)
    assert len(zones.zone_options("en")) == len(valid_zone_names())
