"""The JSON API answers every error in JSON, and its OpenAPI schema says so (issue 33, bad input
7): the request guard's 400 and 404, an unknown path, a wrong method and the API's own errors."""

import pytest

pytestmark = pytest.mark.django_db

API = "/competitions/api"


def assert_json_error(response, status: int):
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    assert "detail" in response.json()


@pytest.mark.parametrize("url, status", [
    (f"{API}/competitions?club=%00", 400),  # the request guard: a NUL byte
    (f"{API}/competitions?club=" + "x" * 600, 400),  # the request guard: an over-long value
    (f"{API}/competitions/{'9' * 5000}", 404),  # a malformed id in the path
    (f"{API}/competitions/abc", 404),
    (f"{API}/competitions/1/matches?round=abc", 400),  # ninja's validation
    (f"{API}/competitions/999999", 404),  # no such competition
    (f"{API}/no-such-thing", 404),  # the URL resolver
    (f"{API}/no-such-thing%00", 400),
])
def test_an_api_error_is_json(client, url, status):
    assert_json_error(client.get(url), status)


def test_a_wrong_method_on_the_api_is_json_and_says_which_are_allowed(client):
    response = client.post(f"{API}/competitions")

    assert_json_error(response, 405)
    assert response["Allow"] == "GET"


def test_pages_outside_the_api_keep_their_html_error_pages(client):
    response = client.get("/competitions/archive/?club=%00")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


def test_the_openapi_schema_documents_the_error_responses_of_every_operation(client):
    schema = client.get(f"{API}/openapi.json").json()

    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status in ("400", "404"):
                answer = operation["responses"][status]["content"]["application/json"]["schema"]
                assert answer == {"$ref": "#/components/schemas/ErrorOut"}, (path, method, status)
    assert schema["components"]["schemas"]["ErrorOut"]["required"] == ["detail"]
