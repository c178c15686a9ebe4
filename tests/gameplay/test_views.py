"""The play pages over HTTP: lobby, new-table form, invitations, table page, archive and export."""

import json
import subprocess
import sys

import pytest

from gameplay import services
from gameplay.models import Match
from gameplay.rules.replay import replay
from gameplay.services import SeatSpec

from .helpers import make_match, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def logged_in(client, user=None):
    user = user or make_user()
    client.force_login(user)
    return user


def finished_match(game="allfours", options=None, **kwargs):
    """A match of four bots, played to its end by the eager bot tasks."""
    match = services.create_match(game, options or {}, [SeatSpec(bot="random")] * 4, seed=11, first_dealer=0,
                                  **kwargs)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def new_table_data(**overrides):
    data = {"game": "allfours", "preset": "short_seven", "time_control": "0", "best_of": "1",
            "is_public": "on", "opt_players": "4", "opt_target_score": "14", "opt_kick_scoring": "trinidad",
            "opt_game_points": "1", "opt_hang_jack_points": "3", "opt_follow_rule": "follow_or_trump",
            "opt_undertrump": "allowed", "opt_give_one_at_game": "allowed", "opt_game_tie": "none",
            "opt_timeout_result": "forfeit_match"}
    data.update(overrides)
    return data


# ----- lobby and archive lists ------------------------------------------------------------------

def test_lobby_lists_open_public_tables_and_tables_being_played_but_not_private_ones(client):
    creator = make_user()
    open_table = services.create_match("baloot", {}, [SeatSpec(user=creator)], created_by=creator)
    private = services.create_match("cuatrola", {}, [SeatSpec(user=creator)], created_by=creator, is_public=False)
    playing, _users = make_match()
    page = client.get("/play/").content.decode()
    assert f"/matches/join/{open_table.invite_code}/" in page
    assert f"/matches/{playing.pk}/" in page
    assert private.invite_code not in page and f"#{private.pk}<" not in page


def test_lobby_shows_a_player_their_own_private_table(client):
    user = logged_in(client)
    private = services.create_match("cuatrola", {}, [SeatSpec(user=user)], created_by=user, is_public=False)
    assert f"/matches/{private.pk}/" in client.get("/play/").content.decode()


def test_archive_lists_finished_matches_filtered_by_game(client):
    allfours = finished_match("allfours", {"target_score": 3})
    cuatrola = finished_match("cuatrola", {"target": 3})
    everything = client.get("/matches/").content.decode()
    assert f"/matches/{allfours.pk}/replay/" in everything and f"/matches/{cuatrola.pk}/replay/" in everything
    only = client.get("/matches/?game=cuatrola").content.decode()
    assert f"/matches/{cuatrola.pk}/replay/" in only and f"/matches/{allfours.pk}/replay/" not in only


# ----- the new-table form -----------------------------------------------------------------------

def test_new_table_needs_a_signed_in_player(client):
    response = client.get("/play/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_new_table_form_offers_the_options_of_the_chosen_game(client):
    logged_in(client)
    page = client.get("/play/new/?game=cuatrola").content.decode()
    assert 'name="opt_must_head"' in page and 'name="opt_target"' in page and "ludoteka_21" in page
    assert 'name="opt_kick_scoring"' not in page


def test_a_valid_form_creates_a_table_with_the_creator_at_seat_zero_and_the_preset_applied(client):
    user = logged_in(client)
    response = client.post("/play/new/", new_table_data())
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert match.options["target_score"] == 7 and match.status == "waiting"
    assert match.seats.get(seat=0).user == user and match.created_by == user


def test_an_option_changed_in_the_form_overrides_the_preset(client):
    logged_in(client)
    client.post("/play/new/", new_table_data(preset="trinidad_standard", opt_target_score="10"))
    assert Match.objects.get().options["target_score"] == 10


def test_filling_with_bots_from_the_form_starts_the_match_at_once(client):
    logged_in(client)
    client.post("/play/new/", new_table_data(fill_with_bots="on", best_of="3", time_control="30"))
    match = Match.objects.get()
    assert match.status == "playing" and match.games_to_win == 2 and match.time_control == 30
    assert match.seats.exclude(bot="").count() == 3


@pytest.mark.parametrize("field, value", [("opt_target_score", "0"), ("opt_hang_jack_points", "-2"),
                                          ("opt_kick_scoring", "barbados"), ("time_control", "7"),
                                          ("game", "poker")])
def test_nonsense_in_the_form_is_an_error_and_creates_nothing(client, field, value):
    logged_in(client)
    response = client.post("/play/new/", new_table_data(**{field: value}))
    assert response.status_code == 200
    assert 'class="errorlist' in response.content.decode()
    assert not Match.objects.exists()


def test_the_engine_explains_a_refused_value_next_to_its_field(client):
    logged_in(client)
    response = client.post("/play/new/", new_table_data(opt_target_score="0"))
    form = response.context["form"]
    assert "positive whole number" in str(form.errors["opt_target_score"])


CUATROLA_TABLE = {"game": "cuatrola", "preset": "standard", "time_control": "0", "best_of": "1",
                  "opt_target": "11", "opt_values_0": "1", "opt_values_1": "2", "opt_values_2": "4",
                  "opt_values_3": "5", "opt_last_trick_bonus": "10", "opt_cante_points": "[20, 40]",
                  "opt_head_reference": "highest", "opt_bidding": "overcall", "opt_first_lead": "mano",
                  "opt_timeout_result": "forfeit_match"}


@pytest.mark.parametrize("solo", ["lots", "-1"])
def test_cuatrola_contract_values_refuse_what_is_not_a_whole_number(client, solo):
    logged_in(client)
    response = client.post("/play/new/", {**CUATROLA_TABLE, "opt_values_1": solo})
    assert response.status_code == 200 and "opt_values" in response.context["form"].errors
    assert not Match.objects.exists()


def test_cuatrola_contract_values_are_one_labelled_box_per_contract_not_json(client):
    # issue 14: the option showed {"pass": 1, "solo": 2, ...}, keys a player had to type
    logged_in(client)
    html = client.get("/play/new/?game=cuatrola", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '"pass"' not in html and "Solo <input" in html and 'name="opt_values_3"' in html
    client.post("/play/new/", {**CUATROLA_TABLE, "opt_values_3": "7"})
    assert Match.objects.get().options["values"] == {"pass": 1, "solo": 2, "cuatrola": 4, "quintola": 7}


def test_htmx_asks_for_only_the_form_when_the_game_changes(client):
    logged_in(client)
    response = client.get("/play/new/?game=baloot", HTTP_HX_REQUEST="true")
    page = response.content.decode()
    # Baloot's default preset is Saudi classic: its own options, not the contract mode's
    assert page.lstrip().startswith("<form") and 'name="opt_sun_priority"' in page
    assert 'name="opt_meld_comparison"' not in page
    assert 'name="opt_game_mode"' not in page and 'name="opt_turn_timer_seconds"' not in page
    contract = client.get("/play/new/?game=baloot&preset=source", HTTP_HX_REQUEST="true").content.decode()
    assert 'name="opt_meld_comparison"' in contract and 'name="opt_sun_priority"' not in contract


def test_each_rule_option_on_the_new_table_form_says_what_it_does_in_spanish_too(client):
    logged_in(client)
    english = client.get("/play/new/?game=cuatrola").content.decode()
    assert "must beat the best card of that suit in the trick if able" in english
    spanish = client.get("/play/new/?game=cuatrola", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "quien sigue el palo debe montar" in spanish and "must beat the best card" not in spanish
    # the explanation is tied to its field for screen readers
    assert 'aria-describedby="id_opt_must_head_helptext"' in spanish and 'id="id_opt_must_head_helptext"' in spanish


def test_a_timed_baloot_table_runs_the_engine_clock_with_the_same_seconds(client):
    logged_in(client)
    client.post("/play/new/", {"game": "baloot", "preset": "source", "time_control": "15", "best_of": "1",
                               "opt_target_score": "151", "opt_target_rule": "greater",
                               "opt_timeout_result": "forfeit_match", "opt_bonus_trick": "last",
                               "opt_no_trump_double": "on", "opt_must_undertrump": "on",
                               "opt_meld_comparison": "best_overall", "opt_tie_rule": "hanging",
                               "opt_annulled_deal_dealer": "next"})
    match = Match.objects.get()
    assert match.time_control == 15 and match.options["turn_timer_seconds"] == 15


# ----- invitations and the waiting table --------------------------------------------------------

def test_the_invite_link_seats_players_and_the_table_starts_when_full(client):
    creator = make_user()
    match = services.create_match("allfours", {}, [SeatSpec(user=creator)], created_by=creator)
    joined = []
    for _ in range(3):
        client.logout()
        joined.append(logged_in(client))
        response = client.get(f"/matches/join/{match.invite_code}/")
        assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == "playing"
    assert [s.user for s in match.seats.order_by("seat")] == [creator, *joined]


def test_the_invite_link_asks_a_stranger_to_sign_in_first(client):
    match, _users = make_match(humans=1)
    response = client.get(f"/matches/join/{match.invite_code}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_joining_a_full_table_lets_you_watch_instead(client):
    match, _users = make_match()
    logged_in(client)
    response = client.get(f"/matches/join/{match.invite_code}/", follow=True)
    assert response.status_code == 200 and "already started" in response.content.decode()


def test_the_waiting_table_shows_the_invite_link_and_the_bots_button_to_its_creator(client):
    creator = logged_in(client)
    match = services.create_match("allfours", {}, [SeatSpec(user=creator)], created_by=creator)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/join/{match.invite_code}/" in page and 'data-testid="fill-bots"' in page
    client.post(f"/matches/{match.pk}/bots/")
    match.refresh_from_db()
    assert match.status == "playing"


def test_only_the_creator_may_fill_a_table_with_bots(client):
    creator = make_user()
    match = services.create_match("allfours", {}, [SeatSpec(user=creator)], created_by=creator)
    logged_in(client)
    assert client.post(f"/matches/{match.pk}/bots/").status_code == 404
    match.refresh_from_db()
    assert match.status == "waiting"


def test_the_table_page_hands_the_client_its_seat_cards_and_labels(client):
    match, users = make_match()
    logged_in(client, users[2])
    response = client.get(f"/matches/{match.pk}/")
    boot = response.context["boot"]
    assert boot["seat"] == 2 and boot["ws"] == f"/ws/matches/{match.pk}/"
    assert len(boot["cards"]["faces"]) == 52 and boot["labels"]["actions"]["beg"] == "Beg"
    assert 'id="table-boot"' in response.content.decode()


def test_a_spectator_of_a_public_table_gets_no_seat(client):
    match, _users = make_match()
    logged_in(client)
    assert client.get(f"/matches/{match.pk}/").context["boot"]["seat"] is None


def test_private_tables_are_not_found_by_strangers(client):
    match, users = make_match(is_public=False)
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    logged_in(client)
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    client.force_login(users[1])
    assert client.get(f"/matches/{match.pk}/").status_code == 200


def test_a_private_finished_match_is_not_exported_or_replayed_for_strangers(client):
    match = finished_match("allfours", {"target_score": 3}, is_public=False)
    logged_in(client)
    assert client.get(f"/matches/{match.pk}/export.json").status_code == 404
    assert client.get(f"/matches/{match.pk}/replay/").status_code == 404
    assert client.get(f"/matches/{match.pk}/replay/timeline.json").status_code == 404


# ----- archive and export -----------------------------------------------------------------------

def test_export_is_404_to_everyone_while_the_match_is_being_played(client):
    match, users = make_match()
    client.force_login(users[0])
    assert client.get(f"/matches/{match.pk}/export.json").status_code == 404
    assert client.get(f"/matches/{match.pk}/replay/").status_code == 404
    assert client.get(f"/matches/{match.pk}/replay/timeline.json").status_code == 404


@pytest.mark.parametrize("game, options", [("allfours", {"target_score": 5}), ("baloot", {"target_score": 60}),
                                           ("cuatrola", {"target": 5})])
def test_an_exported_finished_match_replays_to_the_same_scores(client, game, options):
    match = finished_match(game, options)
    scenario = client.get(f"/matches/{match.pk}/export.json").json()
    result, status = replay(scenario)
    assert status == 0
    assert result["error"] is None
    assert result["score"] == match.result["games"][0]["score"]
    assert result["winner"] == match.winner


def test_the_command_line_replays_an_export(client, tmp_path):
    match = finished_match("allfours", {"target_score": 4})
    path = tmp_path / "match.json"
    path.write_bytes(client.get(f"/matches/{match.pk}/export.json").content)
    run = subprocess.run([sys.executable, "-m", "gameplay.rules", "replay", str(path)], capture_output=True,
                         text=True, check=True)
    assert json.loads(run.stdout)["score"] == match.result["games"][0]["score"]


def test_export_picks_one_game_of_a_best_of_n_match(client):
    match = finished_match("allfours", {"target_score": 3}, games_to_win=2)
    games = match.result["games"]
    assert len(games) >= 2
    for number, game in enumerate(games):
        assert replay(client.get(f"/matches/{match.pk}/export.json?game={number}").json())[0]["score"] == game["score"]
    assert client.get(f"/matches/{match.pk}/export.json?game={len(games)}").status_code == 404
    assert client.get(f"/matches/{match.pk}/export.json?game=x").status_code == 404


def test_the_replay_page_carries_every_hand_at_every_step(client):
    match = finished_match("baloot", {"target_score": 40})
    response = client.get(f"/matches/{match.pk}/replay/")
    assert response.status_code == 200
    script = response.content.decode().split('<script id="replay-boot" type="application/json">')[1]
    timeline = json.loads(script.split("</script>")[0])["timeline"]  # what replay.js fetches
    games = client.get(timeline).json()
    first = games[0][0]
    assert first["action"] is None and [len(hand) for hand in first["hands"]] == [5, 5, 5, 5]
    deal_starts = sum(frame["action"] is None for frames in games for frame in frames)  # one step per deal's start
    assert sum(len(frames) for frames in games) == match.seq + deal_starts
    assert all(frame["view"].get("hand") is None for frames in games for frame in frames)
