"""Phone first: every main page fits a 360-px-wide screen in English, Arabic and Spanish, with a
two-row header. A page that scrolls sideways fails, naming the elements that stick out (a wide table may scroll
inside its own frame: that is not the page scrolling)."""


import pytest
from django.contrib.auth import get_user_model

from clubs.services import invite_member
from gameplay import services
from tests.browser.play_helpers import bots_match, log_in, shot
from tests.competitions_db.helpers import bot_pairs, drive, make_club, make_competition
from tournaments.models import Competition
from tournaments.ratings.models import Rating

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"width": 360, "height": 740}
LANGUAGES = ["en", "ar", "es"]

# Elements wider than the screen, or placed outside it, that are not inside a scrolling frame.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; }
    return false; };
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    const absolute = getComputedStyle(el).position === 'absolute';  // escapes its frame's clipping
    if (box.width === 0 || (box.right <= width + 1 && box.left >= -1) || (scrolls(el) && !absolute)) continue;
    out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '')
             + ' ' + Math.round(box.left) + '..' + Math.round(box.right));
    if (out.length > 6) break;
  }
  // The header keeps two rows: brand and languages, then the navigation on one line.
  const top = sel => document.querySelector(sel).getBoundingClientRect().top;
  const navRows = new Set([...document.querySelectorAll('.site-nav li')].map(li => li.offsetTop)).size;
  const headerRows = (Math.abs(top('.brand') - top('.language-switcher')) < 20 ? 1 : 2) + (navRows > 1 ? navRows : 1);
  return {scroll: document.documentElement.scrollWidth, width, out, headerRows};
}"""


def seed(username):
    """A player in a club with a finished knockout, a finished match, ratings and live tables."""
    user = get_user_model().objects.get(username=username)
    club = make_club(organiser=user)
    competition = make_competition(club, format="single_elimination", game="allfours")
    Competition.objects.filter(pk=competition.pk).update(name="Port of Spain Friday Night Knockout Cup 2026")
    bot_pairs(competition, 4)
    drive(competition)
    finished, _game = bots_match("baloot", seed=11)
    for n in range(12):
        other = get_user_model().objects.create_user(f"ratedplayerwithalongname{n}")
        Rating.objects.create(user=other, game="allfours", elo=1500 + n, rated_matches=n, glicko_rd=60 + 20 * n)
    playing = services.create_match("cuatrola", {}, [services.SeatSpec(user=user)]
                                    + [services.SeatSpec(bot="random")] * 3)
    host = get_user_model().objects.create_user("host")
    waiting = services.create_match("allfours", {}, [services.SeatSpec(user=host)])
    # Invitations waiting on the home page: a club's, by name, and a seat a host keeps for the player.
    invite_member(host, make_club(organiser=host), username)
    services.create_match("baloot", {}, [services.SeatSpec(user=host), services.SeatSpec(),
                                         services.SeatSpec(user=user, invited=True)], created_by=host)
    round_one = competition.rounds.order_by("number").first()
    return [
        "/", "/play/", "/play/new/", "/matches/", "/matches/?mine=1", f"/matches/{finished.pk}/replay/",
        f"/matches/{playing.pk}/", f"/matches/{waiting.pk}/", "/competitions/", "/competitions/archive/",
        f"/competitions/{competition.pk}/", f"/competitions/{competition.pk}/standings/",
        f"/competitions/{competition.pk}/bracket/", f"/competitions/{competition.pk}/rounds/{round_one.number}/",
        f"/competitions/new/{club.slug}/", "/competitions/notifications/", "/clubs/", f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/members/", f"/clubs/{club.slug}/invitations/", "/ratings/allfours/", f"/ratings/players/{username}/",
        f"/players/{username}/", "/accounts/profile/", "/help/", "/help/allfours/", "/help/baloot/",
        "/help/cuatrola/",
    ]


@pytest.mark.timeout(900)
def test_every_main_page_fits_a_360_px_phone_in_each_language(browser, asgi_live):
    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, "phoneplayer")
    pages = seed("phoneplayer")
    failures = []
    for language in LANGUAGES:
        context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
        for path in pages:
            response = page.goto(path)
            if response.status != 200:
                failures.append(f"{language} {path}: answered {response.status}")
                continue
            found = page.evaluate(STICKING_OUT)
            if found["headerRows"] > 2:
                failures.append(f"{language} {path}: the header takes {found['headerRows']} rows")
            if found["scroll"] > found["width"]:
                failures.append(f"{language} {path}: {found['scroll']} px wide: {found['out']}")
                shot(page, f"phone-{language}-{path.strip('/').replace('/', '-') or 'home'}")
    context.close()
    assert not failures, "\n".join(failures)
