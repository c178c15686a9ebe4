"""The table's words in English, Arabic and Spanish (issue 32): the Concede and Leave confirmations
offer "Keep playing", not "Continue" (which reads as yes); the reader's own acts are told in the
second person ("Has comprado Hokum", never "Tú ha comprado Hokum"; «اشتريت حكم», never «أنت اشترى
حكم»; "Quintola · por ti", never "Quintola · — Tú"); a Saudi table plays to 152, "more than 151"."""

import pytest
from playwright.sync_api import expect

from .play_helpers import log_in
from .test_table_on_a_phone import saudi_table_for

pytestmark = pytest.mark.browser

KEEP_PLAYING = {"en": "Keep playing", "es": "Seguir jugando", "ar": "نكمل اللعب"}

# What the page's own client modules write for the reader's seat (0) and for another's (1).
SENTENCES = """async () => {
  const base = document.querySelector('script[type=module][src*="table"]').src;
  const cardsModule = await import(new URL('cards.js', base));
  const saudi = await import(new URL('saudi.js', base));
  const boot = JSON.parse(document.getElementById('table-boot').textContent);
  const L = boot.labels;
  const cards = new cardsModule.Cards(boot);
  const seatName = seat => (seat === 0 ? L.text.you : 'Devi');
  const line = (step, seat) => {
    const view = {mode: 'saudi_classic', phase: 'buying', buying: {step, round: 1, hokum_bidder: seat, sun_caller: seat}};
    return saudi.stepNote(view, {L, cards, seatName, mySeat: 0}).textContent;
  };
  const contract = seat => cardsModule.detailRows({contract: 'quintola', declarer: seat}, cards, L, [0, 1, 2, 3].map(seatName), 0)[0].text;
  return {
    you: L.text.you,
    window: [line('window', 0), line('window', 1)], claim: [line('claim', 0), line('claim', 1)],
    contract: [contract(0), contract(1)],
    lastTrick: [cardsModule.lastTrickBy(L, L.text.you, true), cardsModule.lastTrickBy(L, 'Devi', false)],
  };
}"""

EXPECTED = {
    "en": {"window": "You bought Hokum: the others may take the card as Sun, or pass.",
           "claim": "You called Sun: a player before you may still take it (before you).",
           "contract": "by you", "lastTrick": "Last trick, won by you"},
    "es": {"window": "Has comprado Hokum: los demás pueden llevársela en Sun o pasar.",
           "claim": "Has dicho Sun: quien habla antes que tú aún puede quedárselo (antes que tú).",
           "contract": "por ti", "lastTrick": "Última baza, la ganas tú"},
    "ar": {"window": "اشتريت حكم: للبقية أن ياخذوها صن أو يقولوا بس.",
           "claim": "قلت صن: اللي قبلك يقدر ياخذها بـ«قبلك».",
           "contract": "— أنت", "lastTrick": "الأكلة الأخيرة، أكلتها أنت"},
}


def open_table(browser, asgi_live, language, username):
    context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
    page = context.new_page()
    log_in(page, username)
    match = saudi_table_for(username)
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.status === 'playing'")
    return context, page


@pytest.mark.parametrize("language", ["en", "ar", "es"])
def test_the_concede_and_leave_confirmations_cancel_with_keep_playing(browser, asgi_live, language):
    context, page = open_table(browser, asgi_live, language, f"keeper{language}")
    for ask in ["concede", "leave"]:
        page.get_by_test_id(ask).click()
        cancel = page.get_by_test_id("cancel-conduct")
        expect(cancel).to_have_text(KEEP_PLAYING[language])
        cancel.click()
        expect(page.get_by_test_id(ask)).to_be_visible()  # nothing was sent: the buttons are back
    assert page.evaluate("window.chalkTable.frame.status") == "playing"
    context.close()


@pytest.mark.parametrize("language", ["en", "ar", "es"])
def test_the_readers_own_buying_contract_and_trick_are_told_in_the_second_person(browser, asgi_live, language):
    context, page = open_table(browser, asgi_live, language, f"second{language}")
    said = page.evaluate(SENTENCES)
    expected = EXPECTED[language]
    strip = str.maketrans("", "", "\u2066\u2067\u2068\u2069")
    assert said["window"][0] == expected["window"]
    assert said["claim"][0] == expected["claim"]
    assert said["contract"][0].translate(strip).endswith(expected["contract"])
    assert said["lastTrick"][0] == expected["lastTrick"]
    # another player's stays in the third person, with their name
    for key in ["window", "claim", "contract", "lastTrick"]:
        assert "Devi" in said[key][1], key
    context.close()


PLAYING_TO = {"en": "Playing to 152 (more than 151)", "es": "Se juega a 152 (más de 151)",
              "ar": "اللعب حتى 152 (أكثر من 151)"}


@pytest.mark.parametrize("language", ["en", "ar", "es"])
def test_a_saudi_table_says_it_plays_to_152_more_than_151(browser, asgi_live, language):
    context, page = open_table(browser, asgi_live, language, f"target{language}")
    expect(page.get_by_test_id("target")).to_have_text(PLAYING_TO[language])
    context.close()


SPANISH_CARDS = """async () => {
  const base = document.querySelector('script[type=module][src*="table"]').src;
  const {Cards, fmt} = await import(new URL('cards.js', base));
  const boot = JSON.parse(document.getElementById('table-boot').textContent);
  const cards = new Cards(boot);
  const strip = text => text.replace(/[\\u2066-\\u2069]/g, '');
  return {ace: strip(fmt(boot.labels.text.you_play, {card: cards.short('1O')})),
          sota: strip(cards.short('10C')), seven: strip(cards.short('7E')), king: strip(cards.short('12B'))};
}"""


def test_spanish_log_lines_name_a_card_with_its_article(browser, asgi_live):
    from django.contrib.auth import get_user_model

    from gameplay import services

    context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": "es", "url": asgi_live.url}])
    page = context.new_page()
    log_in(page, "lucia")
    lucia = get_user_model().objects.get(username="lucia")
    match = services.create_match("cuatrola", {}, [services.SeatSpec(user=lucia)] + [services.SeatSpec(bot="random")] * 3)
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame")
    assert page.evaluate(SPANISH_CARDS) == {"ace": "Juegas el as de oros", "sota": "la sota de copas",
                                            "seven": "el 7 de espadas", "king": "el rey de bastos"}
    context.close()


def test_the_readers_own_team_comes_first_from_seats_2_and_4_too(browser, asgi_live):
    """Seat 1 (the second seat, team 1): "Us" is the first column of the scores, as at seat 0."""
    from django.contrib.auth import get_user_model

    from gameplay import services

    context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, "second_seat")
    player = get_user_model().objects.get(username="second_seat")
    bot = services.SeatSpec(bot="random")
    match = services.create_match("allfours", {}, [bot, services.SeatSpec(user=player), bot, bot])
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame && window.chalkTable.frame.status === 'playing'")
    assert page.evaluate("window.chalkTable.frame.seat") == 1
    expect(page.locator(".score-table thead th").nth(1)).to_have_text("Us")
    expect(page.locator(".score-table thead th").nth(2)).to_have_text("Them")
    ours, theirs = page.evaluate("window.chalkTable.frame.view.score.slice(1).concat(window.chalkTable.frame.view.score[0])")
    expect(page.locator(".score-table tr.match-score td")).to_have_text([str(ours), str(theirs)])
    context.close()


def test_a_player_who_sits_down_after_the_page_opened_shows_their_rating(browser, asgi_live):
    from django.contrib.auth import get_user_model

    from gameplay import services
    from tournaments.ratings.models import Rating

    context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, "early_host")
    host = get_user_model().objects.get(username="early_host")
    match = services.create_match("allfours", {}, [services.SeatSpec(user=host)], created_by=host)
    page.goto(f"/matches/{match.pk}/")
    page.wait_for_function("() => window.chalkTable && window.chalkTable.frame")
    late = get_user_model().objects.create_user("late_comer")
    Rating.objects.create(user=late, game="allfours", elo=1634, rated_matches=30, glicko_rd=50)
    services.take_seat(match, late, 1)
    badge = page.locator(".seat[data-seat='1'] .rating-badge")
    expect(badge).to_have_text("1634", timeout=10_000)  # with the waiting panel's next refresh (3 s)
    context.close()


DECLARE_BUTTONS = """async () => {
  const base = document.querySelector('script[type=module][src*="table"]').src;
  const {Cards} = await import(new URL('cards.js', base));
  const saudi = await import(new URL('saudi.js', base));
  const boot = JSON.parse(document.getElementById('table-boot').textContent);
  const ctx = {L: boot.labels, cards: new Cards(boot), seatName: () => 'Devi', mySeat: 0};
  const strip = text => text.replace(/[\\u2066-\\u2069]/g, '');
  const label = (melds, contract) => strip(saudi.actionLabel({type: 'declare', melds}, {contract, buying: {}}, ctx));
  return [label([['KC', 'QC', 'JC']], 'hokum'), label([['KC', 'QC', 'JC'], ['AS', 'KS', 'QS', 'JS']], 'hokum'),
          label([['AS', 'AH', 'AD', 'AC']], 'sun')];
}"""


@pytest.mark.parametrize("language, expected", [
    ("en", ["Declare Sira (K♣ Q♣ J♣)", "Declare Sira (K♣ Q♣ J♣) + Fifty (A♠ K♠ Q♠ J♠)", "Declare Four hundred (A♠ A♥ A♦ A♣)"]),
    ("ar", ["أعلن سرا (K♣ Q♣ J♣)", "أعلن سرا (K♣ Q♣ J♣) + خمسين (A♠ K♠ Q♠ J♠)", None]),
])
def test_the_saudi_declare_button_names_the_project_as_players_do(browser, asgi_live, language, expected):
    context, page = open_table(browser, asgi_live, language, f"declarer{language}")
    said = page.evaluate(DECLARE_BUTTONS)
    for got, want in zip(said, expected, strict=True):
        if want is not None:
            assert got == want
    context.close()


def test_the_tab_title_says_when_it_is_the_readers_turn(browser, asgi_live):
    context, page = open_table(browser, asgi_live, "en", "tabwatcher")
    page.wait_for_function("() => window.chalkTable.frame.legal.length > 0")  # the player speaks first
    assert page.title().startswith("▶ Your turn · ")
    # Every title the page takes from now on, with whether the reader had a decision then.
    page.evaluate("""() => { window.titles = [];
      new MutationObserver(() => window.titles.push([document.title, window.chalkTable.frame.legal.length > 0]))
        .observe(document.querySelector('title'), {childList: true, characterData: true, subtree: true}); }""")
    page.locator(".act-button[data-action=bid-sun]").click()
    for _ in range(8):  # decide until a bot's turn has shown
        page.wait_for_function("() => window.titles.some(([_, mine]) => !mine) || (!window.chalkTable.pending"
                               " && document.querySelector('.hand-card.legal:not(:disabled), .act-button:not(:disabled)'))")
        if page.evaluate("window.titles.some(([_, mine]) => !mine)"):
            break
        page.locator(".hand-card.legal:not(:disabled), .act-button:not(:disabled)").first.click()
    titles = page.evaluate("window.titles")
    assert any(not mine for _title, mine in titles), titles
    assert all(title.startswith("▶") == mine for title, mine in titles), titles
    context.close()
