"""The score sheet at the table and in the replay (issue 32), on a 360-px phone in Arabic: every
deal's points for both teams, in a space of its own (it covers no seat and not the hand), the
same rows as the export's `score_sheet`; the replay shows the sheet up to the step shown."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from gameplay import services

from .play_helpers import READY, log_in, shot

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}

# The sheet's rows as {deal, points: [team 0, team 1]} read from the cells' data-team, and whether
# its box meets a seat box or the hand.
SHEET = """() => {
  const sheet = document.querySelector('[data-testid=score-sheet]');
  const box = el => el.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const others = [...document.querySelectorAll('.seat, .hand:not([hidden])')].filter(s => s.childElementCount);
  const rows = [...sheet.querySelectorAll('tbody tr[data-deal]')].map(tr => ({
    deal: Number(tr.dataset.deal),
    points: [0, 1].map(t => Number(tr.querySelector(`td[data-team="${t}"]`).textContent)),
  }));
  const total = sheet.querySelector('tfoot tr');
  return {rows, covers: others.filter(o => meets(box(sheet), box(o))).map(o => o.className),
          total: total ? [0, 1].map(t => Number(total.querySelector(`td[data-team="${t}"]`).textContent)) : null,
          wide: document.documentElement.scrollWidth > window.innerWidth};
}"""


def phone(browser, asgi_live, language="ar"):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
    return context, context.new_page()


def rows_of(sheet):
    return [{"deal": row["deal"], "points": row["points"]} for row in sheet]


def test_the_score_sheet_at_the_table_and_in_the_replay_matches_the_export(browser, asgi_live, client):
    match = services.create_match("allfours", {}, [services.SeatSpec(bot="random")] * 4, seed=5, first_dealer=0)
    match.refresh_from_db()
    exported = client.get(f"/matches/{match.pk}/export.json").json()["score_sheet"]
    assert len(exported) >= 3
    context, page = phone(browser, asgi_live)

    # the finished table: the sheet opens from the table's head, below the felt and the hand
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame")
    page.get_by_test_id("open-sheet").click()
    expect(page.locator("[data-testid=score-sheet] tbody tr").first).to_be_visible()
    found = page.evaluate(SHEET)
    shot(page, "score-sheet-table-360-ar")
    assert found["rows"] == rows_of(exported)
    assert found["total"] == exported[-1]["total"]
    assert not found["covers"], f"the sheet covers {found['covers']}"
    assert not found["wide"]

    # the replay: after the third deal's last step the sheet has those three deals and no more
    page.goto(f"/matches/{match.pk}/replay/")
    expect(page.get_by_test_id("step-label")).not_to_be_empty()
    for _ in range(200):
        rows = page.evaluate(SHEET)["rows"]
        if len(rows) >= 3:
            break
        page.get_by_test_id("next-step").click()
    assert page.evaluate(SHEET)["rows"] == rows_of(exported[:3])
    page.get_by_test_id("prev-deal").click()
    page.get_by_test_id("prev-deal").click()
    assert len(page.evaluate(SHEET)["rows"]) < 3  # the sheet goes back with the steps
    shot(page, "score-sheet-replay-360-ar")
    context.close()


def test_a_deal_played_at_the_table_shows_on_the_sheet_at_once(browser, asgi_live):
    context, page = phone(browser, asgi_live, "es")
    log_in(page, "sheet-player")
    player = get_user_model().objects.get(username="sheet-player")
    seats = [services.SeatSpec(user=player)] + [services.SeatSpec(bot="random")] * 3
    match = services.create_match("allfours", {}, seats, created_by=player, seed=8, first_dealer=3)
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.status === 'playing'")
    page.get_by_test_id("open-sheet").click()
    first_row = "[data-testid=score-sheet] tbody tr[data-deal='1']"
    for _ in range(80):
        if page.locator(first_row).count():
            break
        page.wait_for_function(f"() => document.querySelector(\"{first_row}\") || ({READY})('.none')")
        if not page.locator(first_row).count():
            page.locator(".hand-card.legal:not(:disabled), .act-button:not(:disabled)").first.click()
    expect(page.locator(first_row)).to_be_visible()
    deal = page.evaluate("window.chalkTable.frame.view.deals[0]")
    found = page.evaluate(SHEET)
    assert found["rows"][0] == {"deal": 1, "points": deal["delta"]}
    assert not found["covers"], f"the sheet covers {found['covers']}"
    shot(page, "score-sheet-live-360-es")
    context.close()
