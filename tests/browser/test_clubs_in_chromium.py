"""A club in a real Chromium: the owner creates it and an invitation link, a second player joins
by the link, the owner makes them an organiser (htmx, no page reload), and the page works in Arabic."""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import AuditEntry, Club, Membership
from tests.browser.play_helpers import log_in

pytestmark = pytest.mark.browser


def create_club(page, name, slug):
    page.goto("/clubs/")
    page.get_by_test_id("create-club").click()
    page.fill("#id_name", name)
    page.fill("#id_slug", slug)
    page.fill("#id_description", "Baloot on Thursdays.")
    page.check("input[name=home_games][value=baloot]")
    page.fill("#id_time_zone", "Asia/Riyadh")  # a text box with suggested zones
    page.select_option("#id_default_language", "ar")
    page.get_by_test_id("club-form").locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(rf"/clubs/{slug}/$"))


def test_owner_invites_a_player_who_joins_and_becomes_an_organiser(page, browser, asgi_live):
    log_in(page, "nadia")
    create_club(page, "Riyadh Baloot Club", "riyadh-baloot")
    expect(page.get_by_test_id("my-role")).to_have_text("Owner")

    page.get_by_test_id("invite-link").click()
    page.fill("#id_max_uses", "5")
    page.get_by_test_id("invitation-form").locator("button[type=submit]").click()
    link = page.get_by_test_id("invitation-url").first.input_value()
    assert "/clubs/join/" in link

    guest_context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    guest = guest_context.new_page()
    log_in(guest, "yusuf")
    guest.goto(link)
    guest.get_by_test_id("accept-invitation").click()
    expect(guest).to_have_url(re.compile(r"/clubs/riyadh-baloot/$"))
    expect(guest.get_by_test_id("my-role")).to_have_text("Member")
    expect(guest.get_by_test_id("play-now")).to_be_visible()

    page.goto("/clubs/riyadh-baloot/")
    page.get_by_test_id("manage-members").click()
    page.evaluate("window.notReloaded = true")
    row = page.get_by_test_id("member-yusuf")
    row.locator("select[name=role]").select_option("organiser")
    row.get_by_role("button", name="Change role").click()

    expect(page.get_by_test_id("member-yusuf").get_by_test_id("role")).to_have_text("Organiser")
    assert page.evaluate("window.notReloaded") is True, "the role changed without a full page load"
    club = Club.objects.get(slug="riyadh-baloot")
    assert Membership.objects.get(club=club, user__username="yusuf").role == Membership.Role.ORGANISER
    assert AuditEntry.objects.filter(club=club, action=AuditEntry.Action.ROLE_CHANGED).count() == 1

    guest.reload()
    expect(guest.get_by_test_id("organiser-tools")).to_be_visible()
    guest_context.close()


def test_the_club_page_mirrors_in_arabic(page):
    log_in(page, "layla")
    create_club(page, "Jeddah Card Club", "jeddah")
    page.locator(".language-switcher button[value=ar]").click()

    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.get_by_test_id("organiser-tools")).to_contain_text("أدوات المنظمين")
