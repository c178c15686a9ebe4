"""Issue 31: every page of a competition, in English, Arabic and Spanish, on a 360-px-wide phone: the
page never scrolls sideways (a wide table or bracket may scroll inside its own frame) and no word is
broken inside (a word split over two lines, "diciemb/re", as the facts column did: defect 4).
The pages: the competition page (open, running, finished; the organiser's and a visitor's), its
rounds with their check-in lists and controls, standings, bracket, the organiser's tools, the edit
forms before and after the start, seeds by hand, cancel, run again, delete, and a duplicate's
ranking, board and scorecard pages."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.browser.play_helpers import log_in, shot
from tests.browser.test_phone_width import LANGUAGES, PHONE, STICKING_OUT
from tests.competitions_db.helpers import bot_pairs, drive, human_pairs, make_club, make_competition
from tournaments.models import Competition, Entry

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Words (runs of letters between spaces, hyphens, slashes, dots and commas) whose boxes sit on more
# than one line: a word broken inside. Text in SVG (the bracket) and in form controls is left out.
BROKEN_WORDS = """() => {
  const broken = [];
  const main = document.querySelector('main');
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {acceptNode: node => {
    const parent = node.parentElement;
    if (!parent || parent.closest('svg, script, style, select, option, textarea')) return NodeFilter.FILTER_REJECT;
    return node.data.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT; }});
  const range = document.createRange();
  for (let node = walker.nextNode(); node && broken.length < 8; node = walker.nextNode()) {
    const words = /[^\\s\\-\\u2010-\\u2015\\/·,.:;()]+/g;
    let match;
    while ((match = words.exec(node.data)) && broken.length < 8) {
      if (match[0].length < 2) continue;
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const boxes = [...range.getClientRects()].filter(box => box.width > 0 && box.height > 0);
      if (boxes.length < 2) continue;
      const tops = boxes.map(box => box.top), height = Math.min(...boxes.map(box => box.height));
      if (Math.max(...tops) - Math.min(...tops) > height * 0.6) broken.push(match[0]);
    }
  }
  return broken;
}"""

LONG_NAME = "Los Invencibles de Puerto España"


def seed(organiser):
    """A club in Port of Spain with a finished knockout, a running Swiss (round 1 waiting for check-in),
    an open competition seeded by hand and a finished duplicate: every kind of competition page."""
    club = make_club(organiser, time_zone="America/Port_of_Spain")
    knockout = make_competition(club, format="single_elimination", seeding="hand")
    Competition.objects.filter(pk=knockout.pk).update(name="Copa Relámpago de Diciembre del Club Trinitario 2026",
                                                      description="Premios: una cena para la pareja campeona.")
    for n, entry in enumerate(bot_pairs(knockout, 6), start=1):
        Entry.objects.filter(pk=entry.pk).update(name=f"{LONG_NAME} {n}", seed=n)
    drive(knockout)
    swiss = make_competition(club, format="swiss", check_in=timedelta(hours=2), swiss_rounds=3,
                             tiebreak_order=["sonneborn_berger", "buchholz"])
    human_pairs(swiss, 4)
    drive(swiss, steps=3)
    opened = make_competition(club, format="round_robin", seeding="hand", starts_in=timedelta(days=3),
                              entries_close_at=timezone.now() + timedelta(days=2))
    bot_pairs(opened, 3)
    duplicate = make_competition(club, format="duplicate", game="cuatrola", preset="standard", boards_per_round=1,
                                 boards_seed=2024)
    bot_pairs(duplicate, 4)
    drive(duplicate, steps=80)
    first_pair = duplicate.entries.filter(evens_the_count=False).order_by("pk").first()
    pages = []
    for competition in (knockout, swiss, opened):
        base = f"/competitions/{competition.pk}/"
        pages += [base, base + "standings/", base + "manage/", base + "edit/", base + "run-again/"]
        pages += [f"{base}rounds/{r.number}/" for r in competition.rounds.order_by("number")]
    pages += [f"/competitions/{knockout.pk}/bracket/", f"/competitions/{opened.pk}/seeds/",
              f"/competitions/{opened.pk}/cancel/", f"/competitions/{opened.pk}/delete/",
              f"/competitions/{swiss.pk}/cancel/", f"/competitions/new/{club.slug}/",
              f"/competitions/{duplicate.pk}/", f"/competitions/{duplicate.pk}/duplicate/",
              f"/competitions/{duplicate.pk}/boards/1/", f"/competitions/{duplicate.pk}/pairs/{first_pair.pk}/",
              "/competitions/", "/competitions/archive/"]
    return pages


@pytest.mark.timeout(900)
def test_every_competition_page_fits_a_360_px_phone_with_no_word_broken_in_each_language(browser, asgi_live):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, "phoneorganiser")
    pages = seed(get_user_model().objects.get(username="phoneorganiser"))
    failures = []
    for language in LANGUAGES:
        context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
        for path in pages:
            response = page.goto(path)
            if response.status != 200:
                failures.append(f"{language} {path}: answered {response.status}")
                continue
            found, broken = page.evaluate(STICKING_OUT), page.evaluate(BROKEN_WORDS)
            if found["scroll"] > found["width"]:
                failures.append(f"{language} {path}: {found['scroll']} px wide: {found['out']}")
            if broken:
                failures.append(f"{language} {path}: words broken inside: {broken}")
            if found["scroll"] > found["width"] or broken:
                shot(page, f"competition-{language}-{path.strip('/').replace('/', '-')}")
    context.close()
    assert not failures, "\n".join(failures)


PRINTED = """() => {
  const shown = sel => [...document.querySelectorAll(sel)].filter(el => el.getClientRects().length > 0).length;
  const style = getComputedStyle(document.querySelector('main'));
  const rows = [...document.querySelectorAll('main tr')].map(tr => getComputedStyle(tr).breakInside);
  const tables = [...document.querySelectorAll('main table')].map(t => getComputedStyle(t).display);
  return {nav: shown('.site-header, .comp-nav, nav'), buttons: shown('main button, main .button, main form'),
          color: style.color, background: getComputedStyle(document.body).backgroundColor, rows, tables};
}"""


def test_the_competition_round_and_standings_pages_print_black_on_white_without_navigation_or_buttons(
        browser, asgi_live):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="es-ES")
    page = context.new_page()
    log_in(page, "printorganiser")
    organiser = get_user_model().objects.get(username="printorganiser")
    competition = make_competition(make_club(organiser), format="swiss", swiss_rounds=2)
    bot_pairs(competition, 4)
    drive(competition)
    page.emulate_media(media="print")
    for path in (competition.get_absolute_url(), f"/competitions/{competition.pk}/rounds/1/",
                 f"/competitions/{competition.pk}/standings/"):
        page.goto(path)
        printed = page.evaluate(PRINTED)
        assert printed["nav"] == 0 and printed["buttons"] == 0, (path, printed)
        assert printed["color"] == "rgb(0, 0, 0)" and printed["background"] == "rgb(255, 255, 255)", (path, printed)
        assert printed["rows"] and set(printed["rows"]) == {"avoid"}, (path, printed)
        assert set(printed["tables"]) == {"table"}, (path, printed)
    context.close()
