"""The JSON API answers its errors in JSON, whoever gives them.

django-ninja answers its own errors in JSON, but a request to the API can end before or beside
it: the request guard's 400 and 404 (config/request_guard.py), the URL resolver's 404 for a path
the API does not have, ninja's own 405 ("Method not allowed" as text), a 500. Each of those was
an HTML page (or text) to a client that reads JSON. Here every error response under an API's
root that is not JSON already becomes `{"detail": "<the status's reason>"}`, with the same
status and Allow header; tournaments/api.py documents the shape (ErrorOut) in its OpenAPI schema.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.urls import NoReverseMatch, reverse

API_ROOTS = ("tournaments:competitions-api:api-root",)  # the URL name of each JSON API's root
KEPT_HEADERS = ("Allow",)


def api_prefixes(urlconf=None) -> list[str]:
    prefixes = []
    for name in API_ROOTS:
        try:
            prefixes.append(reverse(name, urlconf=urlconf))
        except NoReverseMatch:  # a test's own URLconf without the API
            pass
    return prefixes


def is_api_request(request) -> bool:
    return request.path.startswith(tuple(api_prefixes(getattr(request, "urlconf", None))))


def is_json(response) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


def as_json(response) -> JsonResponse:
    answer = JsonResponse({"detail": response.reason_phrase}, status=response.status_code)
    for name in KEPT_HEADERS:
        if name in response:
            answer[name] = response[name]
    return answer


class JsonApiErrorsMiddleware:
    """Placed outside the request guard, so that its refusals pass through here."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code >= 400 and not is_json(response) and is_api_request(request):
            return as_json(response)
        return response
