"""Entries as clubs run them (issue 31): substitutions kept in history, a pair withdrawn mid-event
by the format's rule, announcements, an entry cap with its waiting list, the check-in Remind
action and late entries. Each rule through its service and its page; bad input refused beside the
field, changing nothing."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tournaments.models import AuditEntry, Pairing
from tournaments.services import CompetitionError, controls, manager, organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss():
    return make_user("organiser")


@pytest.fixture
def club(boss):
    return make_club(boss, time_zone="Europe/Madrid")


def members(club, pairs):
    for _entry, users in pairs:
        for user in users:
            Membership.objects.create(club=club, user=user)


def started(club, boss, format="swiss", count=2, **fields):
    competition = make_competition(club, format=format, created_by=boss, **fields)
    pairs = human_pairs(competition, count)
    members(club, pairs)
    manager.step(competition.pk)
    competition.refresh_from_db()
    return competition, pairs


def walk_over_round(competition, number, boss):
    for pairing in Pairing.objects.filter(competition=competition, round_number=number, decided_at__isnull=True,
                                          away__isnull=False):
        controls.award_walkover(competition, pairing.pk, "home", boss, "not here")


def names(pairing, side):
    return [name for _id, name in pairing.lineup[side]]


# ----- substitutions kept in history -----------------------------------------------------------

def test_a_substitute_plays_the_later_rounds_and_the_earlier_ones_keep_who_played_them(client, club, boss):
    competition, pairs = started(club, boss, format="league", count=2, round_interval=timedelta(days=7))
    entry, (carlos, omar) = pairs[0]
    first_name = entry.name
    walk_over_round(competition, 1, boss)
    rosa = make_user("rosa")
    Membership.objects.create(club=club, user=rosa)

    organiser.replace_player(entry, omar, rosa, boss, "Omar is away")

    entry.refresh_from_db()
    assert entry.name == first_name  # the pair keeps the name it entered with
    played = Pairing.objects.get(competition=competition, round_number=1)
    later = Pairing.objects.get(competition=competition, round_number=2)
    side = lambda p: "home" if p.home_id == entry.pk else "away"  # noqa: E731
    assert names(played, side(played)) == [carlos.username, omar.username]
    assert names(later, side(later)) == [carlos.username, rosa.username]
    client.force_login(boss)
    round_one = client.get(reverse("tournaments:round", args=[competition.pk, 1])).text
    round_two = client.get(reverse("tournaments:round", args=[competition.pk, 2])).text
    escaped = first_name.replace("&", "&amp;")
    assert escaped in round_one and 'data-testid="played-by"' not in round_one
    assert escaped in round_two and f"played by <bdi>{carlos.username} &amp; {rosa.username}</bdi>" in round_two
    page = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    assert f"{carlos.username} &amp; {rosa.username}" not in page  # entries, standings, audit lines: the old name
    assert f"({escaped})" in page.split('data-testid="audit-log"')[1]
    line = AuditEntry.objects.get(action=AuditEntry.Action.REPLACED)
    assert (line.entry_id, line.detail) == (entry.pk, {"out": omar.pk, "in": rosa.pk})


def test_a_table_already_open_keeps_the_players_who_sat_down(club, boss):
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=2)
    pairing = Pairing.objects.get(competition=competition, round_number=1)
    controls.start_pairing_now(competition, pairing.pk, boss)
    entry, (carlos, omar) = pairs[0]
    rosa = make_user("rosa")
    Membership.objects.create(club=club, user=rosa)

    organiser.replace_player(entry, omar, rosa, boss)

    pairing.refresh_from_db()
    side = "home" if pairing.home_id == entry.pk else "away"
    assert names(pairing, side) == [carlos.username, omar.username]


def test_a_substitution_by_someone_already_playing_is_refused_beside_the_field_and_changes_nothing(client, club,
                                                                                                  boss):
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=2)
    (entry, (carlos, omar)), (_other, (ana, _beto)) = pairs
    with pytest.raises(CompetitionError) as refused:
        organiser.replace_player(entry, omar, ana, boss)
    assert refused.value.field == "new" and "already plays" in refused.value.message

    pairing = Pairing.objects.get(competition=competition, round_number=1)
    client.force_login(boss)
    url = reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, "substitute"])
    response = client.post(url, {f"p{pairing.pk}-old": omar.pk, f"p{pairing.pk}-new": ana.pk,
                                 f"p{pairing.pk}-reason": "ill"}, HTTP_HX_REQUEST="true")
    html = response.text
    assert "does not already play in this competition" in html
    assert 'class="errorlist' in html and "ill" in html  # beside the field, the reason kept
    assert entry.players.filter(user=omar).exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.REPLACED).exists()


# ----- a pair withdrawn mid-event --------------------------------------------------------------

def withdraw_by_page(client, competition, entry, reason="moved abroad", **extra):
    url = reverse("tournaments:withdraw_pair", args=[competition.pk, entry.pk])
    return client.post(url, {"reason": reason, **extra})


def test_the_confirm_page_says_the_formats_rule_and_withdrawing_names_the_pair_in_the_audit(client, club, boss):
    competition, pairs = started(club, boss, format="round_robin", count=4)
    entry = pairs[0][0]
    client.force_login(boss)
    page = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    url = reverse("tournaments:withdraw_pair", args=[competition.pk, entry.pk])
    assert url in page  # reached from the competition page
    confirm = client.get(url).text
    assert "results are voided" in confirm

    withdraw_by_page(client, competition, entry)

    entry.refresh_from_db()
    assert entry.status == "withdrawn"
    line = AuditEntry.objects.get(action=AuditEntry.Action.WITHDRAWN)
    assert (line.entry_id, line.actor, line.reason) == (entry.pk, boss, "moved abroad")
    assert "(" + entry.name.replace("&", "&amp;") + ")" in client.get(reverse("tournaments:detail",
                                                                          args=[competition.pk])).text


def test_in_a_round_robin_a_withdrawn_pairs_results_are_voided(client, club, boss):
    from tournaments.models import Standing
    competition, pairs = started(club, boss, format="round_robin", count=4)
    leaving = pairs[0][0]
    walk_over_round(competition, 1, boss)  # every home pair wins round 1
    beaten = Pairing.objects.get(competition=competition, round_number=1, home=leaving).away_id \
        if Pairing.objects.filter(competition=competition, round_number=1, home=leaving).exists() else \
        Pairing.objects.get(competition=competition, round_number=1, away=leaving).home_id
    assert Standing.objects.get(competition=competition, entry_id=beaten).played == 1

    client.force_login(boss)
    withdraw_by_page(client, competition, leaving)

    assert not Standing.objects.filter(competition=competition, entry=leaving).exists()
    assert Standing.objects.get(competition=competition, entry_id=beaten).played == 0  # its match voided
    others = Standing.objects.filter(competition=competition)
    assert others.count() == 3 and sum(s.played for s in others) == 2  # the one match between the others


def test_in_a_swiss_a_withdrawn_pair_loses_its_open_match_by_walkover_and_is_paired_no_more(client, club, boss):
    competition, pairs = started(club, boss, format="swiss", count=4, swiss_rounds=3)
    leaving = pairs[0][0]
    open_match = Pairing.objects.get(competition=competition, round_number=1, decided_at__isnull=True,
                                     home=leaving) if Pairing.objects.filter(
        competition=competition, round_number=1, home=leaving).exists() else Pairing.objects.get(
        competition=competition, round_number=1, away=leaving)
    client.force_login(boss)
    assert "not paired in later rounds" in client.get(
        reverse("tournaments:withdraw_pair", args=[competition.pk, leaving.pk])).text

    withdraw_by_page(client, competition, leaving)

    open_match.refresh_from_db()
    assert open_match.walkover and open_match.winner_id not in (None, leaving.pk)
    walk_over_round(competition, 1, boss)
    manager.step(competition.pk)
    later = Pairing.objects.filter(competition=competition, round_number=2)
    assert later.exists() and not later.filter(home=leaving).exists() and not later.filter(away=leaving).exists()


def test_in_a_league_every_fixture_left_is_a_walkover_to_the_opponent(client, club, boss):
    competition, pairs = started(club, boss, format="league", count=2, round_interval=timedelta(days=7))
    leaving = pairs[0][0]
    client.force_login(boss)

    withdraw_by_page(client, competition, leaving)
    manager.step(competition.pk, now=timezone.now() + timedelta(days=8))

    week_two = Pairing.objects.get(competition=competition, round_number=2)
    assert week_two.walkover and week_two.winner_id == pairs[1][0].pk


def test_a_pair_of_another_competition_or_already_withdrawn_cannot_be_withdrawn(client, club, boss):
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=1)
    other, other_pairs = started(club, boss, format="swiss", count=2, swiss_rounds=1)
    client.force_login(boss)
    assert client.get(reverse("tournaments:withdraw_pair", args=[competition.pk, other_pairs[0][0].pk])
                      ).status_code == 404
    stranger = make_user()
    client.force_login(stranger)
    assert withdraw_by_page(client, competition, pairs[0][0]).status_code == 403
    pairs[0][0].refresh_from_db()
    assert pairs[0][0].status == "confirmed"


# ----- announcements ---------------------------------------------------------------------------

def test_an_announcement_reaches_every_entrant_in_their_language_and_is_listed_with_the_readers_zone(
        client, club, boss, mailoutbox, django_capture_on_commit_callbacks):
    from tournaments.models import Notification
    from tournaments.notices import text_of
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=1)
    spanish = pairs[0][1][0]
    spanish.player.preferred_language, spanish.player.time_zone = "es", "America/Port_of_Spain"
    spanish.player.save()
    client.force_login(boss)
    page = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    assert reverse("tournaments:announce", args=[competition.pk]) in page

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("tournaments:announce", args=[competition.pk]), {"text": "Bring your own cards!"})

    told = Notification.objects.filter(competition=competition, kind="announcement")
    assert told.count() == 4
    mail = next(m for m in mailoutbox if m.to == [spanish.email])
    assert "el organizador anuncia" in mail.body and "Bring your own cards!" in mail.body
    assert "the organiser announces" in text_of(told.exclude(user=spanish).first())
    client.force_login(spanish)
    html = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    listed = html.split('data-testid="announcement-list"')[1]
    from config.formatting import zone_name
    assert "Bring your own cards!" in listed and f"({zone_name('America/Port_of_Spain')})" in listed
    line = AuditEntry.objects.get(action=AuditEntry.Action.ANNOUNCED)
    assert line.actor == boss and line.detail["entrants"] == 4


@pytest.mark.parametrize("text, error", [("   ", "Write the announcement"), ("x" * 1001, "at most 1000")])
def test_an_empty_or_too_long_announcement_is_refused_beside_the_field_and_kept(client, club, boss, text, error):
    from tournaments.models import Announcement, Notification
    competition, _pairs = started(club, boss, format="swiss", count=2, swiss_rounds=1)
    client.force_login(boss)

    response = client.post(reverse("tournaments:announce", args=[competition.pk]), {"text": text})

    assert response.status_code == 400
    form = response.text.split('data-testid="announce-form"')[1].split("</form>")[0]
    assert error in form and 'has-error' in form and (text.strip() == "" or text in form)
    assert not Announcement.objects.exists() and not Notification.objects.filter(kind="announcement").exists()


def test_only_an_organiser_may_announce(client, club, boss):
    from tournaments.models import Announcement
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=1)
    client.force_login(pairs[0][1][0])
    assert client.post(reverse("tournaments:announce", args=[competition.pk]), {"text": "hi"}).status_code == 403
    assert not Announcement.objects.exists()


# ----- an entry cap with a waiting list ----------------------------------------------------------

def open_competition(club, boss, **fields):
    return make_competition(club, created_by=boss, starts_in=timedelta(days=1), **fields)


def test_pairs_past_the_cap_wait_in_order_and_the_first_moves_up_when_an_entered_pair_withdraws(
        client, club, boss):
    from tournaments.models import Entry, Notification
    from tournaments.services import entries
    competition = open_competition(club, boss, entry_cap=2)
    made = []
    for _ in range(4):
        first, second = make_user(), make_user()
        made.append((entries.add_pair(competition, boss, [first, second]), first))
    statuses = [Entry.objects.get(pk=e.pk).status for e, _u in made]
    assert statuses == ["confirmed", "confirmed", "waiting", "waiting"]
    client.force_login(boss)
    page = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    waiting = page.split('data-testid="waiting-list"')[1].split("</section>")[0]
    third, fourth = (made[2][0].name.replace("&", "&amp;"), made[3][0].name.replace("&", "&amp;"))
    assert waiting.index(third) < waiting.index(fourth)

    organiser.remove_pair(made[0][0], boss, "ill")

    assert Entry.objects.get(pk=made[2][0].pk).status == "confirmed"
    assert Entry.objects.get(pk=made[3][0].pk).status == "waiting"
    told = Notification.objects.get(user=made[2][1], kind="moved_up")
    assert competition.name in told.text
    line = AuditEntry.objects.get(action=AuditEntry.Action.MOVED_UP)
    assert line.entry_id == made[2][0].pk


def test_a_player_withdrawing_their_own_pair_lets_the_first_waiting_pair_in(club, boss):
    from tournaments.models import Entry
    from tournaments.services import entries
    competition = open_competition(club, boss, entry_cap=2)
    pairs = [(entries.add_pair(competition, boss, users), users) for users in
             ([make_user(), make_user()] for _ in range(3))]
    entries.withdraw_before_start(pairs[1][0], pairs[1][1][0])
    assert Entry.objects.get(pk=pairs[2][0].pk).status == "confirmed"


def test_a_partner_accepting_when_full_puts_the_pair_on_the_waiting_list(club, boss):
    from tournaments.models import Entry, Notification
    from tournaments.services import entries
    competition = open_competition(club, boss, entry_cap=2)
    for _ in range(2):
        entries.add_pair(competition, boss, [make_user(), make_user()])
    me, partner = make_user(), make_user()
    entry = entries.enter(competition, me, partner)
    entries.answer_invitation(entry, partner, True)
    entry.refresh_from_db()
    assert entry.status == "waiting"
    assert Notification.objects.filter(user=me, kind="waiting_listed").exists()
    assert Entry.objects.filter(competition=competition, status="confirmed").count() == 2


def edit_data(competition, **changes):
    from tests.competitions_db.test_organiser_controls import form_data
    from config.formatting import zone_of
    local = timezone.localtime(competition.starts_at, zone_of(competition.club.time_zone))
    values = {"name": competition.name, "format": competition.format, "swiss_rounds": "",
              "starts_at": local.strftime("%Y-%m-%dT%H:%M"), **changes}
    return form_data(**values)


def test_a_cap_below_the_pairs_entered_is_refused_beside_the_field_with_what_was_typed(client, club, boss):
    from tournaments.services import entries
    competition = open_competition(club, boss)
    for _ in range(3):
        entries.add_pair(competition, boss, [make_user(), make_user()])
    client.force_login(boss)

    response = client.post(reverse("tournaments:edit", args=[competition.pk]),
                           edit_data(competition, entry_cap="2", name="Typed name"))

    assert response.status_code == 400
    field = response.text.split('data-field="entry_cap"')[1].split("</div>")[0]
    assert "3 pairs are already entered" in field and 'value="2"' in field
    assert 'value="Typed name"' in response.text
    competition.refresh_from_db()
    assert competition.entry_cap is None and competition.name != "Typed name"


def test_a_cap_set_in_the_form_is_kept_and_raising_it_lets_waiting_pairs_in(client, club, boss):
    from tournaments.models import Entry
    from tournaments.services import entries
    competition = open_competition(club, boss)
    client.force_login(boss)
    client.post(reverse("tournaments:edit", args=[competition.pk]), edit_data(competition, entry_cap="2"))
    competition.refresh_from_db()
    assert competition.entry_cap == 2
    made = [entries.add_pair(competition, boss, [make_user(), make_user()]) for _ in range(3)]
    assert Entry.objects.get(pk=made[2].pk).status == "waiting"

    client.post(reverse("tournaments:edit", args=[competition.pk]), edit_data(competition, entry_cap=""))

    assert Entry.objects.get(pk=made[2].pk).status == "confirmed"


# ----- late entries ----------------------------------------------------------------------------

def test_a_late_pair_in_a_swiss_joins_from_the_next_round_scored_nothing_for_the_one_it_missed(client, club,
                                                                                                boss):
    from tournaments.models import Entry, Standing
    from tournaments.services import entries
    competition, pairs = started(club, boss, format="swiss", count=3, swiss_rounds=3, late_entries_until=2)
    me, partner = make_user(), make_user()
    client.force_login(me)
    page = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    assert reverse("tournaments:enter", args=[competition.pk]) in page  # the form is offered after the start

    late = entries.enter(competition, me, partner)
    entries.answer_invitation(late, partner, True)

    late.refresh_from_db()
    assert late.status == "confirmed" and late.seed == 4 and late.rating is not None
    assert AuditEntry.objects.get(action=AuditEntry.Action.LATE_ENTRY).entry_id == late.pk
    assert not Pairing.objects.filter(competition=competition, round_number=1, home=late).exists()
    walk_over_round(competition, 1, boss)
    manager.step(competition.pk)
    round_two = Pairing.objects.filter(competition=competition, round_number=2)
    assert round_two.filter(home=late).exists() or round_two.filter(away=late).exists()
    standing = Standing.objects.get(competition=competition, entry=late)
    assert (standing.played, standing.points) == (0, 0)
    assert Entry.objects.filter(competition=competition, status="confirmed").count() == 4


def test_late_entry_after_its_round_is_drawn_is_refused_with_the_round_named(client, club, boss):
    from tournaments.models import Entry
    from tournaments.services import entries
    competition, pairs = started(club, boss, format="swiss", count=4, swiss_rounds=3, late_entries_until=2)
    walk_over_round(competition, 1, boss)
    manager.step(competition.pk)  # round 2 is drawn
    assert Pairing.objects.filter(competition=competition, round_number=2).exists()
    me, partner = make_user(), make_user()

    with pytest.raises(CompetitionError) as refused:
        entries.enter(competition, me, partner)
    assert "Late entries closed when round 2 was drawn" in refused.value.message
    client.force_login(me)
    response = client.post(reverse("tournaments:enter", args=[competition.pk]), {"partner": partner.username})
    assert "Late entries closed when round 2 was drawn" in client.get(response.url).text
    assert not Entry.objects.filter(competition=competition, players__user=me).exists()


def test_without_late_entries_a_running_competition_takes_no_pair(club, boss):
    from tournaments.services import entries
    competition, _pairs = started(club, boss, format="swiss", count=2, swiss_rounds=2)
    with pytest.raises(CompetitionError):
        entries.add_pair(competition, boss, [make_user(), make_user()])


def test_a_late_pair_in_a_league_takes_the_rest_weeks_still_to_come(club, boss):
    from tournaments.services import entries
    competition, pairs = started(club, boss, format="league", count=3, round_interval=timedelta(days=7),
                                 late_entries_until=3)
    rests = list(Pairing.objects.filter(competition=competition, away__isnull=True).order_by("round_number"))
    assert [p.round_number for p in rests] == [1, 2, 3, 4, 5, 6]  # three pairs: one rests each week

    late = entries.add_pair(competition, boss, [make_user(), make_user()])

    rests = {p.round_number: p for p in Pairing.objects.filter(competition=competition, away__isnull=True)}
    taken = Pairing.objects.filter(competition=competition, away=late)
    assert sorted(p.round_number for p in taken) == [2, 3, 4, 5, 6]  # week 1 is open: its rest stays a rest
    assert list(rests) == [1]
    assert all(p.lineup["away"] for p in taken)
    with pytest.raises(CompetitionError) as refused:  # no rest week left for a second late pair
        entries.add_pair(competition, boss, [make_user(), make_user()])
    assert "no rest week" in refused.value.message


def test_a_league_refuses_late_entries_once_the_chosen_week_is_open(club, boss):
    from tournaments.services import entries
    competition, pairs = started(club, boss, format="league", count=3, round_interval=timedelta(days=7),
                                 late_entries_until=2)
    manager.step(competition.pk, now=timezone.now() + timedelta(days=7, minutes=1))
    with pytest.raises(CompetitionError) as refused:
        entries.add_pair(competition, boss, [make_user(), make_user()])
    assert "Late entries closed when week 2 opened" in refused.value.message


def test_late_entries_are_a_swiss_or_league_field_and_not_past_the_last_swiss_round(client, club, boss):
    from tests.competitions_db.test_organiser_controls import form_data
    client.force_login(boss)
    response = client.post(reverse("tournaments:new", args=[club.slug]),
                           form_data(swiss_rounds="3", late_entries_until="5"))
    assert response.status_code == 200 and "late entries must close by round 3" in response.text
    assert 'name="late_entries_until"' in response.text and 'value="5"' in response.text
    knockout = client.get(reverse("tournaments:new", args=[club.slug]), {"format": "single_elimination",
                                                                         "name": "x"}).text
    assert 'id="id_late_entries_until"' not in knockout


# ----- the check-in list's Remind --------------------------------------------------------------

def test_remind_notifies_only_the_players_not_checked_in_in_their_language_and_names_them_in_the_audit(
        client, club, boss, mailoutbox, django_capture_on_commit_callbacks):
    from tournaments.models import Notification
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=1)
    (_e1, (ana, beto)), (_e2, (carla, dani)) = pairs
    dani.player.preferred_language = "es"
    dani.player.save()
    pairing = Pairing.objects.get(competition=competition, round_number=1)
    manager.check_in(ana, pairing.pk)
    manager.check_in(beto, pairing.pk)
    client.force_login(boss)
    round_page = client.get(reverse("tournaments:round", args=[competition.pk, 1])).text
    url = reverse("tournaments:remind", args=[competition.pk, 1])
    assert url in round_page

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, follow=True)

    assert "2 players not checked in have been reminded" in response.text
    reminded = set(Notification.objects.filter(kind="check_in_reminder").values_list("user_id", flat=True))
    assert reminded == {carla.pk, dani.pk}
    spanish = next(m for m in mailoutbox if m.to == [dani.email])
    assert "aún no has confirmado tu llegada" in spanish.body
    line = AuditEntry.objects.get(action=AuditEntry.Action.REMINDED)
    assert line.actor == boss and set(line.detail["reminded"]) == {carla.pk, dani.pk}
    page = client.get(reverse("tournaments:detail", args=[competition.pk])).text
    assert carla.username in page.split('data-testid="audit-log"')[1]


def test_remind_with_everyone_checked_in_or_no_open_round_says_so_and_sends_nothing(client, club, boss):
    from tournaments.models import Notification
    competition, pairs = started(club, boss, format="swiss", count=2, swiss_rounds=1)
    client.force_login(boss)
    response = client.post(reverse("tournaments:remind", args=[competition.pk, 2]), follow=True)
    assert "Only an open round" in response.text
    pairing = Pairing.objects.get(competition=competition, round_number=1)
    controls.award_walkover(competition, pairing.pk, "home", boss, "gone")
    response = client.post(reverse("tournaments:remind", args=[competition.pk, 1]), follow=True)
    assert not Notification.objects.filter(kind="check_in_reminder").exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.REMINDED).exists()
    player = pairs[0][1][0]
    client.force_login(player)
    assert client.post(reverse("tournaments:remind", args=[competition.pk, 1])).status_code == 403


# ----- every new word in Spanish and Arabic ------------------------------------------------------

ENGLISH = ["Announcements", "Send to every entrant", "Waiting list", "Entry cap", "Late entries", "Remind",
           "played by", "What will happen", "Withdraw the pair", "Its results are voided", "On the waiting list"]


@pytest.mark.parametrize("language", ["es", "ar"])
def test_the_entries_pages_read_in_spanish_and_arabic(client, club, boss, language):
    from tournaments.services import announcements, entries
    competition, pairs = started(club, boss, format="round_robin", count=4, entry_cap=4)
    waiting = make_competition(club, created_by=boss, starts_in=timedelta(days=1), entry_cap=2,
                               format="swiss", late_entries_until=2)
    for _ in range(3):
        entries.add_pair(waiting, boss, [make_user(), make_user()])
    announcements.announce(competition, boss, "Hola a todos")
    rosa = make_user("rosa")
    Membership.objects.create(club=club, user=rosa)
    organiser.replace_player(pairs[0][0], pairs[0][1][1], rosa, boss)
    boss.player.preferred_language = language
    boss.player.save()
    client.force_login(boss)
    client.cookies["django_language"] = language
    pages = [client.get(reverse("tournaments:detail", args=[competition.pk]), HTTP_ACCEPT_LANGUAGE=language).text,
             client.get(reverse("tournaments:detail", args=[waiting.pk]), HTTP_ACCEPT_LANGUAGE=language).text,
             client.get(reverse("tournaments:round", args=[competition.pk, 1]),
                        HTTP_ACCEPT_LANGUAGE=language).text,
             client.get(reverse("tournaments:withdraw_pair", args=[competition.pk, pairs[1][0].pk]),
                        HTTP_ACCEPT_LANGUAGE=language).text]
    text = " ".join(pages)
    assert f'lang="{language}"' in pages[0]
    for words in ENGLISH:
        assert words not in text, words
    assert "Hola a todos" in pages[0]
    shown = {"es": ["Anuncios", "Lista de espera", "Límite de inscripciones", "Inscripciones tardías", "Recordar",
                    "jugado por", "Sus resultados se anulan"],
             "ar": ["الإعلانات", "قائمة الانتظار", "الحد الأقصى للتسجيلات", "التسجيل المتأخر", "تذكير", "لعبها",
                    "تُلغى نتائجه"]}[language]
    for words in shown:
        assert words in text, words
