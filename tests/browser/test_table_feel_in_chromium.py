"""The table as a player likes it, on a 360-px phone (issue 32): their turn noticed (an opt-in
sound and vibration, the tab's title), a played card sliding from the hand to the trick (none
when the system asks for reduced motion), the hand sorted their way, the four-colour deck and the
card size, changed from the table's menu."""

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Player
from gameplay import services
from gameplay.rules import get_game

from .play_helpers import log_in, shot

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}

# navigator.vibrate and the Web Audio beep, recorded (a headless Chromium has no buzzer).
RECORDER = """
window.__vibrations = [];
navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };
window.__beeps = 0;
const Real = window.AudioContext;
window.AudioContext = class extends Real { createOscillator() { window.__beeps += 1; return super.createOscillator(); } };
"""


def phone(browser, asgi_live, language="ar", **options):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US", **options)
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
    context.add_init_script(RECORDER)
    return context, context.new_page()


def table_for(username, **settings):
    """Seat 0 for the player against three random bots; dealer 3, so the player decides first."""
    player = get_user_model().objects.get(username=username)
    Player.objects.filter(user=player).update(**settings)
    seats = [services.SeatSpec(user=player)] + [services.SeatSpec(bot="random")] * 3
    return services.create_match("allfours", {}, seats, created_by=player, seed=12, first_dealer=3)


def open_table(page, match):
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.legal.length")


def hand_codes(page):
    return page.eval_on_selector_all(".hand .hand-card", "cards => cards.map(c => c.dataset.card)")


def by_rank(codes):
    order = get_game("allfours").deck.codes
    return sorted(codes, key=lambda code: (-(order.index(code) % 13), order.index(code) // 13))


def by_suit(codes):
    order = get_game("allfours").deck.codes
    return sorted(codes, key=lambda code: (order.index(code) // 13, -order.index(code)))


# The animation of each card of the reader's drawn on the trick, noted the moment it is drawn
# (the bots play on at once and the trick is soon cleared).
WATCH_TRICK = """() => {
  window.__slides = [];
  new MutationObserver(() => {
    for (const card of document.querySelectorAll('.trick-card.from-bottom:not([data-seen])')) {
      card.dataset.seen = '1';
      window.__slides.push(getComputedStyle(card).animationName);
    }
  }).observe(document.querySelector('.trick-area'), {childList: true});
}"""


def play_first_card(page):
    """Decide until a card of the reader's is on the trick; the code of that card."""
    page.evaluate(WATCH_TRICK)
    for _ in range(20):
        page.wait_for_function("() => !window.chalkTable.pending && window.chalkTable.frame.legal.length")
        card = page.locator(".hand-card.legal:not(:disabled)")
        if card.count():
            code = card.first.get_attribute("data-card")
            card.first.click()
            return code
        page.locator(".act-button:not(:disabled)").first.click()
    raise AssertionError("no card to play came")


def test_a_players_table_settings_and_their_turn_noticed_on_a_phone(browser, asgi_live):
    context, page = phone(browser, asgi_live, "ar")
    log_in(page, "hessa")
    match = table_for("hessa", hand_order="rank", four_colour_deck=True, card_size="large", turn_alert=True)
    open_table(page, match)
    # the turn is noticed: a beep, a buzz and the tab's title
    page.wait_for_function("() => window.__vibrations.length > 0")
    assert page.evaluate("window.__beeps") >= 1
    assert page.title().startswith("▶")
    # the hand by rank, diamonds and clubs from the four-colour deck, large cards
    codes = hand_codes(page)
    assert codes == by_rank(codes) and codes != by_suit(codes)
    sources = page.eval_on_selector_all(".hand .hand-card img", "imgs => imgs.map(i => [i.dataset.card, i.src])")
    red_black = [src for code, src in sources if code[-1] in "DC"]
    assert red_black and all("/cards/french4/" in src for src in red_black)
    assert all("/cards/french/" in src for code, src in sources if code[-1] in "SH")
    assert page.locator(".table-page.cards-large").count() == 1
    assert page.eval_on_selector(".hand-card", "c => getComputedStyle(c).flexBasis") == "118.4px"
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    # a played card slides from the hand to the trick
    code = play_first_card(page)
    assert code not in hand_codes(page) or page.wait_for_function(f"() => !window.chalkTable.frame.view.hand.includes('{code}')")
    page.wait_for_function("() => window.__slides.length > 0")
    assert page.evaluate("window.__slides[0]") == "card-in"
    shot(page, "table-feel-360-ar")

    # the table's menu: back to "by suit", saved, and the table shows it at once
    page.locator("[data-testid=table-menu] > summary").click()
    page.select_option("#id_hand_order", "suit")
    page.get_by_test_id("save-table-settings").click()
    page.wait_for_url(f"**/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame")
    codes = hand_codes(page)
    assert codes == by_suit(codes)
    assert Player.objects.get(user__username="hessa").hand_order == "suit"
    context.close()


def test_no_sound_by_default_the_hand_as_dealt_and_no_slide_for_reduced_motion(browser, asgi_live):
    context, page = phone(browser, asgi_live, "es", reduced_motion="reduce")
    log_in(page, "quiet")
    match = table_for("quiet", hand_order="dealt")
    open_table(page, match)
    assert page.title().startswith("▶")  # the title says it whatever the settings
    # as dealt: the cards in the order they came (one batch here: as the deal gave them)
    order = get_game("allfours").deck.codes
    codes = hand_codes(page)
    assert codes == sorted(codes, key=order.index) and codes != by_suit(codes)
    play_first_card(page)
    page.wait_for_function("() => window.__slides.length > 0")
    assert page.evaluate("window.__slides[0]") == "none"
    assert page.evaluate("window.__vibrations.length") == 0 and page.evaluate("window.__beeps") == 0
    context.close()
