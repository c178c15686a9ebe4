"""The navigation on a 360-px phone (issue 32): Notifications (with its unread count), Profile, Log
out and How to play are on the screen after one tap on Menu, on every page and in every language,
never scrolled out of sight sideways."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from gameplay import services
from tournaments.services.notify import notify

from .play_helpers import log_in, shot

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LINKS = ["nav-notifications", "nav-profile", "logout", "nav-help"]

# The page's own width and how far it scrolls sideways; each element's left and right edges.
WIDTHS = """testids => ({
  width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth,
  boxes: Object.fromEntries(testids.map(id => {
    const box = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
    return [id, [box.left, box.right, box.width]];
  })),
})"""


@pytest.mark.timeout(300)
def test_notifications_profile_log_out_and_help_are_on_a_360_px_screen_after_one_tap(browser, asgi_live):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, "nadia")
    nadia = get_user_model().objects.get(username="nadia")
    notify(nadia, "x", "round_open", {"competition": "Cup", "number": 2}, email=False)
    table = services.create_match("allfours", {}, [services.SeatSpec(user=nadia)] + [services.SeatSpec(bot="random")] * 3)
    failures = []
    for language in ["ar", "es", "en"]:
        context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
        for path in ["/", "/play/", "/help/", f"/matches/{table.pk}/"]:
            page.goto(path)
            toggle = page.get_by_test_id("nav-toggle")
            expect(toggle.locator("[data-count]")).to_have_text("1")  # the unread count, folded or not
            toggle.click()
            expect(toggle).to_have_attribute("aria-expanded", "true")
            found = page.evaluate(WIDTHS, LINKS)
            if found["scroll"] > found["width"]:
                failures.append(f"{language} {path}: the page scrolls sideways ({found['scroll']} px)")
            for testid, (left, right, width) in found["boxes"].items():
                if not width or left < 0 or right > found["width"]:
                    failures.append(f"{language} {path}: {testid} is not on the screen ({left:.0f}..{right:.0f})")
            expect(page.get_by_test_id("nav-notifications").locator("[data-count]")).to_be_visible()
            if failures:
                shot(page, f"nav-{language}-{path.strip('/').replace('/', '-') or 'home'}")
    assert not failures, "\n".join(failures)
    page.get_by_test_id("nav-notifications").click()
    expect(page).to_have_url(f"{asgi_live.url}/competitions/notifications/")
    context.close()
