"""The live table on a 360-px phone, in Arabic and Spanish (issue 32): Saudi Baloot's step line has
a row of its own on the felt (it covers no seat box and stays inside the felt), and every card and
name inside Arabic text keeps its own order (Unicode isolates): a log line's card reads "A♣", never
"♣A", and a project row's cards read "K♠ Q♠ J♠", never "♠K♠ Q♠ J"."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from gameplay import services
from gameplay.models import Match

from .play_helpers import READY, log_in, shot

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
CARD = re.compile("(?:10|[2-9AKQJ])[♠♥♦♣]")  # a card's short name in the French deck

# The step line's box and every seat box it meets (a seat with nothing in it is not drawn).
OVERLAPS = """() => {
  const box = el => el.getBoundingClientRect();
  const line = box(document.querySelector('[data-testid=step-line]'));
  const felt = box(document.querySelector('.felt'));
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const seats = [...document.querySelectorAll('.seat')].filter(s => s.childElementCount);
  return {
    seats: seats.length,
    covered: seats.filter(s => meets(line, box(s))).map(s => s.className),
    notes: seats.filter(s => meets(box(document.querySelector('.felt-notes')), box(s))).map(s => s.className),
    inside: line.left >= felt.left && line.right <= felt.right && line.top >= felt.top && line.bottom <= felt.bottom,
    line: [line.left, line.top, line.right, line.bottom], felt: [felt.left, felt.top, felt.right, felt.bottom],
  };
}"""

# The left edge of each character of an element's text, in text order (null: not drawn).
CHARACTER_PLACES = """element => {
  const text = element.firstChild;
  const places = [];
  for (let i = 0; i < text.length; i += 1) {
    const range = document.createRange();
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const rect = range.getBoundingClientRect();
    places.push(rect.width ? rect.left : null);
  }
  return places;
}"""

# A project row of the deal summary, built by the page's own saudi.js for seat 1 (not the reader),
# shown in a right-to-left paragraph of the Arabic page.
PROJECT_ROW = """async () => {
  const base = document.querySelector('script[type=module][src*="table"]').src;
  const {Cards} = await import(new URL('cards.js', base));
  const saudi = await import(new URL('saudi.js', base));
  const boot = JSON.parse(document.getElementById('table-boot').textContent);
  const ctx = {L: boot.labels, cards: new Cards(boot), seatName: seat => ['Faisal', 'Devi', 'Noura', 'Sam'][seat], mySeat: 0};
  const detail = {projects: [{seat: 1, kind: 'sira', points: 20, cards: ['KS', 'QS', 'JS']}]};
  const row = saudi.detailRows(detail, ctx).find(r => r.label.includes('Devi'));
  const shown = document.createElement('p');
  shown.id = 'project-row';
  shown.textContent = row.label;
  document.querySelector('.table-side').prepend(shown);
  return getComputedStyle(shown).direction;
}"""


def saudi_table_for(username: str) -> Match:
    """Seat 0 for the player, three random bots; dealer 3, so the player speaks first."""
    player = get_user_model().objects.get(username=username)
    seats = [services.SeatSpec(user=player)] + [services.SeatSpec(bot="random")] * 3
    return services.create_match("baloot", {"game_mode": "saudi_classic"}, seats, created_by=player,
                                 seed=21, first_dealer=3)


def phone(browser, asgi_live, language):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
    return context, context.new_page()


def open_buying(page, username):
    log_in(page, username)
    match = saudi_table_for(username)
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.legal.length")
    expect(page.get_by_test_id("step-line")).to_be_visible()


def drawn_left_to_right(places, indexes):
    """The characters at `indexes` (in text order) are drawn from left to right."""
    lefts = [places[i] for i in indexes]
    return None not in lefts and lefts == sorted(lefts)


def test_the_saudi_step_line_covers_no_seat_on_a_360_px_phone_in_arabic_and_spanish(browser, asgi_live):
    for language, username in [("ar", "faisal"), ("es", "lucia")]:
        context, page = phone(browser, asgi_live, language)
        open_buying(page, username)
        expect(page.locator("html")).to_have_attribute("lang", language)
        found = page.evaluate(OVERLAPS)
        shot(page, f"saudi-step-line-360-{language}")
        assert found["seats"] == 4
        assert not found["covered"], f"{language}: the step line {found['line']} covers {found['covered']}"
        assert not found["notes"], f"{language}: the face-up card's note covers {found['notes']}"
        assert found["inside"], f"{language}: the step line {found['line']} runs out of the felt {found['felt']}"
        context.close()


def test_cards_in_an_arabic_log_line_and_project_row_read_in_their_own_order(browser, asgi_live):
    context, page = phone(browser, asgi_live, "ar")
    open_buying(page, "noura")
    page.locator(".act-button[data-action=bid-sun]").click()
    # Take the first legal decision until a card is in the log (the player leads the first trick).
    played = page.locator(".event-log li", has_text=CARD)
    for _ in range(12):
        if played.count():
            break
        page.wait_for_function(f"() => [...document.querySelectorAll('.event-log li')].some(li => /{CARD.pattern}/.test(li.textContent)) || ({READY})('.none')")
        if not played.count():
            page.locator(".hand-card.legal:not(:disabled), .act-button:not(:disabled)").first.click()
    line = played.first
    expect(line).to_be_visible()
    assert line.evaluate("li => getComputedStyle(li).direction") == "rtl"
    text = line.text_content()
    card = CARD.search(text)
    places = line.evaluate(CHARACTER_PLACES)
    assert drawn_left_to_right(places, [card.start(), card.end() - 1]), f"{card[0]!r} is scrambled in {text!r}: {places}"

    assert page.evaluate(PROJECT_ROW) == "rtl"
    row = page.locator("#project-row")
    expect(row).to_contain_text("Devi")
    text = row.text_content()
    places = row.evaluate(CHARACTER_PLACES)
    cards = [text.index(rank) for rank in "KQJ"]
    assert drawn_left_to_right(places, [cards[0], cards[0] + 1]), f"K♠ is scrambled in {text!r}: {places}"
    assert drawn_left_to_right(places, cards), f"the project's cards are out of order in {text!r}: {places}"
    shot(page, "saudi-log-360-ar")
    context.close()
