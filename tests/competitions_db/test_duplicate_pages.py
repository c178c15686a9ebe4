"""A duplicate's pages (issue 34): the traveller and hand record of a board, a pair's scorecard, the
live ranking, the board set's download; and fair play: nobody sees a board before their own table
has finished it (everyone else: before every table has), a 403 that shows nothing."""

import json

import pytest
from django.urls import reverse

from gameplay import services
from gameplay.models import Match
from tests.competitions_db.helpers import first_round_checked_in, bot_pairs, drive, human_pairs, make_club, make_competition, make_user
from tournaments.models import Competition, Pairing
from tournaments.services import manager

pytestmark = pytest.mark.django_db


def duplicate_competition(club=None, **fields):
    defaults = dict(format="duplicate", game="cuatrola", preset="standard", boards_per_round=1, boards_seed=2024)
    defaults.update(fields)
    return make_competition(club, **defaults)


def play_table(match_id: int, users) -> None:
    """The four humans at a table play their first legal action until the table ends."""
    for _ in range(2000):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.PLAYING:
            return
        state = services.current_state(match.pk, users[0])
        seat = state["to_act"]
        player = next(u for u in users if match.seats.get(user=u).seat == seat)
        legal = services.current_state(match.pk, player)["legal"][0]
        services.take(match.pk, services.Act.by_player(player, match.seq, f"t{match.seq}", legal))
    raise AssertionError("the table did not end")


@pytest.fixture
def half_played():
    """Four pairs (two human, two bots) in a Howell: in round 1 the bots' table has finished board 1,
    the humans' table has not started."""
    organiser = make_user("organiser")
    club = make_club(organiser)
    competition = duplicate_competition(club, created_by=organiser, seeding="hand")
    humans = human_pairs(competition, 2)
    bots = bot_pairs(competition, 2)
    # Round 1 of a Howell of four pairs: pair 4 v pair 1 and pair 2 v pair 3.
    for entry, seed in ((humans[0][0], 1), (humans[1][0], 4), (bots[0], 2), (bots[1], 3)):
        entry.seed = seed
        entry.save(update_fields=["seed"])
    competition = drive(competition, steps=6)
    assert competition.status == Competition.Status.RUNNING
    return competition, organiser, humans


def human_pairing(competition):
    return Pairing.objects.get(competition=competition, round_number=1, home__bot="", away__bot="")


def bots_pairing(competition):
    return Pairing.objects.get(competition=competition, round_number=1, home__bot="random")


def test_a_board_is_403_with_nothing_shown_until_the_readers_table_has_finished_it(client, half_played):
    competition, organiser, humans = half_played
    bots = bots_pairing(competition)
    assert bots.decided_at is not None  # the bots' table has played board 1
    board = Match.objects.get(pk=bots.match_id).boards[0]
    assert board["board"] == 1
    url = reverse("tournaments:board", args=[competition.pk, 1])
    hidden_card = board["deals"][0]["hands"][0][0]
    for reader in (humans[0][1][0], organiser, make_user("spectator")):
        client.force_login(reader)
        response = client.get(url)
        assert response.status_code == 403
        assert hidden_card not in response.text and "traveller" not in response.text
    # The overview offers no link to it, and a scorecard shows none of its results.
    overview = client.get(reverse("tournaments:duplicate", args=[competition.pk])).text
    assert url not in overview
    scorecard = client.get(reverse("tournaments:pair", args=[competition.pk, bots.home_id])).text
    assert 'data-testid="scorecard"' not in scorecard

    # The humans check in, play their table, and board 1 opens to them and to everyone.
    pairing = human_pairing(competition)
    players = [u for _entry, users in humans for u in users]
    for user in players:
        manager.check_in(user, pairing.pk)
    pairing.refresh_from_db()
    play_table(pairing.match_id, players)
    client.force_login(players[0])
    page = client.get(url)
    assert page.status_code == 200
    assert page.text.count('data-testid="traveller-row"') == 2
    assert 'data-testid="hand-record"' in page.text
    assert all(f'data-card="{card}"' in page.text for hand in board["deals"][0]["hands"] for card in hand)
    assert all(f'data-card="{card}"' in page.text for card in board["deals"][0]["stock"])
    assert reverse("gameplay:replay", args=[pairing.match_id]) in page.text  # their own table's replay
    assert reverse("gameplay:replay", args=[bots.match_id]) not in page.text  # not public before the end
    client.force_login(make_user("spectator"))
    assert client.get(url).status_code == 200


def test_a_finished_duplicate_shows_the_ranking_boards_scorecards_replays_and_the_download(client):
    competition = duplicate_competition()
    bot_pairs(competition, 4)
    competition = drive(competition, steps=80)
    assert competition.status == Competition.Status.FINISHED
    overview = client.get(reverse("tournaments:duplicate", args=[competition.pk]))
    assert overview.status_code == 200
    assert overview.text.count('data-testid="ranking-percent"') == 4
    assert overview.text.count('data-testid="board-link"') == 3
    assert overview.text.count('data-testid="scorecard-link"') == 4
    detail = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    assert reverse("tournaments:duplicate", args=[competition.pk]) in detail
    board = client.get(reverse("tournaments:board", args=[competition.pk, 2])).text
    assert board.count('data-testid="replay-link"') == 2
    from gameplay.api import board_results_of, deal_words
    first = board_results_of([Pairing.objects.filter(competition=competition, label="G2").first().match_id])
    contract, won = deal_words(next(iter(first.values()))[0])
    assert contract and contract in board and all(what in board for what, _team, _points in won)
    match_ids = set(Pairing.objects.filter(competition=competition).values_list("match_id", flat=True))
    assert all(Match.objects.get(pk=m).is_public for m in match_ids)  # published at the end
    entry = Pairing.objects.filter(competition=competition).first().home_id
    card = client.get(reverse("tournaments:pair", args=[competition.pk, entry])).text
    assert card.count("<tr>") == 1 + 3  # the header and the three boards of a Howell of four pairs
    download = client.get(reverse("tournaments:boards_export", args=[competition.pk]))
    assert download.status_code == 200 and "attachment" in download["Content-Disposition"]
    assert json.loads(download.content) == competition.board_set


def test_the_download_is_refused_while_boards_are_still_to_be_played(client, half_played):
    competition, organiser, _humans = half_played
    client.force_login(organiser)
    assert client.get(reverse("tournaments:boards_export", args=[competition.pk])).status_code == 403
    assert reverse("tournaments:boards_export", args=[competition.pk]) not in client.get(
        reverse("tournaments:duplicate", args=[competition.pk])).text


def test_the_pages_are_in_spanish_and_arabic(client):
    competition = duplicate_competition()
    bot_pairs(competition, 4)
    drive(competition, steps=80)
    for language, words in (("es", ("Tablero 1", "Clasificación")), ("ar", ("اللوح 1", "الترتيب"))):
        overview = client.get(reverse("tournaments:duplicate", args=[competition.pk]), HTTP_ACCEPT_LANGUAGE=language)
        assert all(word in overview.text for word in words), language
        board = client.get(reverse("tournaments:board", args=[competition.pk, 1]), HTTP_ACCEPT_LANGUAGE=language).text
        assert ("Hoja de viaje" if language == "es" else "ورقة النتائج") in board
        # the percentage columns too ({% translate %} doubles a "%" in its msgid)
        assert ("% E-O" if language == "es" else "% ش-غ") in board and "E-W %" not in board


def test_a_page_of_another_format_or_a_board_past_the_set_is_not_found(client):
    swiss = make_competition()
    assert client.get(reverse("tournaments:duplicate", args=[swiss.pk])).status_code == 404
    competition = duplicate_competition()
    bot_pairs(competition, 4)
    drive(competition, steps=80)
    assert client.get(reverse("tournaments:board", args=[competition.pk, 99])).status_code == 403


def test_the_standings_of_a_duplicate_are_its_ranking(client):
    competition = duplicate_competition()
    response = client.get(reverse("tournaments:standings", args=[competition.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:duplicate", args=[competition.pk])


def test_an_open_duplicate_says_which_movements_fit_the_pairs_entered_so_far(client):
    competition = duplicate_competition(starts_in=__import__("datetime").timedelta(days=1), movement="mitchell",
                                        boards_per_round=2)
    bot_pairs(competition, 5)  # and a bot pair: six pairs
    html = client.get(reverse("tournaments:detail", args=[competition.pk]), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Con las 5 parejas inscritas hasta ahora" in html
    assert html.count('data-testid="fit"') == 2  # a Howell and a Mitchell of six pairs
    assert "Mitchell: las parejas Norte-Sur se quedan, las Este-Oeste se mueven (elegido): 3 mesas, 3 rondas, 6 tableros" in html


def test_across_the_tables_of_a_round_no_player_sees_another_tables_cards_before_the_end(client):
    """Two tables of humans play the same board at once (a Howell of four pairs): a player of one
    table may not watch the other, live or replayed, nor may anyone else, and a player opens the
    board only once their own table has finished it."""
    from gameplay.services import reader_of

    competition = duplicate_competition(seeding="hand")
    pairs = human_pairs(competition, 4)
    competition, tables, by_entry = first_round_checked_in(competition, pairs)
    first, second = tables
    assert first.label == second.label  # the same board at both tables, at the same time
    players = by_entry[first.home_id] + by_entry[first.away_id]
    others = by_entry[second.home_id] + by_entry[second.away_id]
    board_url = reverse("tournaments:board", args=[competition.pk, 1])

    play_table(first.match_id, players)
    # The first table has finished board 1; the second has not started it.
    for reader in players:
        assert not reader_of(second.match_id, reader).may_watch
    assert not reader_of(second.match_id, make_user("spectator")).may_watch
    client.force_login(players[0])
    assert client.get(reverse("gameplay:replay", args=[second.match_id])).status_code in (403, 404)
    assert client.get(board_url).status_code == 200  # their own table has finished it
    client.force_login(others[0])
    refused = client.get(board_url)
    assert refused.status_code == 403 and "data-card" not in refused.text
    first_match = Match.objects.get(pk=first.match_id)
    assert not first_match.is_public
    assert client.get(reverse("gameplay:replay", args=[first.match_id])).status_code in (403, 404)

    play_table(second.match_id, others)
    assert client.get(board_url).status_code == 200


def test_a_running_duplicates_round_page_offers_no_watch_link_to_a_table_only_its_players_may_watch(client, half_played):
    competition, _organiser, _humans = half_played
    bots = bots_pairing(competition)
    html = client.get(reverse("tournaments:round", args=[competition.pk, 1])).text
    assert reverse("gameplay:replay", args=[bots.match_id]) not in html
    assert 'data-testid="players-only"' in html
