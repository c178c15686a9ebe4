"""The organiser's journey without a browser: the ways in, the competition form that keeps its
values and refuses nonsense beside the field, and the controls on a pairing (each audited under
the person, refused once it no longer applies; of two organisers acting at once, one wins)."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership
from tests.competitions_db.helpers import bot_pairs, human_pairs, make_club, make_competition, make_user
from gameplay.models import Match, MatchAction
from gameplay.services import current_state
from tournaments.models import AuditEntry, Competition, Notification, Pairing, Round
from tournaments.notices import text_of
from tournaments.services import controls, manager

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return make_user("organiser")


@pytest.fixture
def club(organiser):
    return make_club(organiser, time_zone="Europe/Madrid")


def form_data(**changes):
    data = {"name": "Winter Cup", "format": "swiss", "seeding": "rating", "visibility": "public",
            "starts_at": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"), "entries_close_at": "",
            "round_interval": "0", "check_in": "15", "grace": "10", "swiss_rounds": "3", "game": "allfours",
            "preset": "trinidad_standard", "time_control": "30", "best_of": "1"}
    data.update(changes)
    return {**option_values(data["game"], data["preset"]), **data}


def option_values(game: str, preset: str) -> dict:
    """The rule options as the form shows them for this game and preset (what a browser posts)."""
    from tournaments.forms import CompetitionForm
    form = CompetitionForm(game=game, preset=preset)
    values = {}
    for field in form.option_fields():
        if field.widget_type != "checkbox":
            values[field.name] = field.value()
        elif field.value():
            values[field.name] = "on"
    return values


def test_the_club_page_and_the_competitions_page_offer_new_competition_to_organisers(client, organiser, club):
    client.force_login(organiser)
    new = reverse("tournaments:new", args=[club.slug])
    assert new in client.get(club.get_absolute_url()).text
    assert new in client.get(reverse("tournaments:list")).text
    member = make_user()
    Membership.objects.create(club=club, user=member)
    client.force_login(member)
    assert new not in client.get(club.get_absolute_url()).text


def test_changing_the_game_keeps_name_format_and_start_and_brings_the_new_games_presets(client, organiser, club):
    client.force_login(organiser)
    data = form_data(game="cuatrola", format="single_elimination", third_place_match="on")
    response = client.get(reverse("tournaments:new", args=[club.slug]), data, HTTP_HX_REQUEST="true",
                          HTTP_HX_TRIGGER_NAME="game")
    html = response.text
    assert 'value="Winter Cup"' in html and data["starts_at"] in html
    assert '<option value="single_elimination" selected>' in html
    assert 'name="third_place_match"' in html and "checked" in html
    assert 'id="id_swiss_rounds"' not in html  # a Swiss field, not shown for a knockout (only carried, hidden)
    assert "trinidad_standard" not in html and 'value="standard"' in html


def test_the_start_is_entered_and_shown_in_the_clubs_zone_with_a_usable_default_in_spanish(client, organiser, club):
    client.force_login(organiser)
    html = client.get(reverse("tournaments:new", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="es").text
    assert "Europe/Madrid" in html
    default = timezone.localtime(timezone.now() + timedelta(days=1), timezone.get_fixed_timezone(0))
    assert f'value="{default:%Y-}' in html and 'type="datetime-local"' in html
    response = client.post(reverse("tournaments:new", args=[club.slug]), form_data(
        starts_at="2030-06-01T18:00", game="cuatrola", preset="standard"))
    competition = Competition.objects.get(name="Winter Cup")
    assert response.status_code == 302
    assert competition.starts_at.isoformat() == "2030-06-01T16:00:00+00:00"  # 18:00 in Madrid (summer)


@pytest.mark.parametrize("changes, field", [
    ({"starts_at": "2001-01-01T10:00"}, "starts_at"),
    ({"entries_close_at": "2031-01-01T10:00", "starts_at": "2030-01-01T10:00"}, "entries_close_at"),
    ({"swiss_rounds": "0"}, "swiss_rounds"),
    ({"swiss_rounds": "10000"}, "swiss_rounds"),
    ({"preset": "no_such_rules"}, "preset"),
    ({"game": "baloot", "preset": "trinidad_standard"}, "preset"),
])
def test_nonsense_in_the_form_is_refused_beside_its_field_and_creates_nothing(client, organiser, club, changes, field):
    client.force_login(organiser)
    response = client.post(reverse("tournaments:new", args=[club.slug]), form_data(**changes))
    assert response.status_code == 200
    assert not Competition.objects.exists()
    assert response.context["form"].errors.get(field), response.context["form"].errors
    assert 'value="Winter Cup"' in response.text


def test_a_forged_club_is_refused(client, organiser, club):
    client.force_login(organiser)
    other = make_club()
    assert client.post(reverse("tournaments:new", args=[other.slug]), form_data()).status_code == 403
    assert client.get(reverse("tournaments:new", args=["no-such-club"])).status_code == 404


def running_swiss(club, organiser):
    competition = make_competition(club, format="swiss", swiss_rounds=2, created_by=organiser)
    pairs = human_pairs(competition, 2)
    for _entry, users in pairs:
        for user in users:
            Membership.objects.create(club=club, user=user)
    manager.step(competition.pk)
    pairing = Pairing.objects.filter(competition=competition, away__isnull=False).first()
    return competition, pairing, pairs


def control(client, competition, pairing, action, **data):
    url = reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, action])
    from tournaments.services.controls import pairing_state
    fields = {f"p{pairing.pk}-{k}": v for k, v in data.items()}
    fields.setdefault("seen", pairing_state(Pairing.objects.select_related("match").get(pk=pairing.pk)))
    return client.post(url, fields, HTTP_HX_REQUEST="true")


def test_a_walkover_changes_the_pairing_in_place_and_is_logged_under_the_organiser(client, organiser, club):
    competition, pairing, _ = running_swiss(club, organiser)
    client.force_login(organiser)

    response = control(client, competition, pairing, "walkover", winner="home", reason="Away pair never came")

    assert response.status_code == 200 and f'id="pairing-{pairing.pk}"' in response.text
    pairing.refresh_from_db()
    assert (pairing.winner_id, pairing.walkover) == (pairing.home_id, True)
    entry = AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.WALKOVER)
    assert (entry.actor, entry.reason, entry.pairing_id) == (organiser, "Away pair never came", pairing.pk)


def test_of_two_organisers_acting_on_one_pairing_the_second_is_told_what_happened(client, organiser, club):
    competition, pairing, _ = running_swiss(club, organiser)
    from tournaments.services.controls import pairing_state
    seen = pairing_state(pairing)
    client.force_login(organiser)
    control(client, competition, pairing, "walkover", winner="home", reason="first", seen=seen)

    response = client.post(reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, "walkover"]),
                           {"seen": seen, f"p{pairing.pk}-winner": "away", f"p{pairing.pk}-reason": "second"},
                           HTTP_HX_REQUEST="true")

    assert "changed meanwhile" in response.text
    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.home_id
    assert AuditEntry.objects.filter(action=AuditEntry.Action.WALKOVER).count() == 1


def test_correcting_a_result_needs_a_reason_and_is_kept_with_it(client, organiser, club):
    competition, pairing, _ = running_swiss(club, organiser)
    client.force_login(organiser)
    control(client, competition, pairing, "walkover", winner="home", reason="no show")
    pairing.refresh_from_db()

    refused = control(client, competition, pairing, "correct", winner="away", home_points=0, away_points=1, reason="")
    assert "error" in refused.text
    control(client, competition, pairing, "correct", winner="away", home_points=0, away_points=1,
            reason="They had come; the check-in failed")

    pairing.refresh_from_db()
    assert pairing.winner_id == pairing.away_id
    assert AuditEntry.objects.get(action=AuditEntry.Action.OVERRIDDEN).reason == "They had come; the check-in failed"


def test_a_substitute_comes_from_the_clubs_members(client, organiser, club):
    competition, pairing, pairs = running_swiss(club, organiser)
    newcomer = make_user()
    Membership.objects.create(club=club, user=newcomer)
    outsider = make_user()
    leaving = pairs[0][1][0] if pairs[0][0].pk in (pairing.home_id, pairing.away_id) else pairs[1][1][0]
    client.force_login(organiser)

    refused = control(client, competition, pairing, "substitute", old=leaving.pk, new=outsider.pk)
    assert "error" in refused.text
    control(client, competition, pairing, "substitute", old=leaving.pk, new=newcomer.pk, reason="ill")

    assert competition.entries.filter(players__user=newcomer).exists()
    assert AuditEntry.objects.get(action=AuditEntry.Action.REPLACED).actor == organiser


def test_a_bot_in_an_absent_seat_opens_an_unrated_table_with_the_competitions_substitute_level(client, organiser,
                                                                                                club):
    competition, pairing, pairs = running_swiss(club, organiser)
    Competition.objects.filter(pk=competition.pk).update(substitute_bot="easy")
    absent = pairs[0][1][1]
    client.force_login(organiser)

    control(client, competition, pairing, "bot", absent=absent.pk)

    pairing.refresh_from_db()
    assert pairing.match is not None and not pairing.match.rated
    assert pairing.match.seats.filter(bot="easy").count() == 1
    assert not pairing.match.seats.filter(user=absent).exists()
    assert AuditEntry.objects.get(action=AuditEntry.Action.BOT_SEATED).detail["level"] == "easy"


def test_a_bot_takes_an_absent_players_seat_at_a_table_already_playing_and_moves_if_it_is_its_turn(
        client, organiser, club, django_capture_on_commit_callbacks):
    competition, pairing, _ = running_swiss(club, organiser)
    Competition.objects.filter(pk=competition.pk).update(substitute_bot="easy")
    controls.start_pairing_now(competition, pairing.pk, organiser)
    pairing.refresh_from_db()
    match = pairing.match
    to_act = current_state(match.pk, None)["to_act"]
    absent = match.seats.get(seat=to_act).user
    client.force_login(organiser)

    with django_capture_on_commit_callbacks(execute=True):
        response = control(client, competition, pairing, "bot", absent=absent.pk)

    assert "A bot plays this seat now" in response.text
    assert match.seats.get(seat=to_act).bot == "easy"
    match.refresh_from_db()
    assert not match.rated and match.status == Match.Status.PLAYING
    state = current_state(match.pk, None)
    assert to_act in state["view"]["match"]["replaced"]  # every reader's frame shows the seat replaced
    assert state["to_act"] != to_act  # the bot has already played its turn
    assert MatchAction.objects.get(match=match, action__type="replace").actor == organiser
    assert AuditEntry.objects.get(action=AuditEntry.Action.BOT_SEATED).actor == organiser


def test_a_seat_a_bot_already_plays_is_refused_with_a_message_and_changes_nothing(client, organiser, club):
    competition, pairing, pairs = running_swiss(club, organiser)
    controls.start_pairing_now(competition, pairing.pk, organiser)
    absent = pairs[0][1][0]
    client.force_login(organiser)
    control(client, competition, pairing, "bot", absent=absent.pk)
    actions = MatchAction.objects.filter(match_id=Pairing.objects.get(pk=pairing.pk).match_id).count()

    again = control(client, competition, pairing, "bot", absent=absent.pk)

    assert "a bot already plays it" in again.text and 'class="message error"' in again.text
    assert MatchAction.objects.filter(match_id=Pairing.objects.get(pk=pairing.pk).match_id).count() == actions
    assert AuditEntry.objects.filter(action=AuditEntry.Action.BOT_SEATED).count() == 1


def test_a_bot_at_a_table_waiting_for_its_start_takes_the_seat_before_it_starts(organiser, club):
    competition, pairing, pairs = running_swiss(club, organiser)
    Round.objects.filter(pk=pairing.round_id).update(starts_at=timezone.now() + timedelta(hours=1),
                                                     deadline=timezone.now() + timedelta(hours=2))
    for _entry, users in pairs:
        for user in users:
            manager.check_in(user, pairing.pk)
    pairing.refresh_from_db()
    assert pairing.match.status == Match.Status.WAITING
    absent = pairs[1][1][0]

    controls.seat_bot(competition, pairing.pk, absent.pk, organiser)

    match = Match.objects.get(pk=pairing.match_id)
    assert match.status == Match.Status.WAITING and not match.rated
    assert not match.seats.filter(user=absent).exists()
    assert match.seats.filter(bot=competition.substitute_bot).count() == 1


# ----- one pairing moved ---------------------------------------------------------------------------

def move(client, competition, pairing, when: str, reason="Away pair asked"):
    return control(client, competition, pairing, "move", starts_at=when, reason=reason)


def in_madrid(when):
    return timezone.localtime(when, ZoneInfo("Europe/Madrid"))


def test_a_moved_pairing_opens_plays_and_loses_no_shows_at_its_own_time(client, organiser, club):
    competition, pairing, pairs = running_swiss(club, organiser)
    later = timezone.now().replace(second=0, microsecond=0) + timedelta(hours=2)
    client.force_login(organiser)

    response = move(client, competition, pairing, f"{in_madrid(later):%Y-%m-%dT%H:%M}")

    assert "The match has been moved." in response.text and "Europe/Madrid" in response.text
    pairing.refresh_from_db()
    assert pairing.starts_at == later and pairing.deadline == later + competition.grace
    manager.step(competition.pk, now=timezone.now() + timedelta(minutes=30))  # past the round's deadline
    assert not Pairing.objects.get(pk=pairing.pk).is_decided  # no walkover: its own deadline is later
    with pytest.raises(manager.CompetitionError, match="opens at"):
        manager.check_in(pairs[0][1][0], pairing.pk)
    manager.step(competition.pk, now=later + competition.grace + timedelta(minutes=1))
    assert Pairing.objects.get(pk=pairing.pk).walkover  # nobody came at its own time
    entry = AuditEntry.objects.get(action=AuditEntry.Action.PAIRING_MOVED)
    assert (entry.actor, entry.reason, entry.pairing_id) == (organiser, "Away pair asked", pairing.pk)


def test_a_moved_pairing_shows_its_time_in_the_clubs_zone_and_tells_its_players_in_theirs(client, organiser, club):
    competition, pairing, pairs = running_swiss(club, organiser)
    later = timezone.now().replace(second=0, microsecond=0) + timedelta(days=1)
    reader = pairs[0][1][0]
    reader.player.time_zone = "America/Port_of_Spain"
    reader.player.save()
    client.force_login(organiser)
    move(client, competition, pairing, f"{in_madrid(later):%Y-%m-%dT%H:%M}")

    page = client.get(reverse("tournaments:round", args=[competition.pk, 1])).text
    assert "Moved: starts" in page and "(Europe/Madrid)" in page
    note = Notification.objects.get(user=reader, kind="match_moved")
    assert "(America/Port of Spain)" in text_of(note)
    assert Notification.objects.filter(kind="match_moved").count() == 4
    client.force_login(reader)
    mine = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    assert 'data-testid="check-in-later"' in mine and 'data-testid="check-in"' not in mine


def test_players_of_a_pairing_moved_later_hear_round_open_when_their_own_check_in_opens_not_with_the_round(
        organiser, club):
    competition = make_competition(club, format="league", round_interval=timedelta(days=7), created_by=organiser)
    human_pairs(competition, 4)
    manager.step(competition.pk)
    week_two = Round.objects.get(competition=competition, number=2)
    moved, other = Pairing.objects.filter(round=week_two).order_by("slot")
    later = week_two.starts_at + timedelta(days=2)
    controls.move_pairing(competition, moved.pk, later, organiser, reason="Away pair asked")

    def told(pairing):
        players = [u for e in (pairing.home, pairing.away) for u in e.players.values_list("user_id", flat=True)]
        return Notification.objects.filter(kind="round_open", key=f"round-open:{week_two.pk}", user_id__in=players)

    manager.step(competition.pk, now=week_two.starts_at + timedelta(minutes=1))  # week 2 opens
    assert told(other).count() == 4 and not told(moved).exists()  # they were told "moved" instead
    assert Notification.objects.filter(kind="match_moved").count() == 4
    manager.step(competition.pk, now=later + timedelta(minutes=1))  # the moved pairing's own time
    manager.step(competition.pk, now=later + timedelta(minutes=2))
    assert told(moved).count() == 4 and told(other).count() == 4  # each once


@pytest.mark.parametrize("when, message", [
    ("2001-01-01T10:00", "must be in the future"),
    ("next tuesday", "Enter a valid date/time"),
    ("", "This field is required"),
])
def test_moving_a_pairing_to_a_past_or_nonsense_time_is_refused_beside_the_field(client, organiser, club, when,
                                                                                 message):
    competition, pairing, _ = running_swiss(club, organiser)
    client.force_login(organiser)

    response = move(client, competition, pairing, when)

    html = response.text
    form = html[html.index('data-testid="control-move"'):]
    form = form[:form.index("</form>")]
    assert message in form and "errorlist" in form  # beside the field, in the move form
    assert Pairing.objects.get(pk=pairing.pk).starts_at is None
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.PAIRING_MOVED).exists()


def test_a_pairing_whose_table_is_open_can_no_longer_be_moved(client, organiser, club):
    competition, pairing, _ = running_swiss(club, organiser)
    from tournaments.services.controls import pairing_state
    seen = pairing_state(pairing)
    tomorrow = timezone.now() + timedelta(days=1)
    controls.start_pairing_now(competition, pairing.pk, organiser)
    client.force_login(organiser)

    late = move(client, competition, pairing, f"{in_madrid(tomorrow):%Y-%m-%dT%H:%M}")

    assert "Its table is already open" in late.text and 'data-testid="control-move"' not in late.text
    with pytest.raises(manager.CompetitionError, match="its table is open now"):  # a page drawn before it opened
        controls.move_pairing(competition, pairing.pk, tomorrow, organiser, seen=seen)
    assert Pairing.objects.get(pk=pairing.pk).starts_at is None
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.PAIRING_MOVED).exists()


def test_the_competition_form_says_what_each_preset_of_the_chosen_game_is_in_spanish_too(client, organiser, club):
    client.force_login(organiser)
    url = reverse("tournaments:new", args=[club.slug])
    html = client.get(url).text
    assert "Trinidad club rules: 14 points" in html and "As played in Tobago" in html
    refreshed = client.get(url, form_data(game="cuatrola", preset="standard"), HTTP_HX_REQUEST="true",
                           HTTP_HX_TRIGGER_NAME="game").text
    assert "a longer match to 21 game points" in refreshed and "Trinidad club rules" not in refreshed
    spanish = client.get(url, form_data(game="baloot", preset="saudi_classic"), HTTP_HX_REQUEST="true",
                         HTTP_HX_TRIGGER_NAME="game", HTTP_ACCEPT_LANGUAGE="es").text
    assert "Saudi classic as played in the majlis" not in spanish and "como se juega en el majlis" in spanish


def test_the_competition_form_says_what_each_rule_option_does_in_spanish_too(client, organiser, club):
    client.force_login(organiser)
    url = reverse("tournaments:new", args=[club.slug])
    assert "14 in the usual game, 7 in a short one" in client.get(url).text  # All Fours' target
    spanish = client.get(url, form_data(game="baloot", preset="saudi_classic"), HTTP_HX_REQUEST="true",
                         HTTP_HX_TRIGGER_NAME="game", HTTP_ACCEPT_LANGUAGE="es").text
    assert "151 en el juego habitual" in spanish and "diciendo «antes que tú»" in spanish
    assert "14 en el juego habitual" not in spanish and "antes que tú" not in client.get(url).text
    assert 'id="id_opt_sun_priority_helptext"' in spanish


def test_a_pairing_of_another_competition_is_not_found(client, organiser, club):
    competition, pairing, _ = running_swiss(club, organiser)
    other, other_pairing, _ = running_swiss(make_club(organiser), organiser)
    client.force_login(organiser)
    url = reverse("tournaments:pairing_control", args=[competition.pk, other_pairing.pk, "walkover"])
    assert client.post(url, {}).status_code == 404


def test_start_now_is_logged_under_the_organiser_not_the_scheduler(client, organiser, club):
    competition = make_competition(club, starts_in=timedelta(days=1))
    bot_pairs(competition, 2)
    client.force_login(organiser)

    client.post(reverse("tournaments:start_now", args=[competition.pk]))

    assert AuditEntry.objects.get(competition=competition, action=AuditEntry.Action.STARTED).actor == organiser


def test_refreshing_the_form_any_number_of_times_keeps_a_rule_list_as_it_was(client, organiser, club):
    client.force_login(organiser)
    data = form_data(game="cuatrola", preset="standard")
    url = reverse("tournaments:new", args=[club.slug])
    for _ in range(3):
        form = client.get(url, data, HTTP_HX_REQUEST="true", HTTP_HX_TRIGGER_NAME="format").context["form"]
        data = {**data, **{f.name: f.value() for f in form.option_fields()
                           if f.widget_type != "checkbox"}}
    assert client.post(url, data).status_code == 302


def test_the_new_form_selects_the_format_whose_fields_it_shows(client, organiser, club):
    client.force_login(organiser)
    form = client.get(reverse("tournaments:new", args=[club.slug])).context["form"]
    assert form["format"].value() == "swiss" and [f.name for f in form.format_fields()] == ["swiss_rounds", "late_entries_until"]


def test_a_round_moved_into_the_past_is_refused_and_keeps_its_time(client, organiser, club):
    competition, pairing, _ = running_swiss(club, organiser)
    before = Round.objects.get(pk=pairing.round_id).starts_at
    client.force_login(organiser)

    response = client.post(reverse("tournaments:move_round", args=[competition.pk, 1]),
                           {"starts_at": "2001-01-01T10:00", "reason": "typo"}, follow=True)

    assert "The new start must be in the future." in response.text
    assert Round.objects.get(pk=pairing.round_id).starts_at == before
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.RESCHEDULED).exists()
