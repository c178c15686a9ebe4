"""One kind of digit on every Arabic page (issue 32): Western (0-9) by default, as the Gulf's
card apps write them, or Eastern Arabic (٠-٩) when the player's profile says so.

The simplest approach that reaches every number a person reads, whichever template, filter,
catalogue entry or script wrote it: the response of an Arabic page is rewritten once on its way
out (`DigitsMiddleware`), and static/js/page.js does the same to text the page's scripts write
later (the table, the replay, the countdowns), reading the choice from `<meta name="chalk-digits">`.

What is rewritten: the text between tags, digit by digit (both directions: Eastern and Persian
digits become Western on a Western page, Western become Eastern on an Eastern one). What is not,
on purpose: tag attributes (links, ids, form values, `datetime`, data for the scripts), the inside
of <script>, <style> and <textarea>, and character references (`&#39;`). So a card code or a
match id inside a URL or a `data-` attribute stays as the engine writes it; the same number shown
as text ("#12", "10♦") follows the page's digits. Other languages' pages are left alone.

The choice travels in the session (`SESSION_KEY`, written by clubs: at sign-in and when the
profile is saved), so no page reads the profile for it.
"""

from __future__ import annotations

import re

from django.utils import translation

SESSION_KEY = "chalk_digits"
WESTERN, EASTERN = "western", "eastern"

_TO_EASTERN = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
_TO_WESTERN = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")

# Tags, comments and the elements whose content is not text a person reads: kept whole.
_KEPT = re.compile(r"(<script\b.*?</script\s*>|<style\b.*?</style\s*>|<textarea\b.*?</textarea\s*>"
                   r"|<!--.*?-->|<[^>]*>)", re.IGNORECASE | re.DOTALL)
# A character reference (&#39;, &#x27;, &amp;) is kept as it is; any other character may change.
_IN_TEXT = re.compile(r"&#?\w+;|[^&]+|&")


def digits_text(text: str, kind: str) -> str:
    """Plain text with every digit of the other kind rewritten to `kind`."""
    return text.translate(_TO_EASTERN if kind == EASTERN else _TO_WESTERN)


def digits_html(html: str, kind: str) -> str:
    """An HTML page with the digits of its text (not of its tags, scripts or references) in `kind`."""
    parts = _KEPT.split(html)
    for index in range(0, len(parts), 2):  # even parts are text, odd ones the kept tags
        parts[index] = _IN_TEXT.sub(lambda m: m[0] if m[0].startswith("&") else digits_text(m[0], kind),
                                    parts[index])
    return "".join(parts)


def marked(html: str, kind: str) -> str:
    """The page names its digits in its head, for static/js/page.js."""
    return html.replace("</head>", f'<meta name="chalk-digits" content="{kind}"></head>', 1)


class DigitsMiddleware:
    """Arabic HTML pages in the reader's kind of digit (Western unless the session says Eastern)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (translation.get_language() or "")[:2] != "ar" or getattr(response, "streaming", False):
            return response
        if not response.get("Content-Type", "").startswith("text/html") or response.status_code in (204, 304):
            return response
        session = getattr(request, "session", None)
        kind = EASTERN if session is not None and session.get(SESSION_KEY) == EASTERN else WESTERN
        charset = response.charset or "utf-8"
        html = response.content.decode(charset)
        response.content = marked(digits_html(html, kind), kind).encode(charset)
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response
