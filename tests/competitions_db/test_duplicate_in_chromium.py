"""In a real Chromium, in Spanish: an organiser creates a duplicate (Mitchell, two boards per round, a
bot pair for the odd count), one human pair and four bot pairs enter, three tables play three
rounds; a player reads a traveller and the hand record of a board once their own table has
finished it (403 before), and the final ranking with percentages."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from clubs.models import Membership
from gameplay import services
from gameplay.models import Match
from tests.browser.conftest import browser, page  # noqa: F401  (fixtures)
from tests.browser.play_helpers import PASSWORD, log_in, shot
from tests.competitions_db.helpers import drive, make_club
from tournaments.formats.duplicate import board_group
from tournaments.models import Competition, Entry, Pairing
from tournaments.services import manager

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def spanish_tab(browser, base_url, username):  # noqa: F811
    context = browser.new_context(base_url=base_url, locale="es-ES", extra_http_headers={"Accept-Language": "es"})
    context.set_default_timeout(15_000)
    tab = context.new_page()
    log_in(tab, username)
    return tab


def play_table(match_id: int, users) -> None:
    """The humans at a table play their first legal action until the table ends."""
    for _ in range(2000):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            return
        seat = services.current_state(match.pk, users[0])["to_act"]
        player = next(u for u in users if match.seats.get(user=u).seat == seat)
        legal = services.current_state(match.pk, player)["legal"][0]
        services.take(match.pk, services.Act.by_player(player, match.seq, f"h{match.seq}", legal))
    raise AssertionError("the table did not end")


def human_pairing(competition, entry, number):
    from django.db.models import Q

    return Pairing.objects.filter(Q(home=entry) | Q(away=entry), competition=competition,
                                  round_number=number).first()


def test_a_spanish_duplicate_of_three_tables_with_a_bot_pair_from_entries_to_the_ranking(browser, asgi_live):  # noqa: F811
    users = get_user_model().objects
    organiser = spanish_tab(browser, asgi_live.url, "organiser")
    club = make_club()
    Membership.objects.create(club=club, user=users.get(username="organiser"), role=Membership.Role.ORGANISER)

    organiser.goto(f"/competitions/new/{club.slug}/")
    organiser.fill("#id_name", "Noche de duplicado")
    organiser.select_option("#id_format", "duplicate")
    expect(organiser.locator("#id_movement")).to_be_visible()  # the duplicate's own fields
    organiser.select_option("#id_movement", "mitchell")
    organiser.select_option("#id_odd_pairs", "bot_pair")
    organiser.fill("#id_boards_per_round", "2")
    organiser.fill("#id_starts_at", "2030-01-01T19:00")
    organiser.get_by_test_id("create-competition").click()
    expect(organiser.get_by_test_id("competition-name")).to_have_text("Noche de duplicado")
    competition = Competition.objects.get(name="Noche de duplicado")
    assert (competition.format, competition.movement, competition.boards_per_round) == ("duplicate", "mitchell", 2)

    amina_user = users.create_user("amina", "amina@example.com", PASSWORD)
    bilal_user = users.create_user("bilal")
    organiser.goto(f"/competitions/{competition.pk}/manage/")
    form = organiser.get_by_test_id("tool-add_pair")
    form.locator("[name=first]").fill("amina")
    form.locator("[name=second]").fill("bilal")
    form.locator("button").click()
    bots = organiser.get_by_test_id("tool-add_bots")
    bots.locator("[name=count]").fill("4")
    bots.locator("button").click()
    organiser.once("dialog", lambda dialog: dialog.accept())
    with organiser.expect_navigation():
        organiser.get_by_test_id("tool-start_now").locator("button").click()
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    assert Entry.objects.filter(competition=competition, evens_the_count=True).count() == 1  # 5 pairs + bots

    amina = spanish_tab(browser, asgi_live.url, "amina")
    entry = Entry.objects.get(competition=competition, players__user=amina_user)

    for number in (1, 2, 3):
        competition = drive(competition, steps=10)  # the bots' tables of the round
        pairing = human_pairing(competition, entry, number)
        if pairing is None or pairing.away_id is None:
            continue
        first_board = (board_group(pairing.label) - 1) * 2 + 1
        if number == 1:
            # Before their table has played it, the board is refused to them and shows nothing.
            response = amina.goto(f"/competitions/{competition.pk}/boards/{first_board}/")
            assert response.status == 403
            expect(amina.locator("body")).not_to_contain_text("Hoja de viaje")
        for user in (amina_user, bilal_user):
            manager.check_in(user, pairing.pk)
        pairing.refresh_from_db()
        play_table(pairing.match_id, [amina_user, bilal_user])
        if number == 1:
            # Now by clicks from the competition page: the board's traveller and hand record.
            amina.goto(f"/competitions/{competition.pk}/")
            amina.get_by_test_id("duplicate-link").click()
            expect(amina.locator("h1")).to_contain_text("Tableros y clasificación")
            amina.get_by_role("link", name=f"Tablero {first_board}", exact=True).click()
            expect(amina).to_have_url(re.compile(rf"/boards/{first_board}/$"))
            expect(amina.get_by_test_id("traveller")).to_be_visible()
            expect(amina.get_by_test_id("traveller-row").first).to_be_visible()
            shot(amina, "duplicate-traveller-own-table-done")
            dealt = competition.board_set["boards"][first_board - 1]["deals"][0]
            shown = sum(map(len, dealt["hands"])) + len(dealt["stock"])  # the four hands, then the stock
            expect(amina.get_by_test_id("hand-record").locator("img")).to_have_count(shown)
            expect(amina.locator("h2").first).to_have_text("Hoja de viaje")

    competition = drive(competition, steps=20)
    assert competition.status == Competition.Status.FINISHED
    amina.goto(f"/competitions/{competition.pk}/")
    amina.get_by_test_id("duplicate-link").click()
    expect(amina.get_by_test_id("duplicate-ranking")).to_have_count(2)  # a Mitchell: North-South and East-West
    expect(amina.get_by_test_id("ranking-field")).to_have_text(["Norte-Sur", "Este-Oeste"])
    expect(amina.get_by_test_id("ranking-percent")).to_have_count(5)  # the bot pair is not ranked
    shot(amina, "duplicate-ranking")
    expect(amina.locator("h2", has_text="Clasificación")).to_be_visible()
    amina.get_by_test_id("board-link").first.click()
    expect(amina.get_by_test_id("traveller-row")).to_have_count(3)  # a board is played at three tables
    shot(amina, "duplicate-traveller-final")
