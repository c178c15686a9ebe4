"""Time, once and for all (issue 31), in a real Chromium, in Spanish and on a phone: a new account
takes the browser's zone at sign-up and follows it while travelling, until the player picks a
zone by typing a city in their own language; a new club takes its creator's zone."""

import re
import time

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Player

pytestmark = pytest.mark.browser
PASSWORD = "a-long-card-table-password"


def in_zone(browser, asgi_live, zone):
    context = browser.new_context(base_url=asgi_live.url, locale="es-ES", timezone_id=zone,
                                  viewport={"width": 390, "height": 844})
    return context, context.new_page()


def log_in(page, username):
    page.goto("/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_test_id("logout")).to_be_attached()


def said(context):
    """Wait until page.js has told the server the browser's zone (it sets its cookie then)."""
    for _ in range(100):
        if any(cookie["name"] == "chalk_zone" for cookie in context.cookies()):
            return
        time.sleep(0.1)
    raise AssertionError("the browser never reported its zone")


def zone_of(username):
    player = Player.objects.get(user__username=username)
    return player.time_zone, player.zone_follows_browser


def test_the_zone_follows_the_browser_from_sign_up_until_the_player_picks_a_city(browser, asgi_live):
    context, page = in_zone(browser, asgi_live, "America/Port_of_Spain")
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", "rosa")
    page.fill("input[name=email]", "rosa@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))
    assert zone_of("rosa") == ("America/Port_of_Spain", True)
    # The profile's box shows the place in Spanish, the zone named.
    expect(page.locator("#id_time_zone")).to_have_value(re.compile(r"^Puerto España \(Trinidad y Tobago\)"))

    # A new club starts in its creator's zone, and takes a city typed in Spanish.
    page.goto("/clubs/")
    page.get_by_test_id("create-club").click()
    expect(page.locator("#id_time_zone")).to_have_value(re.compile(r"^Puerto España"))
    page.fill("#id_name", "Los Ases de Madrid")
    page.fill("#id_slug", "ases-madrid")
    page.locator("input[name=home_games]").first.check()
    page.fill("#id_time_zone", "Madrid")
    page.get_by_test_id("club-form").locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/clubs/ases-madrid/$"))
    assert Club.objects.get(slug="ases-madrid").time_zone == "Europe/Madrid"
    context.close()

    # Travelling: a browser in Riyadh moves the zone while the player has not picked one.
    context, page = in_zone(browser, asgi_live, "Asia/Riyadh")
    log_in(page, "rosa")
    said(context)
    assert zone_of("rosa") == ("Asia/Riyadh", True)

    # Picking a zone by its Spanish city name ends the following.
    page.goto("/accounts/profile/")
    page.fill("#id_time_zone", "Puerto España")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("#id_time_zone")).to_have_value(re.compile(r"America/Port of Spain"))
    assert zone_of("rosa") == ("America/Port_of_Spain", False)
    context.close()

    context, page = in_zone(browser, asgi_live, "Asia/Dubai")
    log_in(page, "rosa")
    page.goto("/")
    said(context)
    assert zone_of("rosa") == ("America/Port_of_Spain", False)
    context.close()
