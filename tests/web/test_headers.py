"""Every page is served with a Content-Security-Policy that allows only Chalk's own scripts,
styles and sockets, and a Permissions-Policy; and no page's HTML holds a script the policy would
block: no inline <script>, no on* handler attribute, no style attribute or element (issue 16, item 6)."""

from html.parser import HTMLParser

import pytest
from django.test import override_settings

from tests.gameplay.helpers import make_user
from tests.web.urlwalk import real_ids, routes

pytestmark = pytest.mark.django_db
DATA_SCRIPT_TYPES = {"application/json", "application/ld+json"}  # data, never run by the browser


class InlineCode(HTMLParser):
    """Collects what a strict policy would refuse to run or apply."""

    def __init__(self):
        super().__init__()
        self.found, self.in_script = [], False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.found += [f"<{tag} {name}=>" for name in attributes if name.startswith("on") or name == "style"]
        if tag == "style":
            self.found.append("<style>")
        self.in_script = tag == "script" and "src" not in attributes and attributes.get("type") not in DATA_SCRIPT_TYPES

    def handle_endtag(self, tag):
        self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:60]}")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def pages(client, sample):
    """(url, response) of every page of the site with real ids that answers 200."""
    for route in routes():
        url = real_ids(route, sample)
        response = client.get(url)
        if response.status_code == 200:
            yield url, response


def check_every_page(client, sample):
    problems, html_pages = [], 0
    for url, response in pages(client, sample):
        policy = response.headers.get("Content-Security-Policy", "")
        if "script-src 'self'" not in policy or "unsafe-inline" in policy or "Permissions-Policy" not in response.headers:
            problems.append((url, "headers", policy))
        if response["Content-Type"].startswith("text/html"):
            html_pages += 1
            problems += [(url, found) for found in inline_code(response.content.decode())]
    return problems, html_pages


def test_no_page_has_inline_script_or_style_and_every_page_sends_the_policies_to_a_visitor(client, sample):
    problems, html_pages = check_every_page(client, sample)

    assert problems == []
    assert html_pages >= 15


def test_no_page_has_inline_script_or_style_and_every_page_sends_the_policies_to_a_player(client, sample):
    client.force_login(make_user("reader"))

    problems, html_pages = check_every_page(client, sample)

    assert problems == []
    assert html_pages >= 20


def test_the_policy_allows_only_our_own_scripts_styles_and_sockets(client):
    policy = dict(part.strip().split(" ", 1) for part in client.get("/healthz").headers["Content-Security-Policy"].split(";"))

    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self' ws://testserver"
    assert policy["default-src"] == "'self'" and policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))  # TRUSTED_PROXY_COUNT > 0
def test_the_socket_source_is_wss_behind_the_tls_proxy(client):
    policy = client.get("/healthz", HTTP_X_FORWARDED_PROTO="https").headers["Content-Security-Policy"]

    assert "connect-src 'self' wss://testserver" in policy


def test_with_no_proxy_configured_a_clients_forwarded_scheme_is_not_believed(client):
    policy = client.get("/healthz", HTTP_X_FORWARDED_PROTO="https").headers["Content-Security-Policy"]

    assert "connect-src 'self' ws://testserver" in policy


def test_the_permissions_policy_denies_devices_and_allows_only_writing_the_clipboard(client):
    policy = client.get("/").headers["Permissions-Policy"]

    for feature in ["camera", "microphone", "geolocation", "payment", "usb"]:
        assert f"{feature}=()" in policy
    assert "clipboard-write=(self)" in policy


def test_htmx_is_told_not_to_inject_its_indicator_style_nor_to_evaluate_code(client):
    html = client.get("/").content.decode()

    assert '"includeIndicatorStyles": false' in html and '"allowEval": false' in html
