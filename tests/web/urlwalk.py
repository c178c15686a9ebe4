"""Every route of the site, filled with real ids or with junk, for the tests that walk them all."""

import re

from django.urls import URLPattern, URLResolver, get_resolver

CONVERTER = re.compile(r"<(?:(?P<kind>\w+):)?(?P<name>\w+)>")


def routes(patterns=None, prefix=""):
    """Every route of the site as a template string ('competitions/<int:pk>/'), admin left out."""
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = str(entry.pattern).lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            if not route.startswith("admin/"):
                yield from routes(entry.url_patterns, prefix + route)
        elif isinstance(entry, URLPattern):
            yield prefix + route


def fill(route, ids, text):
    """The route with each converter replaced: ids for numbers, text for the rest."""
    route = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: ids if m.group(1).endswith("id") else text, route)
    return "/" + CONVERTER.sub(lambda m: ids if m.group("kind") == "int" else text, route)


def real_ids(route, sample):
    """The route filled with ids and names of rows that exist, so the view gets past its lookup
    (the finished match for its replay and export, the playing one for the rest)."""
    table = sample["finished"] if ("replay" in route or "export" in route) else sample["match"]
    values = {"pk": sample["competition"], "competition_id": sample["competition"], "match_id": table,
              "slug": sample["club"], "club_slug": sample["club"], "club": sample["club"], "game": "allfours",
              "username": sample["user"], "number": "1"}
    return "/" + CONVERTER.sub(lambda m: str(values.get(m.group("name"), "1")), route)
