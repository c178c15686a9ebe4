"""A duplicate competition through the manager (issue 34, docs/duplicate.md): the movement's rounds
are opened by the same steps as every format's, each table plays its round's boards from the
board set made from the recorded seed, and the pairs are ranked by the boards."""

from datetime import timedelta

import pytest

from gameplay.api import engine_game
from gameplay.models import Match
from tests.competitions_db.helpers import bot_pairs, drive, make_competition
from tournaments.duplicate import make_board_set, make_movement, score_event
from tournaments.formats.duplicate import board_group
from tournaments.models import AuditEntry, Competition, Entry, Pairing, Round, Standing
from tournaments.services import duplicate, manager

pytestmark = pytest.mark.django_db


def duplicate_competition(**fields):
    defaults = dict(format="duplicate", game="cuatrola", preset=next(iter(engine_game("cuatrola").presets)),
                    boards_per_round=1, boards_seed=4242)
    defaults.update(fields)
    return make_competition(**defaults)


def test_three_pairs_and_a_bot_pair_play_a_howell_to_the_end_ranked_by_the_boards():
    competition = duplicate_competition(odd_pairs="bot_pair")
    bot_pairs(competition, 3)
    competition = drive(competition, steps=80)

    assert competition.status == Competition.Status.FINISHED
    entries = list(Entry.objects.filter(competition=competition))
    assert len(entries) == 4 and sum(1 for e in entries if e.name == "Bot pair") == 1
    plan = make_movement("howell", 4, 1)
    assert Round.objects.filter(competition=competition).count() == len(plan.rounds) == 3
    # The boards are the seed's, recorded on the competition, and each table played its group's.
    made = make_board_set(engine_game("cuatrola"), 4242, plan.board_count, competition.options)
    assert competition.board_set == made.to_json()
    pairings = list(Pairing.objects.filter(competition=competition).order_by("round_number", "slot"))
    assert all(p.decided_at is not None for p in pairings)
    matches = Match.objects.in_bulk([p.match_id for p in pairings])
    for pairing in pairings:
        group = board_group(pairing.label)
        seating = next(s for s in plan.rounds[pairing.round_number - 1] if s.table == pairing.slot)
        assert group == seating.board_group
        match = matches[pairing.match_id]
        assert match.boards == [made.board(b).to_json() for b in plan.boards_of(group)]
        assert not match.rated and match.games_to_win == 1
    # Every board was played at two tables (a Howell of four pairs), and the ranking adds them up.
    results = [r for _t, r in duplicate.table_results(competition)]
    assert sorted(r.board for r in results) == sorted(list(range(1, plan.board_count + 1)) * 2)
    scores = score_event(results, expected=plan.plays_per_board)
    for board, rows in scores.items():
        assert sum(s.ns for s in rows) + sum(s.ew for s in rows) == rows[0].top * len(rows)
    standings = list(Standing.objects.filter(competition=competition).select_related("entry"))
    assert len(standings) == 3 and not any(s.entry.evens_the_count for s in standings)
    assert all(s.played == 3 for s in standings)
    expected = {row.pair: row for row in duplicate.ranking(competition)}
    for s in standings:
        assert s.points == round(float(expected[s.entry_id].percent), 2)
        assert s.rank == expected[s.entry_id].rank


def test_an_odd_count_that_sits_out_gives_a_bye_each_round_and_ranks_everyone():
    competition = duplicate_competition(odd_pairs="sit_out")
    bot_pairs(competition, 5)
    competition = drive(competition, steps=120)

    assert competition.status == Competition.Status.FINISHED
    assert Entry.objects.filter(competition=competition).count() == 5
    rounds = Round.objects.filter(competition=competition).count()
    assert rounds == 5
    byes = Pairing.objects.filter(competition=competition, away__isnull=True)
    assert byes.count() == 5 and len({b.home_id for b in byes}) == 5  # each pair sits out once
    assert Standing.objects.filter(competition=competition).count() == 5


def test_a_movement_that_does_not_fit_is_replaced_by_one_that_does_and_the_audit_says_so():
    competition = duplicate_competition(movement="mitchell")
    bot_pairs(competition, 4)
    manager.step(competition.pk)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING and competition.movement == "howell"
    started = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.STARTED)
    assert "Howell" in started.reason


def test_a_field_no_movement_fits_is_cancelled_with_the_reason():
    competition = duplicate_competition(odd_pairs="sit_out")
    bot_pairs(competition, 3)  # three pairs fit only with a bot pair
    manager.step(competition.pk)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.CANCELLED
    cancelled = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.CANCELLED)
    assert "No movement fits 3 pairs" in cancelled.reason and "bot pair" in cancelled.reason
    assert not Round.objects.filter(competition=competition).exists()


def test_an_imported_board_set_too_short_for_the_movement_cancels_and_makes_no_table():
    competition = duplicate_competition(boards_per_round=2)
    competition.board_set = make_board_set(engine_game("cuatrola"), 9, 3, competition.options).to_json()
    competition.save()
    bot_pairs(competition, 4)
    manager.step(competition.pk)
    competition.refresh_from_db()
    assert competition.status == Competition.Status.CANCELLED
    assert not Match.objects.exists()


def test_an_imported_board_set_is_played_as_imported():
    competition = duplicate_competition(boards_seed=None)
    imported = make_board_set(engine_game("cuatrola"), 77, 3, competition.options)
    competition.board_set = imported.to_json()
    competition.save()
    bot_pairs(competition, 4)
    competition = drive(competition, steps=80)
    assert competition.status == Competition.Status.FINISHED and competition.boards_seed is None
    match = Match.objects.filter(pairing__competition=competition).first()
    assert match.boards[0]["deals"][0] == imported.board(match.boards[0]["board"]).deal


def test_a_table_played_out_level_still_decides_its_pairing():
    """A duplicate's table ends level when both sides won as many boards: the round must still complete."""
    from gameplay.api import MatchResult
    from django.utils import timezone

    competition = duplicate_competition()
    home, away = bot_pairs(competition, 2)
    round_row = Round.objects.create(competition=competition, number=1, starts_at=timezone.now(),
                                     deadline=timezone.now() + timedelta(minutes=5))
    pairing = Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=1, home=home,
                                     away=away, label="G1")
    level = MatchResult(1, "finished", None, (1, 1), timezone.now(), "played", "")
    assert manager.record_results([pairing], {None: level}, timezone.now(), draws=True)
    pairing.refresh_from_db()
    assert pairing.decided_at is not None and pairing.winner_id is None and not pairing.walkover
    other = Pairing.objects.create(competition=competition, round=round_row, round_number=1, slot=2, home=home,
                                   away=away, label="G1")
    assert not manager.record_results([other], {None: level}, timezone.now())  # other formats: no draws by play



# ----- the organiser's form ------------------------------------------------------------------------

@pytest.fixture
def organiser():
    from tests.competitions_db.helpers import make_user

    return make_user("organiser")


@pytest.fixture
def club(organiser):
    from tests.competitions_db.helpers import make_club

    return make_club(organiser)


def duplicate_form(**changes):
    from tests.competitions_db.test_organiser_controls import form_data

    fields = dict(format="duplicate", game="cuatrola", preset="standard", movement="mitchell",
                  odd_pairs="sit_out", boards_per_round="3", scoring="cross_points")
    return form_data(**{**fields, **changes})


def post_new(client, club, data):
    from django.urls import reverse

    return client.post(reverse("tournaments:new", args=[club.slug]), data)


def test_the_form_makes_a_duplicate_with_its_movement_boards_per_round_scoring_and_seed(client, organiser, club):
    client.force_login(organiser)
    response = post_new(client, club, duplicate_form(boards_seed="31337"))
    assert response.status_code == 302
    competition = Competition.objects.get(name="Winter Cup")
    assert (competition.format, competition.movement, competition.odd_pairs, competition.boards_per_round,
            competition.scoring, competition.boards_seed) == ("duplicate", "mitchell", "sit_out", 3,
                                                              "cross_points", 31337)
    assert competition.board_set == {}


@pytest.mark.parametrize("boards", ["0", "13"])
def test_boards_per_round_outside_one_to_twelve_are_refused(client, organiser, club, boards):
    client.force_login(organiser)
    response = post_new(client, club, duplicate_form(boards_per_round=boards))
    assert response.status_code == 200 and not Competition.objects.exists()
    assert "boards_per_round" in response.context["form"].errors


def test_a_seed_the_club_has_used_is_refused_unless_asked_for(client, organiser, club):
    client.force_login(organiser)
    duplicate_competition(club=club, boards_seed=555)
    response = post_new(client, club, duplicate_form(boards_seed="555"))
    assert response.status_code == 200 and "555" in response.context["form"].errors["boards_seed"][0]
    assert not Competition.objects.filter(name="Winter Cup").exists()
    response = post_new(client, club, duplicate_form(boards_seed="555", reuse_seed="on"))
    assert response.status_code == 302 and Competition.objects.get(name="Winter Cup").boards_seed == 555


def test_an_imported_board_set_is_kept_and_a_bad_one_is_refused_naming_the_board_and_card(client, organiser, club):
    import json

    client.force_login(organiser)
    options = engine_game("cuatrola").resolve_options(dict(engine_game("cuatrola").presets["standard"]))
    good = make_board_set(engine_game("cuatrola"), 8, 6, options).to_json()
    bad = json.loads(json.dumps(good))
    hands = bad["boards"][1]["deals"][0]["hands"]
    twice = hands[1][0]
    hands[0][0] = twice  # a card twice on board 2
    response = post_new(client, club, duplicate_form(imported_boards=json.dumps(bad)))
    error = response.context["form"].errors["imported_boards"][0]
    assert response.status_code == 200 and "board 2" in error and twice in error
    assert not Competition.objects.exists()
    spanish = client.post(reverse_new(club), duplicate_form(imported_boards=json.dumps(bad)), HTTP_ACCEPT_LANGUAGE="es")
    assert f"tablero 2, carta {twice}" in spanish.context["form"].errors["imported_boards"][0]
    assert not Competition.objects.exists()
    response = post_new(client, club, duplicate_form(imported_boards="{not json"))
    assert response.status_code == 200 and not Competition.objects.exists()
    response = post_new(client, club, duplicate_form(imported_boards=json.dumps(good), boards_seed="99"))
    assert response.status_code == 302
    competition = Competition.objects.get(name="Winter Cup")
    assert competition.board_set["boards"] == good["boards"] and competition.boards_seed is None
    assert competition.board_set["options"] == competition.options


def reverse_new(club):
    from django.urls import reverse

    return reverse("tournaments:new", args=[club.slug])


def test_start_now_is_refused_when_no_movement_fits_the_pairs_and_says_what_would(client, organiser, club):
    from django.urls import reverse

    competition = duplicate_competition(club=club, odd_pairs="sit_out", starts_in=timedelta(days=1))
    bot_pairs(competition, 3)
    client.force_login(organiser)
    response = client.post(reverse("tournaments:start_now", args=[competition.pk]), follow=True,
                           HTTP_ACCEPT_LANGUAGE="es")
    competition.refresh_from_db()
    assert competition.status == Competition.Status.OPEN and not Round.objects.filter(competition=competition).exists()
    assert "Ningún movimiento encaja con 3 parejas" in response.text
    Competition.objects.filter(pk=competition.pk).update(odd_pairs="bot_pair")
    client.post(reverse("tournaments:start_now", args=[competition.pk]))
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
