"""A person at the live table in Chromium: sign in, start a table against bots, play by clicking.

Set CHALK_SCREENSHOTS=<folder> to keep screenshots of the pages these tests visit.
"""

import os
import re
from pathlib import Path

from django.contrib.auth import get_user_model
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

PASSWORD = "a-long-card-table-password"

# True when the client has a decision to make, or when `done` (a CSS selector) is showing.
READY = """done => {
  const box = document.querySelector(done);
  if (box && !box.hidden) return true;
  const t = window.chalkTable;
  if (t && t.frame && t.frame.status === 'finished' && !document.querySelector('.deal-summary').hidden) return true;
  return Boolean(t && t.frame && !t.pending && t.frame.legal.length > 0
                 && document.querySelector('.hand-card.legal:not(:disabled), .act-button:not(:disabled)'));
}"""


def shot(page, name):
    folder = os.environ.get("CHALK_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def sign_up(page, username):
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_test_id("logout")).to_be_attached()  # signed in (on a phone it waits in the menu)


def log_in(page, username):
    if not get_user_model().objects.filter(username=username).exists():
        get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD)
    page.goto("/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_test_id("logout")).to_be_attached()  # signed in (on a phone it waits in the menu)


def start_table_against_bots(page, game, preset, options=None, level=None):
    """From the lobby: a new table of `game` with the named preset (and `options` typed into
    their fields), empty seats filled with bots (of `level`, else the form's default)."""
    page.goto("/play/")
    page.get_by_test_id("new-table").click()
    if page.locator("#id_game").input_value() != game:
        page.select_option("#id_game", game)
        expect(page.locator(f"#id_preset option[value={preset}]")).to_have_count(1)  # htmx swapped the form
        wait_for_htmx(page)  # and bound the new form's triggers, or the preset's change goes unheard
    if page.locator("#id_preset").input_value() != preset:
        # the form is fetched again with the preset's values (new_table_form.html): wait for that
        # form, or the click below submits the old one's fields under the new preset
        with page.expect_response(lambda response: "/play/new/" in response.url):
            page.select_option("#id_preset", preset)
        wait_for_htmx(page)
        expect(page.locator("#id_preset")).to_have_value(preset)
    if options:
        page.locator("details.options > summary").click()  # the rule options are folded away
    for key, value in (options or {}).items():
        page.fill(f"#id_opt_{key}", str(value))
    page.check("#id_fill_with_bots")
    if level:
        page.select_option("#id_bot_level", level)
    page.get_by_test_id("create-table").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+/$"))
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.status !== 'waiting'")


def wait_for_htmx(page):
    """No htmx request, swap or settle under way (htmx marks each with a class)."""
    page.wait_for_function("() => !document.querySelector("
                           "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')")


def play_until(page, done, max_decisions=600, keyboard_first_card=False):
    """Take the first legal action again and again until the `done` selector shows.

    Cards are clicked (the first card played with the keyboard when asked); other actions are
    their buttons. Returns the number of decisions taken."""
    used_keyboard = not keyboard_first_card
    for decisions in range(max_decisions):
        try:
            page.wait_for_function(READY, arg=done, timeout=20_000)
        except PlaywrightTimeout:
            raise AssertionError(f"{done} did not show and no decision came within 20 s after "
                                 f"{decisions} decisions; the table then: {table_snapshot(page)}") from None
        if page.locator(done).is_visible():
            return decisions
        if page.evaluate("window.chalkTable.frame.status") == "finished":
            page.get_by_test_id("close-summary").click()  # the decisive deal's summary, then the result
            continue
        if not used_keyboard and page.locator(".hand-card.legal:not(:disabled)").count():
            play_a_card_with_the_keyboard(page)
            used_keyboard = True
        else:
            # A card or a button, whichever is there once it can be clicked: a frame arriving
            # between the wait above and this click may redraw the hand (the cards gone for a
            # moment), and choosing by what was there then waited 15 s for a button that never
            # came (seen on a phone under a parallel suite).
            page.locator(".hand-card.legal:not(:disabled), .act-button:not(:disabled)").first.click()
    raise AssertionError(f"{done} did not show after {max_decisions} decisions")


def table_snapshot(page) -> dict:
    """What the page knew when a wait ran out, for the failure message."""
    return page.evaluate("""() => {
      const t = window.chalkTable, f = t.frame || {};
      return {status: f.status, seq: f.seq, to_act: f.to_act, legal: f.legal, pending: t.pending,
              game: f.view && f.view.match, socket: t.socket && t.socket.readyState,
              error: document.querySelector('.error-line').textContent,
              log: t.log.slice(-8)};
    }""")


def play_a_card_with_the_keyboard(page):
    seq = page.evaluate("window.chalkTable.frame.seq")
    page.locator(".hand-card.legal:not(:disabled)").first.focus()
    page.keyboard.press("ArrowRight")  # the next playable card (or the same one if it is alone)
    focused = page.evaluate("document.activeElement.dataset.card")
    legal = page.evaluate("window.chalkTable.frame.legal.filter(a => a.card).map(a => a.card)")
    assert focused in legal
    page.keyboard.press("Enter")
    page.wait_for_function("seq => window.chalkTable.frame.seq > seq", arg=seq)
    assert focused not in page.evaluate("window.chalkTable.frame.view.hand")  # Enter played it


def bots_match(game, seed, options=None):
    """A public match of four random bots with a fixed seed (and first dealer 0), played to its
    end in this process by the eager bot tasks: the same deals every run. Returns the match and
    its engine game (deal records with their `detail`), derived the way the archive derives them."""
    from gameplay import services
    from gameplay.models import Match
    from gameplay.table import Table

    match = services.create_match(game, options or {}, [services.SeatSpec(bot="random")] * 4,
                                  seed=seed, first_dealer=0)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    actions = match.actions.order_by("seq").values_list("action", flat=True)
    return match, Table.replay(services.spec_of(match), actions).all_games()[0]


def expect_item_row(summary, label, team, points):
    """The summary row `label` shows `points` in team `team`'s column and nothing in the other.
    The label's names and cards may sit between Unicode isolates (static/js/cards.js isolate)."""
    row = summary.locator("tr", has_text=re.compile("[\u2066-\u2069]*".join(map(re.escape, label))))
    expect(row).to_have_count(1)
    expect(row.locator("td").nth(team)).to_have_text(points)
    expect(row.locator("td").nth(1 - team)).to_have_text("")
