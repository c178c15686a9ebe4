"""A person in a real Chromium: sign up, log out, log in, log out; Arabic is right-to-left."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
PASSWORD = "a-long-card-table-password"


def nav(page):
    return page.get_by_role("navigation", name="Main")


def log_out(page):
    page.get_by_test_id("logout").click()
    expect(nav(page).get_by_role("link", name="Log in")).to_be_visible()


def test_sign_up_then_log_out_then_log_in_then_log_out(page):
    page.goto("/")
    nav(page).get_by_role("link", name="Sign up").click()
    page.fill("input[name=username]", "layla")
    page.fill("input[name=email]", "layla@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").click()

    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))
    expect(page.locator("main")).to_contain_text("layla")
    log_out(page)

    nav(page).get_by_role("link", name="Log in").click()
    page.fill("input[name=login]", "layla")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()

    expect(page.get_by_test_id("logout")).to_be_visible()
    log_out(page)
    page.goto("/accounts/profile/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))


def test_switching_to_arabic_mirrors_the_page(page):
    page.set_viewport_size({"width": 1200, "height": 800})
    page.goto("/")
    page.locator(".language-switcher button[value=ar]").click()

    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    brand = page.locator(".brand").bounding_box()
    assert brand["x"] > 600, "in RTL the brand sits at the right-hand (start) edge"


def test_htmx_is_served_from_our_static_files(page):
    page.goto("/")

    assert page.evaluate("typeof window.htmx") == "object"
    assert page.evaluate("document.body.getAttribute('hx-headers')").startswith('{"X-CSRFToken": "')
