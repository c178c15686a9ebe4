"""The base UI: home page, navigation, htmx from static/, CSRF in hx-headers, error pages."""

import pytest
from django.test import override_settings
from django.urls import include, path


@pytest.mark.django_db
def test_home_page_says_what_chalk_is(client):
    html = client.get("/").content.decode()

    assert "Chalk" in html
    for game in ("All Fours", "Baloot", "La Cuatrola"):
        assert game in html
    assert 'href="/accounts/signup/"' in html


@pytest.mark.django_db
def test_pages_load_htmx_from_our_static_files_and_send_csrf_in_hx_headers(client):
    html = client.get("/").content.decode()

    assert 'src="/static/js/htmx.min.js"' in html
    assert "hx-headers='{\"X-CSRFToken\": \"" in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()


def test_vendored_htmx_is_version_2():
    from pathlib import Path

    header = (Path(__file__).resolve().parents[2] / "static/js/htmx.min.js").read_text()[:200]
    assert "htmx 2." in header


@pytest.mark.django_db
def test_unknown_page_shows_the_friendly_404(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert "We couldn’t find that page." in response.content.decode()


def raise_permission_denied(request):
    from django.core.exceptions import PermissionDenied

    raise PermissionDenied


def raise_error(request):
    raise RuntimeError("boom")


urlpatterns = [path("denied/", raise_permission_denied), path("broken/", raise_error), path("", include("config.urls"))]
handler403 = "config.views.permission_denied"
handler500 = "config.views.server_error"


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_forbidden_page_is_friendly(client):
    response = client.get("/denied/")

    assert response.status_code == 403
    assert "This page isn’t open to you." in response.content.decode()


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__)
def test_server_error_page_is_friendly_and_self_contained(client):
    client.raise_request_exception = False

    response = client.get("/broken/")

    assert response.status_code == 500
    assert "Something went wrong on our side." in response.content.decode()


@pytest.mark.django_db
def test_clubs_list_and_detail_show_the_demo_club(client):
    from django.core.management import call_command

    call_command("seed_demo", verbosity=0)

    assert "Demo Card Club" in client.get("/clubs/").content.decode()
    detail = client.get("/clubs/demo-club/").content.decode()
    assert "Amina" in detail and "Owner" in detail
