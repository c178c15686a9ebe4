"""Issue 31's organiser defects, each held by a test: a double elimination keeps its grand-final
reset, Start now never cancels, corrections are checked against the match's format, the forms keep
what was typed and answer beside the field."""

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tests.competitions_db.test_organiser_controls import form_data
from tournaments.models import AuditEntry, Competition, Pairing
from tournaments.services import CompetitionError, controls, entries

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("organiser")


@pytest.fixture
def club(organiser):
    return make_club(organiser, time_zone="Europe/Madrid")


# ----- 1. the grand-final reset ------------------------------------------------------------------

def box_ticked(html: str, name: str) -> bool:
    box = re.search(rf'<input type="checkbox" name="{name}"[^>]*>', html)
    assert box, f"no {name} box"
    return " checked" in box.group(0)


def test_switching_the_format_to_double_elimination_shows_the_reset_ticked(client, organiser, club):
    client.force_login(organiser)
    data = form_data(format="double_elimination")  # what the Swiss page sent: no reset box on it
    html = client.get(reverse("tournaments:new", args=[club.slug]), data, HTTP_HX_REQUEST="true",
                      HTTP_HX_TRIGGER_NAME="format").text
    assert box_ticked(html, "grand_final_reset")


def test_an_unticked_reset_stays_unticked_when_the_game_changes(client, organiser, club):
    client.force_login(organiser)
    data = form_data(format="double_elimination", shown="grand_final_reset")  # shown, left unticked
    html = client.get(reverse("tournaments:new", args=[club.slug]), data, HTTP_HX_REQUEST="true",
                      HTTP_HX_TRIGGER_NAME="game").text
    assert not box_ticked(html, "grand_final_reset")


def test_a_double_elimination_created_without_a_choice_has_its_reset(client, organiser, club):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new", args=[club.slug]), form_data(format="double_elimination"))
    assert response.status_code == 302
    assert Competition.objects.get(name="Winter Cup").grand_final_reset is True


@pytest.mark.parametrize("ticked", [True, False])
def test_the_reset_the_organiser_saw_and_chose_is_kept(client, organiser, club, ticked):
    client.force_login(organiser)
    data = form_data(format="double_elimination", shown="grand_final_reset")
    if ticked:
        data["grand_final_reset"] = "on"
    client.post(reverse("tournaments:new", args=[club.slug]), data)
    assert Competition.objects.get(name="Winter Cup").grand_final_reset is ticked


def test_the_form_names_the_reset_box_it_shows(client, organiser, club):
    client.force_login(organiser)
    html = client.get(reverse("tournaments:new", args=[club.slug]), form_data(format="double_elimination"),
                      HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="format").text
    assert '<input type="hidden" name="shown" value="grand_final_reset">' in html


@pytest.mark.parametrize("reset, words", [(True, "se vuelve a jugar"), (False, "una sola vez")])
def test_the_competition_page_says_whether_the_reset_is_on(client, club, reset, words):
    competition = make_competition(club, format="double_elimination", grand_final_reset=reset,
                                   starts_in=timedelta(days=1))
    html = client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert 'data-testid="grand-final-reset"' in html and words in html


# ----- 2. Start now never cancels ----------------------------------------------------------------

@pytest.mark.parametrize("confirmed, words", [(0, "no tiene ninguna"), (1, "solo tiene una")])
@pytest.mark.parametrize("way", ["page", "tool"])
def test_start_now_with_fewer_than_two_pairs_says_why_and_changes_nothing(client, organiser, club, confirmed,
                                                                          words, way):
    competition = make_competition(club, starts_in=timedelta(days=1), created_by=organiser)
    human_pairs(competition, confirmed)
    inviter, partner = make_user(), make_user()
    for user in (inviter, partner):
        Membership.objects.create(club=club, user=user)
    entries.enter(competition, inviter, partner)  # an invitation not yet accepted
    before = (competition.starts_at, competition.entries.count())
    client.force_login(organiser)
    if way == "page":
        response = client.post(reverse("tournaments:start_now", args=[competition.pk]), follow=True,
                               HTTP_ACCEPT_LANGUAGE="es")
    else:
        response = client.post(reverse("tournaments:manage", args=[competition.pk]), {"tool": "start_now"},
                               follow=True, HTTP_ACCEPT_LANGUAGE="es")
    competition.refresh_from_db()
    assert competition.status == Competition.Status.OPEN
    assert (competition.starts_at, competition.entries.count()) == before
    assert not AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.CANCELLED).exists()
    assert words in response.text and "No se ha cambiado nada" in response.text
    assert "La competición ha empezado" not in response.text


def test_start_now_with_two_pairs_starts_under_the_organiser(client, organiser, club):
    competition = make_competition(club, starts_in=timedelta(days=1), created_by=organiser)
    human_pairs(competition, 2)
    client.force_login(organiser)
    client.post(reverse("tournaments:start_now", args=[competition.pk]))
    competition.refresh_from_db()
    assert competition.status == Competition.Status.RUNNING
    assert AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.STARTED).actor == organiser


# ----- 3. corrections checked against the match's format -----------------------------------------

def decided_swiss(club, organiser, best_of=1):
    from tests.competitions_db.test_organiser_controls import running_swiss
    competition, pairing, pairs = running_swiss(club, organiser)
    Competition.objects.filter(pk=competition.pk).update(best_of=best_of)
    controls.award_walkover(competition, pairing.pk, "home", organiser, "no show")
    pairing.refresh_from_db()
    return competition, pairing


def correct(client, competition, pairing, language="en", **data):
    from tournaments.services.controls import pairing_state
    fields = {f"p{pairing.pk}-{k}": v for k, v in data.items()}
    fields["seen"] = pairing_state(Pairing.objects.select_related("match").get(pk=pairing.pk))
    return client.post(reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, "correct"]), fields,
                       HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)


def test_an_impossible_correction_is_refused_beside_its_field_and_changes_nothing(client, organiser, club):
    competition, pairing = decided_swiss(club, organiser)
    client.force_login(organiser)
    response = correct(client, competition, pairing, "es", winner="away", home_points=0, away_points=5, reason="typo")
    html = response.text
    assert "como mucho un juego" in html
    field = field_block(html, f"p{pairing.pk}-away_points")
    assert "como mucho un juego" in field and 'value="5"' in field  # beside the field, as typed
    assert (Pairing.objects.get(pk=pairing.pk).winner_id, AuditEntry.objects.filter(
        action=AuditEntry.Action.OVERRIDDEN).count()) == (pairing.home_id, 0)


def test_the_manage_tool_override_is_checked_too(client, organiser, club):
    competition, pairing = decided_swiss(club, organiser, best_of=3)
    client.force_login(organiser)
    client.post(reverse("tournaments:manage", args=[competition.pk]), {
        "tool": "override", "pairing": pairing.pk, "winner": "home", "home_points": 1, "away_points": 2,
        "reason": "typo"})
    assert Pairing.objects.get(pk=pairing.pk).source == Pairing.Source.WALKOVER


def test_a_possible_correction_in_a_best_of_three_is_kept(client, organiser, club):
    competition, pairing = decided_swiss(club, organiser, best_of=3)
    client.force_login(organiser)
    correct(client, competition, pairing, winner="away", home_points=1, away_points=2, reason="misread")
    pairing.refresh_from_db()
    assert (pairing.winner_id, pairing.home_points, pairing.away_points) == (pairing.away_id, 1, 2)


def test_the_correction_form_shows_the_current_result(client, organiser, club):
    competition, pairing = decided_swiss(club, organiser)
    client.force_login(organiser)
    html = client.get(reverse("tournaments:round", args=[competition.pk, pairing.round_number]),
                      HTTP_ACCEPT_LANGUAGE="es").text
    form = html[html.index('data-testid="control-correct"'):]
    form = form[:form.index("</form>")]
    assert f"Resultado actual: {pairing.home.name} 0–0 {pairing.away.name} (Incomparecencia)" in form
    assert re.search(r'<option value="home" selected>', form)


# ----- 5. Add a pair and Move this round keep what was typed -------------------------------------

def field_block(html: str, name: str) -> str:
    """The form field's own block: its label, help, errors and box (up to the next field)."""
    return re.search(rf'<label for="id_{name}".*?(?=<label for=|</form>)', html, re.S).group(0)


def test_add_a_pair_with_an_unknown_player_keeps_what_was_typed_and_answers_beside_the_field(client, organiser,
                                                                                             club):
    competition = make_competition(club, starts_in=timedelta(days=1), created_by=organiser)
    known = make_user()
    client.force_login(organiser)
    response = client.post(reverse("tournaments:manage", args=[competition.pk]), {
        "tool": "add_pair", "first": known.username, "second": "nobody-here", "name": "Los Ases"},
        HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    html = response.text
    assert "nobody-here" in field_block(html, "second") and "errorlist" in field_block(html, "second")
    assert f'value="{known.username}"' in field_block(html, "first")
    assert 'value="Los Ases"' in field_block(html, "name")
    assert not competition.entries.exists()


def test_add_a_pair_with_a_player_already_entered_says_so_beside_that_player(client, organiser, club):
    competition = make_competition(club, starts_in=timedelta(days=1), created_by=organiser)
    (_entry, (taken, _partner)), = human_pairs(competition, 1)
    newcomer = make_user()
    client.force_login(organiser)
    response = client.post(reverse("tournaments:manage", args=[competition.pk]), {
        "tool": "add_pair", "first": newcomer.username, "second": taken.username})
    assert response.status_code == 400
    assert "already in a pair" in field_block(response.text, "second")
    assert competition.entries.count() == 1


def league_of_four_weeks(club, organiser):
    from tournaments.services import manager
    competition = make_competition(club, format="league", round_interval=timedelta(days=7), created_by=organiser)
    human_pairs(competition, 4)
    manager.step(competition.pk)
    return competition


def test_moving_league_week_two_after_weeks_three_and_four_is_refused_beside_the_field(client, organiser, club):
    competition = league_of_four_weeks(club, organiser)
    week2 = competition.rounds.get(number=2)
    before = week2.starts_at
    later = timezone.localtime(competition.rounds.get(number=4).starts_at + timedelta(days=1),
                               timezone.get_fixed_timezone(60))  # Madrid in winter
    client.force_login(organiser)
    typed = later.strftime("%Y-%m-%dT%H:%M")
    response = client.post(reverse("tournaments:move_round", args=[competition.pk, 2]),
                           {"starts_at": typed, "reason": "Club closed"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    block = field_block(response.text, "starts_at")
    assert "antes de la ronda 3" in block and f'value="{typed}"' in block
    assert 'value="Club closed"' in field_block(response.text, "reason")
    week2.refresh_from_db()
    assert week2.starts_at == before
    assert not AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.RESCHEDULED).exists()


def test_a_week_moved_within_its_place_is_moved(client, organiser, club):
    competition = league_of_four_weeks(club, organiser)
    week2 = competition.rounds.get(number=2)
    moved = timezone.localtime(week2.starts_at + timedelta(days=1), timezone.get_fixed_timezone(60))
    client.force_login(organiser)
    response = client.post(reverse("tournaments:move_round", args=[competition.pk, 2]),
                           {"starts_at": moved.strftime("%Y-%m-%dT%H:%M")})
    assert response.status_code == 302
    week2.refresh_from_db()
    assert week2.starts_at == moved.replace(second=0, microsecond=0)


# ----- 7. smaller items --------------------------------------------------------------------------

def test_the_losers_bracket_numbers_its_rounds_from_one():
    from tournaments.brackets import node_titles
    from tournaments.formats import double_elimination
    from tournaments.formats.base import Options
    from tournaments.formats.bracket import schedule
    nodes = double_elimination.nodes(8, Options())
    titles = node_titles(nodes, schedule(nodes), single=False)
    losers = sorted(titles[n.label] for n in nodes if n.bracket == "losers")
    assert any(title.startswith("Losers' round 1") for title in losers), losers
    assert not any(title.startswith(f"Losers' round {n}") for n in (5, 6, 7) for title in losers), losers


def test_the_bracket_page_heads_the_losers_first_column_round_one(client, club):
    competition = make_competition(club, format="double_elimination")
    from tests.competitions_db.helpers import bot_pairs
    from tournaments.services import manager
    bot_pairs(competition, 4)
    manager.step(competition.pk)
    html = client.get(reverse("tournaments:bracket", args=[competition.pk])).text
    assert "Losers&#x27; round 1" in html or "Losers' round 1" in html


def test_standings_show_the_games_difference_with_its_sign(client, club):
    from tests.competitions_db.helpers import bot_pairs
    from tournaments.models import Standing
    competition = make_competition(club, format="round_robin")
    bot_pairs(competition, 2)
    from tournaments.services import manager
    manager.step(competition.pk)
    Standing.objects.filter(competition=competition, position=1).update(games_for=6, games_against=1)
    html = client.get(reverse("tournaments:standings", args=[competition.pk])).text
    cell = re.search(r'<span title="6–1" data-testid="games-difference">([^<]*)</span>', html).group(1)
    assert cell.strip("\u2066\u2069") == "+5"


def test_the_spanish_round_page_calls_the_home_column_local_not_inicio(client, club):
    from tests.competitions_db.helpers import bot_pairs
    from tournaments.services import manager
    competition = make_competition(club)
    bot_pairs(competition, 2)
    manager.step(competition.pk)
    html = client.get(reverse("tournaments:round", args=[competition.pk, 1]), HTTP_ACCEPT_LANGUAGE="es").text
    head = html[html.index('data-testid="round-pairings"'):html.index("</thead>")]
    assert "<th>Local</th><th>Visitante</th>" in head and "Inicio" not in head


def test_a_walkover_is_marked_in_the_bracket_and_on_the_round_page_not_shown_as_0_0(client, organiser, club):
    from tests.competitions_db.helpers import bot_pairs
    from tournaments.services import manager
    competition = make_competition(club, format="single_elimination", created_by=organiser)
    bot_pairs(competition, 4)
    manager.step(competition.pk)
    pairing = Pairing.objects.filter(competition=competition, away__isnull=False).order_by("slot").first()
    controls.award_walkover(competition, pairing.pk, "away", organiser, "never came")
    pairing.refresh_from_db()
    html = client.get(reverse("tournaments:bracket", args=[competition.pk])).text
    box = re.search(rf'data-box="{pairing.label}">.*?</g>', html, re.S).group(0)
    assert re.search(r'class="points"[^>]*>W/O<', box), box
    assert not re.search(r'class="points"[^>]*>0<', box)
    html = client.get(reverse("tournaments:round", args=[competition.pk, 1])).text
    row = html[html.index(f'id="pairing-{pairing.pk}"'):]
    result = re.search(r'data-testid="pairing-result">([^<]*)<', row).group(1)
    assert "0–0" not in result and "Walkover" in result


def test_long_box_labels_of_a_spanish_double_elimination_are_not_cut(client, club):
    from tests.competitions_db.helpers import bot_pairs
    from tournaments.services import manager
    competition = make_competition(club, format="double_elimination")
    bot_pairs(competition, 16)
    manager.step(competition.pk)
    html = client.get(reverse("tournaments:bracket", args=[competition.pk]), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Perdedor de Ronda de ganadores 1 · partida" in html
    assert "…" not in html


def test_a_league_week_is_typed_in_days(client, organiser, club):
    client.force_login(organiser)
    swiss_page = form_data(round_interval="30", interval_unit="minutes")
    html = client.get(reverse("tournaments:new", args=[club.slug]), {**swiss_page, "format": "league"},
                      HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="format", HTTP_ACCEPT_LANGUAGE="es").text
    assert "(días)" in html and "minutos)" not in field_block(html, "round_interval")
    assert re.search(r'name="round_interval" value="7"', html)  # 30 minutes is no week: the default instead
    assert '<input type="hidden" name="interval_unit" value="days">' in html
    response = client.post(reverse("tournaments:new", args=[club.slug]), form_data(
        format="league", round_interval="7", interval_unit="days"))
    assert response.status_code == 302
    assert Competition.objects.get(name="Winter Cup").round_interval == timedelta(days=7)


def test_minutes_sent_for_a_league_are_refused_not_read_as_days(client, organiser, club):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new", args=[club.slug]), form_data(
        format="league", round_interval="10080", interval_unit="minutes"))
    assert response.status_code == 200 and not Competition.objects.exists()
    assert response.context["form"].errors.get("round_interval")


def test_the_league_page_says_a_fixture_is_lost_at_the_end_of_its_week(client, club):
    competition = make_competition(club, format="league", round_interval=timedelta(days=7),
                                   starts_in=timedelta(days=1))
    html = client.get(competition.get_absolute_url()).text
    rule = re.search(r'data-testid="no-show-rule">([^<]*)<', html).group(1)
    assert "when the week ends" in rule and "after the start" not in rule


# ----- 8. edit a competition before it starts ----------------------------------------------------

def created(client, organiser, club, **changes):
    client.force_login(organiser)
    client.post(reverse("tournaments:new", args=[club.slug]), form_data(**changes))
    return Competition.objects.get()


def edit_data(client, competition, **changes):
    """What the edit page posts as it stands (its own values, its `seen`), with `changes` typed in."""
    html = client.get(reverse("tournaments:edit", args=[competition.pk])).text
    seen = re.search(r'name="seen" value="([^"]+)"', html).group(1)
    data = form_data(**{key: value for key, value in changes.items()})
    return {**data, "seen": seen}


def test_the_competition_page_leads_to_an_edit_form_showing_every_current_value(client, organiser, club):
    competition = created(client, organiser, club, format="double_elimination", shown="grand_final_reset",
                          game="cuatrola", preset="standard", best_of="3", grace="7",
                          starts_at="2030-06-01T18:00")
    detail = client.get(competition.get_absolute_url()).text
    assert reverse("tournaments:edit", args=[competition.pk]) in detail
    response = client.get(reverse("tournaments:edit", args=[competition.pk]), HTTP_ACCEPT_LANGUAGE="es")
    form = response.context["form"]
    html = response.text
    assert 'value="Winter Cup"' in html and 'value="2030-06-01T18:00"' in html  # the club's zone, Madrid
    assert form["format"].value() == "double_elimination" and form["game"].value() == "cuatrola"
    assert str(form["best_of"].value()) == "3" and str(form["grace"].value()) == "7"
    assert not box_ticked(html, "grand_final_reset")  # as it was saved: shown and left unticked
    assert f'action="{reverse("tournaments:edit", args=[competition.pk])}"' in html
    assert "Guardar los cambios" in html


def test_every_field_can_be_edited_before_the_start_and_the_edit_is_audited(client, organiser, club):
    competition = created(client, organiser, club)
    human_pairs(competition, 2)
    slug = competition.slug
    data = edit_data(client, competition, name="Spring Cup", format="single_elimination",
                     third_place_match="on", shown="third_place_match", seeding="hand", visibility="members",
                     starts_at="2031-03-01T19:30", entries_close_at="2031-03-01T19:00", round_interval="20",
                     check_in="30", grace="12", reconnect_seconds="120", leaver_policy="bot", game="cuatrola",
                     preset="standard", time_control="60", best_of="3", bot_level="easy")
    response = client.post(reverse("tournaments:edit", args=[competition.pk]), data)
    assert response.status_code == 302, response.context["form"].errors
    competition.refresh_from_db()
    assert (competition.name, competition.format, competition.third_place_match, competition.seeding,
            competition.visibility, competition.game, competition.preset, competition.time_control,
            competition.best_of, competition.substitute_bot, competition.leaver_policy,
            competition.reconnect_seconds) == (
        "Spring Cup", "single_elimination", True, "hand", "members", "cuatrola", "standard", 60, 3, "easy", "bot", 120)
    assert competition.starts_at.isoformat() == "2031-03-01T18:30:00+00:00"  # 19:30 in Madrid
    assert (competition.round_interval, competition.check_in, competition.grace) == (
        timedelta(minutes=20), timedelta(minutes=30), timedelta(minutes=12))
    assert competition.slug == slug and competition.entries.count() == 2  # its address and pairs stay
    audit = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.EDITED)
    assert audit.actor == organiser and {"name", "format", "game", "starts_at"} <= set(audit.detail["changed"])
    assert audit.detail["changed"]["name"] == ["Winter Cup", "Spring Cup"]
    page = client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    assert "editó la competición antes de que empezara" in page and "Nombre" in page


def test_a_started_competition_cannot_be_edited_this_way(client, organiser, club):
    """After the start the edit page has only what can still change (test_competition_life.py); the
    whole form posted from before the start is refused as stale and changes nothing."""
    competition = created(client, organiser, club)
    data = edit_data(client, competition, name="Too late", format="round_robin")
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.RUNNING)
    page = client.get(reverse("tournaments:edit", args=[competition.pk]))
    assert page.status_code == 200 and 'name="format"' not in page.text and 'name="starts_at"' not in page.text
    client.post(reverse("tournaments:edit", args=[competition.pk]), data)
    competition.refresh_from_db()
    assert (competition.name, competition.format) == ("Winter Cup", "swiss")
    assert not AuditEntry.objects.filter(action__in=[AuditEntry.Action.EDITED, AuditEntry.Action.EDITED_LIVE]).exists()
    Competition.objects.filter(pk=competition.pk).update(status=Competition.Status.FINISHED)
    assert client.get(reverse("tournaments:edit", args=[competition.pk])).status_code == 302


def test_of_two_organisers_editing_at_once_the_first_wins_and_the_second_is_told(client, organiser, club):
    competition = created(client, organiser, club)
    first = edit_data(client, competition, name="First's name")
    second = edit_data(client, competition, name="Second's name")
    assert client.post(reverse("tournaments:edit", args=[competition.pk]), first).status_code == 302
    response = client.post(reverse("tournaments:edit", args=[competition.pk]), second, follow=True)
    competition.refresh_from_db()
    assert competition.name == "First's name"
    assert "Another organiser changed this competition meanwhile" in response.text
    assert 'value="First&#x27;s name"' in response.text  # the form shows what is now saved
    assert AuditEntry.objects.filter(action=AuditEntry.Action.EDITED).count() == 1


def test_nonsense_in_the_edit_form_is_refused_beside_the_field_and_changes_nothing(client, organiser, club):
    competition = created(client, organiser, club)
    data = edit_data(client, competition, name="Renamed", starts_at="2001-01-01T10:00")
    response = client.post(reverse("tournaments:edit", args=[competition.pk]), data)
    assert response.status_code == 400
    assert response.context["form"].errors.get("starts_at") and 'value="Renamed"' in response.text
    competition.refresh_from_db()
    assert competition.name == "Winter Cup"


def test_only_the_clubs_organisers_may_edit(client, organiser, club):
    competition = created(client, organiser, club)
    client.force_login(make_user())
    assert client.get(reverse("tournaments:edit", args=[competition.pk])).status_code == 403
    assert client.post(reverse("tournaments:edit", args=[competition.pk]), form_data(name="Hijack")).status_code == 403
    competition.refresh_from_db()
    assert competition.name == "Winter Cup"


def test_changing_the_format_on_the_edit_page_keeps_it_the_edit_form(client, organiser, club):
    competition = created(client, organiser, club)
    data = edit_data(client, competition, format="double_elimination")
    html = client.get(reverse("tournaments:edit", args=[competition.pk]), data, HTTP_HX_REQUEST="true",
                      HTTP_HX_TRIGGER_NAME="format").text
    assert f'action="{reverse("tournaments:edit", args=[competition.pk])}"' in html
    assert f'name="seen" value="{data["seen"]}"' in html and box_ticked(html, "grand_final_reset")


class FormReader(HTMLParser):
    """The fields a browser would send from the page's competition form, as it is shown."""

    def __init__(self):
        super().__init__()
        self.data, self.select, self.textarea, self.first_option = {}, None, None, None

    def add(self, name, value):
        self.data.setdefault(name, []).append(value)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.add(name, attrs.get("value", "on"))
            elif kind not in ("submit", "button"):
                self.add(name, attrs.get("value", ""))
        elif tag == "select":
            self.select, self.first_option = name, None
        elif tag == "option" and self.select:
            if self.first_option is None:
                self.first_option = attrs.get("value", "")
            if "selected" in attrs:
                self.add(self.select, attrs.get("value", ""))
        elif tag == "textarea":
            self.textarea = name
            self.add(name, "")

    def handle_endtag(self, tag):
        if tag == "select":
            if self.select not in self.data and self.first_option is not None:
                self.add(self.select, self.first_option)
            self.select = None
        elif tag == "textarea":
            value = self.data[self.textarea][-1]
            self.data[self.textarea][-1] = value[1:] if value.startswith("\n") else value  # as HTML says
            self.textarea = None

    def handle_data(self, data):
        if self.textarea:
            self.data[self.textarea][-1] += data


def what_a_browser_posts(html: str) -> dict:
    form = html[html.index('id="competition-form"'):]
    reader = FormReader()
    reader.feed(form[:form.index("</form>")])
    return {name: values if len(values) > 1 else values[0] for name, values in reader.data.items()}


@pytest.mark.parametrize("changes", [
    {},
    {"format": "league", "round_interval": "7", "interval_unit": "days", "double_round_robin": "on",
     "shown": "double_round_robin"},
    {"format": "double_elimination", "shown": "grand_final_reset"},
    {"game": "baloot", "preset": "saudi_classic"},
])
def test_saving_the_edit_form_untouched_changes_only_what_was_typed(client, organiser, club, changes):
    competition = created(client, organiser, club, **changes)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:edit", args=[competition.pk]))
    data = what_a_browser_posts(page.text)
    data["name"] = "Renamed"
    response = client.post(reverse("tournaments:edit", args=[competition.pk]), data)
    assert response.status_code == 302, response.context["form"].errors
    audit = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.EDITED)
    assert list(audit.detail["changed"]) == ["name"], audit.detail


def switch_format(client, club, html: str, format_key: str) -> str:
    """Change the Format select on the page `html` as a browser does (htmx sends the whole form)."""
    data = what_a_browser_posts(html)
    data.pop("csrfmiddlewaretoken", None)
    data["format"] = format_key
    return client.get(reverse("tournaments:new", args=[club.slug]), data, HTTP_HX_REQUEST="true",
                      HTTP_HX_TRIGGER_NAME="format").text


def test_swiss_rounds_and_an_unticked_reset_survive_a_switch_of_format_and_back(client, organiser, club):
    client.force_login(organiser)
    html = client.get(reverse("tournaments:new", args=[club.slug])).text
    data = what_a_browser_posts(html)
    data.update({"name": "Winter Cup", "swiss_rounds": "5"})
    html = client.get(reverse("tournaments:new", args=[club.slug]), data, HTTP_HX_REQUEST="true",
                      HTTP_HX_TRIGGER_NAME="preset").text
    html = switch_format(client, club, html, "double_elimination")
    assert box_ticked(html, "grand_final_reset")
    data = what_a_browser_posts(html)
    data.pop("grand_final_reset")  # the organiser unticks the reset
    html = client.get(reverse("tournaments:new", args=[club.slug]), {**data, "game": "cuatrola"},
                      HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="game").text
    html = switch_format(client, club, html, "swiss")
    assert re.search(r'name="swiss_rounds" value="5"', html) and 'id="id_swiss_rounds"' in html
    html = switch_format(client, club, html, "double_elimination")
    assert not box_ticked(html, "grand_final_reset")
    response = client.post(reverse("tournaments:new", args=[club.slug]), what_a_browser_posts(html))
    assert response.status_code == 302
    competition = Competition.objects.get()
    assert (competition.format, competition.grand_final_reset, competition.swiss_rounds) == (
        "double_elimination", False, None)


def test_audit_lines_name_the_pairing_and_the_players_they_touched(client, organiser, club):
    from tests.competitions_db.test_organiser_controls import running_swiss
    competition, pairing, pairs = running_swiss(club, organiser)
    newcomer = make_user("rosa")
    Membership.objects.create(club=club, user=newcomer)
    leaving = pairing.home.players.first().user
    controls.substitute(competition, pairing.pk, leaving, newcomer, organiser, "ill")
    controls.award_walkover(competition, pairing.pk, "home", organiser, "never came")
    pairing.refresh_from_db()
    html = client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="es").text
    log = html[html.index('data-testid="audit-log"'):]
    assert f"sale {leaving.username}, entra {newcomer.username}" in log
    from django.utils.html import escape
    assert f'<span data-testid="audit-pairing">{escape(pairing.home.name)} – {escape(pairing.away.name)}</span>' in log


def test_the_round_page_names_who_is_here_and_counts_a_bot_pair_as_present(client, organiser, club):
    from tests.competitions_db.helpers import bot_pairs
    from tournaments.models import CheckIn
    from tournaments.services import manager
    competition = make_competition(club, check_in=timedelta(hours=1), grace=timedelta(hours=1),
                                   created_by=organiser)
    (_entry, (amina, bilal)), = human_pairs(competition, 1)
    bot_pairs(competition, 1)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition, away__isnull=False)
    CheckIn.objects.create(pairing=pairing, user=amina)
    client.force_login(organiser)
    html = client.get(reverse("tournaments:round", args=[competition.pk, 1]), HTTP_ACCEPT_LANGUAGE="es").text
    state = re.search(r'data-testid="check-in-list">(.*?)</span>', html, re.S).group(1)
    assert "Bots 1" in state.split("·")[0] and amina.username in state.split("·")[0]
    assert "Sin confirmar todavía:" in state and bilal.username in state.split("·")[1]
    assert "of 4" not in html and "de 4" not in state


def test_the_arabic_page_writes_check_in_and_grace_without_a_broken_preposition(client, club):
    competition = make_competition(club, starts_in=timedelta(days=1), check_in=timedelta(minutes=2),
                                   grace=timedelta(minutes=2))
    html = client.get(competition.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ar").text
    rule = re.search(r'data-testid="no-show-rule">([^<]*)<', html).group(1)
    assert "بـدقيقتان" not in rule and "قدرها دقيقتان" in rule


def test_latin_names_with_parentheses_are_isolated_in_arabic_headings(client, organiser, club):
    from tests.competitions_db.helpers import bot_pairs
    from tournaments.services import manager
    competition = make_competition(club, created_by=organiser)
    Competition.objects.filter(pk=competition.pk).update(name="Copa (Arima)")
    bot_pairs(competition, 2)
    manager.step(competition.pk)
    client.force_login(organiser)
    for url in (reverse("tournaments:round", args=[competition.pk, 1]),
                reverse("tournaments:standings", args=[competition.pk]),
                reverse("tournaments:manage", args=[competition.pk])):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="ar").text
        assert re.search(r"<h1><bdi>Copa \(Arima\)</bdi>", html), url
    html = client.get(reverse("tournaments:new", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="ar").text
    assert f"<bdi>{club.name}</bdi>" in html and "&lt;bdi" not in html


# ----- results from the club room ----------------------------------------------------------------

def club_control(client, competition, pairing, language="en", **data):
    from tournaments.services.controls import pairing_state
    fields = {f"p{pairing.pk}-{k}": v for k, v in data.items()}
    fields["seen"] = pairing_state(Pairing.objects.select_related("match").get(pk=pairing.pk))
    return client.post(reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, "club"]), fields,
                       HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language)


def unplayed_pairing(club, organiser, best_of=1):
    from tournaments.services import manager
    competition = make_competition(club, grace=timedelta(hours=1), best_of=best_of, created_by=organiser)
    human_pairs(competition, 2)
    manager.step(competition.pk)
    return competition, Pairing.objects.get(competition=competition)


def test_a_match_played_at_the_club_gets_its_result_from_the_round_page(client, organiser, club):
    competition, pairing = unplayed_pairing(club, organiser, best_of=3)
    assert pairing.match_id is None and not pairing.decided_at
    client.force_login(organiser)
    page = client.get(reverse("tournaments:round", args=[competition.pk, 1]), HTTP_ACCEPT_LANGUAGE="es").text
    assert 'data-testid="control-club"' in page and "Anotar un resultado jugado en el club" in page
    response = club_control(client, competition, pairing, "es", winner="away", home_points=1, away_points=2,
                            reason="played on table 3")
    assert "Jugada en el club" in response.text
    pairing.refresh_from_db()
    assert (pairing.winner_id, pairing.home_points, pairing.away_points, pairing.source, pairing.walkover) == (
        pairing.away_id, 1, 2, Pairing.Source.CLUB, False)
    audit = AuditEntry.objects.get(action=AuditEntry.Action.CLUB_RESULT)
    assert audit.actor == organiser and audit.pairing_id == pairing.pk and audit.reason == "played on table 3"
    standings = client.get(reverse("tournaments:standings", args=[competition.pk])).text
    assert re.search(r'<span title="2–1" data-testid="games-difference">\W*\+1\W*</span>', standings)


def test_an_impossible_club_result_is_refused_beside_its_field(client, organiser, club):
    competition, pairing = unplayed_pairing(club, organiser)
    client.force_login(organiser)
    response = club_control(client, competition, pairing, winner="home", home_points=0, away_points=5)
    assert "at most one game" in field_block(response.text, f"p{pairing.pk}-away_points")
    pairing.refresh_from_db()
    assert not pairing.decided_at
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.CLUB_RESULT).exists()


def test_a_club_result_is_refused_while_the_table_is_open_on_chalk(organiser, club):
    from tournaments.services import manager
    competition = make_competition(club, created_by=organiser)
    from tests.competitions_db.helpers import bot_pairs
    bot_pairs(competition, 2)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition)
    assert pairing.match_id is not None
    with pytest.raises(CompetitionError, match="open on Chalk"):
        controls.enter_club_result(competition, pairing.pk, "home", 1, 0, organiser)
    pairing.refresh_from_db()
    assert pairing.source != Pairing.Source.CLUB
