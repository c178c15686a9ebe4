"""Public pages as a visitor sees them, kept a few seconds (PUBLIC_PAGE_CACHE_SECONDS).

The lobby, the archive, a replay, the competitions' pages and the leaderboards are the same
for every visitor who is not signed in, in one language; under a crowd (benchmarks/pages.py)
rendering each of them again cost 15-60 ms of a core per request. `cached_for_visitors` keeps
the rendered body in the cache (Redis) per language and full path, and serves it to the next
visitors for a few seconds. What a page holds of its visitor is put back per request:

- the CSRF token (the language form and htmx's header carry it): the cached body holds a
  marker in its place, and every visitor gets a token of their own (and its cookie);
- pending messages ("You have signed out"): a visitor with messages gets a page of their own,
  never cached.

Signed-in players, htmx partials, and anything but a 200 HTML GET always get a fresh page
here (a player's home keeps its own page the same way: home/views.py).
"""

from __future__ import annotations

import functools
import re

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language

from config import soft_cache

MARKER = "\x00csrf\x00"  # never in a rendered page: request_guard refuses NUL bytes
# Where base.html puts the token: its forms' hidden field and htmx's request header.
_TOKEN = re.compile(r'(?:name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")([A-Za-z0-9]+)"')


def _cacheable_request(request) -> bool:
    return (request.method == "GET" and not request.user.is_authenticated
            and not request.headers.get("HX-Request") and not len(messages.get_messages(request)))


def cached_for_visitors(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        seconds = settings.PUBLIC_PAGE_CACHE_SECONDS
        if seconds <= 0 or not _cacheable_request(request):
            return view(request, *args, **kwargs)
        key = f"visitor-page:{get_language()}:{request.get_full_path()}"[:250]
        body = soft_cache.get(key)  # when Redis cannot be reached, every visitor gets the page rendered
        if body is None:
            response = view(request, *args, **kwargs)
            kept = body_to_keep(response)
            if kept is not None:
                soft_cache.set(key, kept, seconds)
            return response
        return served(body, request)

    return wrapper


def body_to_keep(response) -> str | None:
    """A rendered page as it may be kept and served again: its CSRF token replaced by the marker.
    None for what must not be kept: anything but a 200 HTML page, or a page holding a token in a
    form this module does not know."""
    if (response.status_code != 200 or response.streaming
            or not response.get("Content-Type", "").startswith("text/html")):
        return None
    text = response.content.decode()
    found = _TOKEN.search(text)
    if found is None and "csrf" in text.lower():
        return None
    return text.replace(found.group(1), MARKER) if found else text


def served(body: str, request) -> HttpResponse:
    """A kept page for this request, with a CSRF token of its own."""
    return HttpResponse(body.replace(MARKER, get_token(request)), content_type="text/html; charset=utf-8")
