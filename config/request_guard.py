"""Malformed URLs end here as 400 or 404, before any view or query sees them.

Placed after the authentication middleware so the error pages render with the usual context.

One mechanism instead of a try/except in every view: PostgreSQL refuses a NUL byte in any text
parameter (DataError, a 500 if it reaches a query) and a bigint column refuses an id past 2**63,
so a URL carrying either could never name a real row anyway.

- a control character in the path or in any name or value of the query string, or a query
  value longer than MAX_PARAMETER_LENGTH, is a 400 (the client sent what no page accepts);
- a resolved URL whose number argument does not fit a database id is a 404 (no such page),
  decided in `process_view`, where the converters have already split the path into arguments:
  an int, or the digits a regular expression captured under an id's name (`pk`, `id`, `*_id`).

Every id read from a URL or a frame is checked as text by `is_bad_id_text` before anything calls
int() on it: Python refuses to convert more than 4,300 digits (ValueError), which reached a
client as a 500.
"""

from __future__ import annotations

import re

from django.utils.deprecation import MiddlewareMixin

from config.views import bad_request, page_not_found

MAX_PARAMETER_LENGTH = 500  # the longest honest value is a username or a slug in a filter
MAX_DATABASE_INT = 2**63 - 1
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f]")


def bounded_int(text: str, low: int, high: int) -> int | None:
    """A query parameter as a number within [low, high], or None: for the views that filter on one
    (a year far past 9999 would overflow the date arithmetic of the lookup)."""
    if not text.isascii() or not text.isdigit() or len(text) > len(str(high)):
        return None
    number = int(text)
    return number if low <= number <= high else None


def is_bad_id_text(text: str) -> bool:
    """Digits that no database id can be: non-ASCII digits, or more of them than 2**63 has, or a
    number past it. Decided on the text first, so that int() only ever sees a short number."""
    if not text.isdigit():
        return False
    return not text.isascii() or len(text) > len(str(MAX_DATABASE_INT)) or int(text) > MAX_DATABASE_INT


def is_id_name(name) -> bool:
    return name in ("pk", "id") or (isinstance(name, str) and name.endswith("_id"))


def is_malformed_text(text: str) -> bool:
    return bool(CONTROL_CHARACTERS.search(text))


def is_bad_parameter(name: str, value: str) -> bool:
    return is_malformed_text(name) or is_malformed_text(value) or len(value) > MAX_PARAMETER_LENGTH


def is_bad_query(query) -> bool:
    return any(is_bad_parameter(name, value) for name, values in query.lists() for value in values)


def is_bad_argument(value, name=None) -> bool:
    """A URL argument no page accepts; `name` is its keyword in the URL pattern, if it has one."""
    if isinstance(value, int):
        return not 0 <= value <= MAX_DATABASE_INT
    if not isinstance(value, str):
        return False
    return is_malformed_text(value) or (is_id_name(name) and is_bad_id_text(value))


class RejectMalformedRequestsMiddleware(MiddlewareMixin):
    def process_request(self, request):
        if is_bad_query(request.GET) or is_malformed_text(request.path):
            return bad_request(request)
        return None

    def process_view(self, request, view_func, view_args, view_kwargs):
        if any(is_bad_argument(value) for value in view_args) or any(
                is_bad_argument(value, name) for name, value in view_kwargs.items()):
            return page_not_found(request)
        return None
