"""Time zones found by the places people live in, in English, Spanish and Arabic.

A zone's name (America/Port_of_Spain) is what Chalk stores; a person types a city, in their own
language: "Port of Spain", "Puerto España", «بورت أوف سبين». The cities' names in each language
come from the Unicode CLDR (Babel's data, already installed for the catalogues), so every real
zone has them, not only a hand-kept list.

    place_name("America/Port_of_Spain", "es")  ->  "Puerto España (Trinidad y Tobago)"
    find_zone("puerto espana")                 ->  "America/Port_of_Spain"
    zone_options("es")  ->  [(what the box shows, the city in the other two languages), ...]
"""

import unicodedata
from functools import lru_cache

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location

from config.formatting import COMMON_ZONES, valid_zone_names, zone_name

LANGUAGES = ("en", "es", "ar")
# Wrapped around the zone's own name inside a box's text, so that in an Arabic box the Latin name
# in brackets keeps its place (FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE).
_ISOLATES = ("\u2068", "\u2069")


def _folded(text: str) -> str:
    """Text compared without case, accents or extra spaces: "Puerto  España" ~ "puerto espana"."""
    decomposed = unicodedata.normalize("NFKD", text.replace("_", " "))
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


@lru_cache(maxsize=None)
def city(zone: str, language: str) -> str:
    """The zone's city as `language` writes it ("Puerto España"); the zone's own last part when
    the CLDR has no city for it (UTC, Etc/GMT+5)."""
    try:
        return get_timezone_location(zone, locale=language, return_city=True)
    except (LookupError, ValueError):
        return zone_name(zone).rsplit("/", 1)[-1]


@lru_cache(maxsize=None)
def place_name(zone: str, language: str) -> str:
    """The city and its country, as `language` writes them: "Puerto España (Trinidad y Tobago)"."""
    territory = get_global("zone_territories").get(zone)
    country = Locale.parse(language).territories.get(territory, "") if territory and territory != "ZZ" else ""
    name = city(zone, language)
    return f"{name} ({country})" if country and country != name else name


def shown(zone: str, language: str) -> str:
    """What a zone box shows for a stored zone: the place, then the zone's own name, which is also
    what find_zone reads back: "Puerto España (Trinidad y Tobago) · America/Port of Spain"."""
    if not zone:
        return ""
    return f"{place_name(zone, language)} · {_ISOLATES[0]}{zone_name(zone)}{_ISOLATES[1]}"


@lru_cache(maxsize=None)
def zone_options(language: str) -> tuple[tuple[str, str], ...]:
    """Every zone as a box's suggestion in `language`, the common ones first: the text put in the
    box, and the city's names in the other languages (the browser searches both)."""
    rest = sorted(valid_zone_names() - set(COMMON_ZONES))
    options = []
    for zone in (*COMMON_ZONES, *rest):
        others = dict.fromkeys(city(zone, other) for other in LANGUAGES if other != language)
        options.append((shown(zone, language), " · ".join(others)))
    return tuple(options)


@lru_cache(maxsize=1)
def _index() -> dict[str, str]:
    """Every way of writing a zone, folded, to the zone: its name, its name with spaces, its last
    part, its city in each language, and its place (city and country) in each language."""
    index: dict[str, str] = {}
    names = valid_zone_names()
    for zone in sorted(names, key=lambda z: (z not in COMMON_ZONES, z)):  # a common zone wins a shared city
        for language in LANGUAGES:
            for text in (city(zone, language), place_name(zone, language)):
                index.setdefault(_folded(text), zone)
    for zone in names:  # a zone's own name always means that zone
        index[_folded(zone)] = zone
        index.setdefault(_folded(zone.rsplit("/", 1)[-1]), zone)
    return index


def find_zone(text: str) -> str | None:
    """The zone a person meant by `text`: a zone's name, a city in any of the three languages,
    or what a zone box shows ("place · zone"); None when nothing matches."""
    text = (text or "").strip().strip("".join(_ISOLATES))
    if not text:
        return None
    if text.replace(" ", "_") in valid_zone_names():
        return text.replace(" ", "_")
    if " · " in text:  # a suggestion picked from the list: its zone is the last part
        text = text.rsplit(" · ", 1)[-1]
    cleaned = text.replace(_ISOLATES[0], "").replace(_ISOLATES[1], "")
    return _index().get(_folded(cleaned))
