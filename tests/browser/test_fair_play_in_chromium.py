"""Fair play at the live table in Chromium (issue 13): clocks wait for all four players, a leaver's
seat goes to a bot that plays on, a concession proposed and accepted, partners' chat (markup
shown as text), and the decisive deal's summary before the match result."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from gameplay import presence, services
from gameplay.models import Match, Seat

from .play_helpers import PASSWORD, log_in, play_until, shot, start_table_against_bots

pytestmark = pytest.mark.browser


def seated_page(browser, asgi_live, username):
    """A signed-in player's page whose own socket (/ws/me/) is open: the table-opened alert that
    takes them to the table is sent once, when the table starts, to the sockets open then."""
    page = browser.new_context(base_url=asgi_live.url, locale="en-US").new_page()
    page.set_default_timeout(15_000)
    log_in(page, username)
    expect(page.locator("html")).to_have_attribute("data-me-socket", "open")
    return page


def user(username):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)


def open_table(page, match):
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame")


def taken_to_table(page, match):
    """A seated player with a Chalk page open when the table opens is taken there by the page
    itself (the table-opened alert); going there by hand as well raced with it (ERR_ABORTED)."""
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame")


def test_no_clock_runs_before_all_four_are_connected(browser, asgi_live):
    names = ["north", "east", "south", "west"]
    # The fourth player has no Chalk page open yet: the others' pages are taken to the table
    # when it opens (the dashboard's alert), the fourth comes later.
    pages = [seated_page(browser, asgi_live, name) for name in names[:3]]
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(names[3], f"{names[3]}@example.com", PASSWORD)
    match = services.create_match("allfours", {"timeout_result": "auto_action"},
                                  [services.SeatSpec(user=user(name)) for name in names],
                                  time_control=30, checkin_seconds=120)
    for page in pages:
        taken_to_table(page, match)
    for page in pages:
        assert page.evaluate("window.chalkTable.frame.deadline") is None
        expect(page.locator(".countdown:not(:empty)")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).deadline is None
    pages.append(seated_page(browser, asgi_live, names[3]))
    open_table(pages[3], match)  # the fourth arrives: the clocks start for everyone
    for page in pages:
        page.wait_for_function("() => window.chalkTable.frame.deadline !== null")
        expect(page.locator(".turn-banner .countdown")).not_to_be_empty()
    for page in pages:
        page.context.close()


def test_a_player_away_longer_than_the_window_is_replaced_by_a_bot_that_plays_to_the_end(browser, asgi_live):
    me, friend = seated_page(browser, asgi_live, "stayer"), seated_page(browser, asgi_live, "leaver")
    match = services.create_match("allfours", {"target_score": 3},
                                  [services.SeatSpec(user=user("stayer")), services.SeatSpec(user=user("leaver")),
                                   services.SeatSpec(bot="random"), services.SeatSpec(bot="random")],
                                  reconnect_seconds=1, seed=7, first_dealer=3)  # a deal whose kick ends nothing
    taken_to_table(me, match)
    taken_to_table(friend, match)
    friend.context.close()  # the friend's only tab goes away
    expect_seat_away = lambda: Seat.objects.get(match=match, seat=1).away_since is not None  # noqa: E731
    me.wait_for_timeout(300)
    for _ in range(50):
        if expect_seat_away():
            break
        me.wait_for_timeout(100)
    assert presence.sweep_presence(now=timezone.now() + timedelta(seconds=2)) == 1
    expect(me.locator(".seat[data-seat='1'] .chip.bot")).to_be_visible()
    play_until(me, ".match-result:not([hidden]), #table-page[data-status=finished] .deal-summary:not([hidden])")
    row = Match.objects.get(pk=match.pk)
    assert row.status == "finished" and row.finish == "played" and not row.rated
    assert Seat.objects.get(match=match, seat=1).bot
    assert row.actions.filter(action__type="replace", seat=1).count() == 1
    shot(me, "table-leaver-replaced")
    me.context.close()


def partners_at_a_table(browser, asgi_live):
    """Two friends as partners (seats 0 and 2) against two bots, both at the table."""
    first, second = seated_page(browser, asgi_live, "amina"), seated_page(browser, asgi_live, "bilal")
    match = services.create_match("allfours", {}, [services.SeatSpec(user=user("amina")), services.SeatSpec(bot="random"),
                                                   services.SeatSpec(user=user("bilal")), services.SeatSpec(bot="random")])
    taken_to_table(first, match)
    taken_to_table(second, match)
    return match, first, second


def test_a_concession_proposed_and_accepted_ends_the_match_for_both(browser, asgi_live):
    match, first, second = partners_at_a_table(browser, asgi_live)
    expect(first.get_by_test_id("partner-chip")).to_be_visible()  # the partner is marked
    first.get_by_test_id("concede").click()
    first.get_by_test_id("confirm-conduct").click()
    expect(first.get_by_test_id("conduct")).to_contain_text("waiting for your partner")
    expect(second.get_by_test_id("conduct")).to_contain_text("proposes to concede")
    shot(second, "table-concede-asked")
    second.get_by_test_id("agree-concede").click()
    for page in (first, second):
        expect(page.get_by_test_id("match-result")).to_be_visible()
        expect(page.get_by_test_id("match-result")).to_contain_text("You lost the match")
        expect(page.get_by_test_id("match-result")).to_contain_text("concession")
    row = Match.objects.get(pk=match.pk)
    assert row.finish == "conceded" and row.winner == 1
    first.context.close()
    second.context.close()


def test_partners_chat_and_a_script_is_shown_as_text(browser, asgi_live):
    match, first, second = partners_at_a_table(browser, asgi_live)
    first.locator(".chat-phrase[data-phrase=good_luck]").click()
    expect(second.get_by_test_id("chat-lines")).to_contain_text("Good luck")
    first.get_by_test_id("chat-text").fill("<script>window.hacked = 1</script><b>bold</b>")
    first.get_by_test_id("chat-text").press("Enter")
    line = second.get_by_test_id("chat-lines").locator("li").last
    expect(line).to_contain_text("<script>window.hacked = 1</script><b>bold</b>")
    assert second.evaluate("window.hacked") is None
    assert second.get_by_test_id("chat-lines").locator("b, script").count() == 0
    first.get_by_test_id("chat-text").fill("x" * 201)
    first.get_by_test_id("chat-text").press("Enter")
    expect(first.get_by_test_id("chat-error")).to_contain_text("too long")
    second.get_by_test_id("chat-mute").click()
    first.locator(".chat-phrase[data-phrase=well_played]").click()
    second.wait_for_timeout(500)
    expect(second.get_by_test_id("chat-lines")).not_to_contain_text("Well played")
    second.reload()  # the chat and the "What happened" log come back after a reload
    second.wait_for_function("() => window.chalkTable && window.chalkTable.frame")
    second.get_by_test_id("chat-mute").click()
    expect(second.get_by_test_id("chat-lines")).to_contain_text("Well played")
    first.context.close()
    second.context.close()


def test_the_decisive_deal_summary_shows_before_the_match_result(page):
    log_in(page, "decider")
    # 4, not 3: a first kick (at most 3 points) can end a 3-point match before any deal is played
    start_table_against_bots(page, "allfours", "short_seven", {"target_score": 4})
    assert page.get_by_test_id("keys-help").is_visible()
    play_until(page, ".match-result:not([hidden]), #table-page[data-status=finished] .deal-summary:not([hidden])")
    summary, result = page.get_by_test_id("deal-summary"), page.get_by_test_id("match-result")
    expect(summary).to_be_visible()
    expect(result).to_be_hidden()
    shot(page, "table-decisive-deal")
    page.get_by_test_id("close-summary").click()
    expect(result).to_be_visible()
    expect(page.locator(".event-log li")).not_to_have_count(0)
    page.reload()  # the "What happened" log is rebuilt from the match's log
    expect(page.locator(".event-log li").first).to_be_visible()


def test_a_spectator_sees_no_keyboard_help(page, browser, asgi_live):
    match = services.create_match("allfours", {}, [services.SeatSpec(bot="random")] * 4)
    page.goto(f"/matches/{match.pk}/")
    expect(page.get_by_test_id("chat")).to_contain_text("Spectators")
    assert page.get_by_test_id("keys-help").count() == 0


def test_the_waiting_room_shows_every_seat_to_everyone(page, browser, asgi_live):
    log_in(page, "hostess")
    page.goto("/play/new/")
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("waiting")).to_contain_text("Waiting for players")
    invite = page.get_by_test_id("invite-link").input_value()
    friend = seated_page(browser, asgi_live, "visitor")
    friend.goto(invite)
    expect(page.get_by_test_id("waiting")).to_contain_text("visitor")
    expect(page.locator(".seat[data-seat='1'] .seat-name")).to_have_text("visitor")  # the felt too
    expect(friend.locator(".seat[data-seat='0'] .seat-name")).to_have_text("hostess")
    friend.context.close()


OVERLAP = """([a, b]) => {
  const r = document.querySelector(a).getBoundingClientRect(), s = document.querySelector(b).getBoundingClientRect();
  return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
}"""
CAPTION_CLEAR_OF_CARDS = """() => {
  const caption = document.querySelector('.trick-area.previous .trick-caption');
  if (!caption) return null;  // the next trick began before this read
  const r = caption.getBoundingClientRect();
  return [...caption.closest('.trick-area').querySelectorAll('.trick-card')].every(card => {
    const s = card.getBoundingClientRect();
    return !(r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom);
  });
}"""
INSIDE = """([inner, outer]) => {
  const node = document.querySelector(inner), r = node.getBoundingClientRect(), s = node.closest(outer).getBoundingClientRect();
  return r.left >= s.left - 0.5 && r.right <= s.right + 0.5 && r.top >= s.top - 0.5 && r.bottom <= s.bottom + 0.5;
}"""


@pytest.mark.parametrize("language", ["en-US", "ar"])
def test_on_a_phone_the_table_keeps_badges_captions_and_summaries_in_their_place(browser, asgi_live, language):
    page = browser.new_context(base_url=asgi_live.url, locale=language, viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(15_000)
    log_in(page, f"phone{language[:2]}")
    if language == "ar":
        page.locator(".language-switcher button[value=ar]").click()  # saved to the profile too
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
    start_table_against_bots(page, "baloot", "source")
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if language == "ar" else "ltr")
    assert page.evaluate(INSIDE, [".chip.dealer", ".seat"]), "the Dealer badge spills out of its seat box"
    for _attempt in range(10):  # bots play on meanwhile: read the caption and its cards in one go
        play_until(page, ".trick-area.previous .trick-caption")
        caption_clear = page.evaluate(CAPTION_CLEAR_OF_CARDS)
        if caption_clear is not None:
            break
    assert caption_clear, "'Last trick, won by…' covers the trick's cards"
    play_until(page, ".deal-summary:not([hidden])")
    assert page.evaluate("() => { const b = document.querySelector('.deal-summary'); return b.scrollHeight <= b.clientHeight + 1; }")
    assert not page.evaluate(OVERLAP, [".deal-summary", ".hand"]), "the deal summary covers the hand"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"table-phone-summary-{language[:2]}")
    page.context.close()
