"""Presence at the table in Chromium (issue 32): four players, one drops and comes back. The
others see the seat reconnecting with a countdown, then the bot, then the player back; an
Arabic and a Spanish reader on 360 px phones see the same, inside the seat box."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from gameplay import presence, services
from gameplay.models import Match, Seat

from .play_helpers import PASSWORD, log_in, shot

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
WORDS = {  # what a reader sees for seat 1, by language: reconnecting (with seconds), the bot
    "en": ("Reconnecting…", "Bot plays"),
    "ar": ("يعيد الاتصال…", "يلعب بوت"),
    "es": ("Reconectando…", "Juega un bot"),
}


def reader(browser, asgi_live, username, language, phone):
    options = {"viewport": PHONE} if phone else {}
    context = browser.new_context(base_url=asgi_live.url, locale="en-US", **options)
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
    page = context.new_page()
    log_in(page, username)
    return page


def at_table(page, match):
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame")


def seconds_shown(page) -> int:
    return int(re.search(r"\d+", page.get_by_test_id("presence-1").inner_text()).group())


def inside_its_seat(page) -> bool:
    return page.evaluate("""() => {
        const node = document.querySelector('[data-testid="presence-1"]');
        if (node.scrollWidth > node.clientWidth + 1) return false;  // the seconds cut off
        const chip = node.getBoundingClientRect();
        const seat = document.querySelector('.seat[data-seat="1"]').getBoundingClientRect();
        return chip.left >= seat.left - 1 && chip.right <= seat.right + 1
            && chip.right <= document.documentElement.clientWidth
            && document.documentElement.scrollWidth <= document.documentElement.clientWidth;
    }""")


def test_the_others_see_a_drop_its_countdown_the_bot_and_the_return(browser, asgi_live):
    names = ["nadia", "omar", "rania", "sergio"]
    for name in names:
        get_user_model().objects.create_user(name, f"{name}@example.com", PASSWORD)
    users = [get_user_model().objects.get(username=name) for name in names]
    match = services.create_match("allfours", {}, [services.SeatSpec(user=u) for u in users],
                                  reconnect_seconds=60, seed=7, first_dealer=3)
    languages = {0: "en", 2: "ar", 3: "es"}
    others = {seat: reader(browser, asgi_live, names[seat], language, phone=seat != 0)
              for seat, language in languages.items()}
    leaver = reader(browser, asgi_live, names[1], "en", phone=False)
    for page in [*others.values(), leaver]:
        at_table(page, match)

    leaver.close()  # the only tab of seat 1 goes away: the others see the countdown start
    for seat, page in others.items():
        chip = page.get_by_test_id("presence-1")
        expect(chip).to_contain_text(WORDS[languages[seat]][0])
        expect(chip).to_contain_text(re.compile(r"\d+"))
        assert 50 <= seconds_shown(page) <= 60
    first = seconds_shown(others[0])
    others[0].wait_for_timeout(2200)
    assert seconds_shown(others[0]) <= first - 1  # it ticks on the client, from `back_by`
    for seat in (2, 3):
        assert inside_its_seat(others[seat]), languages[seat]
    shot(others[2], "presence-reconnecting-360-ar")

    assert presence.sweep_presence(now=timezone.now() + timedelta(seconds=61)) == 1  # the window closes
    for seat, page in others.items():
        expect(page.get_by_test_id("presence-1")).to_have_text(WORDS[languages[seat]][1])
    shot(others[3], "presence-replaced-360-es")

    back = leaver.context.new_page()  # the player opens the table again: the bot hands the seat over
    at_table(back, match)
    back.wait_for_function("() => !(window.chalkTable.frame.view.match.replaced || []).includes(1)")
    expect(back.get_by_test_id("take-seat-back")).to_have_count(0)
    expect(back.get_by_test_id("leave")).to_be_visible()
    for page in others.values():
        expect(page.locator('[data-testid="presence-1"].presence-dot')).to_be_attached()
        expect(page.locator(".seat[data-seat='1'] .chip.bot")).to_have_count(0)
    expect(others[0].locator(".event-log")).to_contain_text(re.compile(r"omar\W{0,2} is back and plays again"))
    seat = Seat.objects.get(match=match, seat=1)
    row = Match.objects.get(pk=match.pk)
    assert seat.bot == "" and row.status == "playing" and not row.rated
    assert row.actions.filter(action__type="return", seat=1, actor=users[1]).count() == 1
    shot(others[0], "presence-returned")
    for page in [*others.values(), back]:
        page.context.close()


def test_a_player_who_left_takes_the_seat_back_with_the_button(page):
    log_in(page, "yusuf")
    player = get_user_model().objects.get(username="yusuf")
    partner = get_user_model().objects.create_user("zaid", "zaid@example.com", PASSWORD)  # never comes: the
    # table waits at their turn, so the bots do not play the match out under the button
    match = services.create_match("allfours", {}, [services.SeatSpec(user=player), services.SeatSpec(bot="random"),
                                                   services.SeatSpec(user=partner), services.SeatSpec(bot="random")],
                                  seed=7, first_dealer=3)
    at_table(page, match)
    page.get_by_test_id("leave").click()
    page.get_by_test_id("confirm-conduct").click()
    expect(page.get_by_test_id("presence-0")).to_have_text("Bot plays")
    expect(page.get_by_test_id("conduct")).to_contain_text("A bot plays your seat since you left.")
    page.get_by_test_id("take-seat-back").click()
    expect(page.locator('[data-testid="presence-0"].presence-dot')).to_be_attached()
    expect(page.get_by_test_id("leave")).to_be_visible()
    assert Seat.objects.get(match=match, seat=0).bot == ""
    assert Match.objects.get(pk=match.pk).actions.filter(action__type="return", seat=0, actor=player).count() == 1
