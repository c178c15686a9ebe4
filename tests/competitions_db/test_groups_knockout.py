"""Groups then knockout with the database: bot pairs driven from the start to a champion, the
group tables and the bracket's "Winner of group A" boxes, and groups that cannot work refused."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.competitions_db.helpers import bot_pairs, drive, human_pairs, make_club, make_competition, make_user
from tournaments import brackets
from tournaments.models import AuditEntry, Competition, Pairing, Standing
from tournaments.services import CompetitionError, controls, groups, manager

pytestmark = pytest.mark.django_db


def test_eight_bot_pairs_play_two_groups_then_a_crossover_knockout_to_a_champion():
    competition = make_competition(format="groups_knockout", group_size=4, group_qualifiers=2)
    bot_pairs(competition, 8)

    competition = drive(competition, steps=80)

    assert competition.status == Competition.Status.FINISHED
    group_games = Pairing.objects.filter(competition=competition, bracket="groups")
    assert group_games.count() == 12 and set(group_games.values_list("round_number", flat=True)) == {1, 2, 3}
    tables = groups.group_tables(competition)
    assert [t.letter for t in tables] == ["A", "B"] and all(t.over for t in tables)
    a1, a2 = tables[0].rows[0].entry.pk, tables[0].rows[1].entry.pk
    b1, b2 = tables[1].rows[0].entry.pk, tables[1].rows[1].entry.pk
    semis = {frozenset((p.home_id, p.away_id)) for p in Pairing.objects.filter(competition=competition, round_number=4)}
    assert semis == {frozenset((a1, b2)), frozenset((b1, a2))}
    final = Pairing.objects.get(competition=competition, round_number=5)
    champion = Standing.objects.get(competition=competition, rank=1).entry_id
    assert champion == final.winner_id
    out = {row.entry.pk for t in tables for row in t.rows[2:]}
    assert all(rank > 4 for rank in Standing.objects.filter(competition=competition, entry_id__in=out)
               .values_list("rank", flat=True))


def test_before_the_groups_end_the_bracket_says_whose_place_each_box_is():
    competition = make_competition(format="groups_knockout", starts_in=timedelta(hours=1))
    bot_pairs(competition, 8)

    with translation.override("en"):
        drawing = brackets.drawings(competition)[0]
    sides = [(box.home.text, box.away.text) for box in drawing.boxes]
    assert sides[:2] == [("Winner of group A", "Runner-up of group B"), ("Winner of group B", "Runner-up of group A")]
    assert sides[2][0].startswith("Winner of Semi-final") and len(sides) == 3


def test_the_competition_page_shows_the_group_tables_and_the_bracket():
    competition = make_competition(format="groups_knockout")
    bot_pairs(competition, 8)
    drive(competition, steps=3)

    page = Client().get(reverse("tournaments:detail", args=[competition.pk]), HTTP_ACCEPT_LANGUAGE="es")
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count('data-testid="group-table"') == 2 and 'data-testid="bracket"' in text


@pytest.mark.parametrize("pairs,size,through", [(5, 4, 2), (3, 4, 1)])
def test_start_now_with_pairs_that_cannot_make_the_groups_says_why_and_changes_nothing(pairs, size, through):
    organiser = make_user("org")
    competition = make_competition(make_club(organiser), format="groups_knockout", group_size=size,
                                   group_qualifiers=through, starts_in=timedelta(hours=2))
    bot_pairs(competition, pairs)

    with pytest.raises(CompetitionError) as refused, translation.override("en"):
        controls.start_competition_now(competition, organiser)

    assert "group" in refused.value.message
    competition.refresh_from_db()
    assert competition.status == Competition.Status.OPEN and not competition.rounds.exists()
    assert not AuditEntry.objects.filter(competition=competition, action=AuditEntry.Action.CANCELLED).exists()


def test_the_form_refuses_as_many_through_as_a_group_holds_beside_the_field_keeping_what_was_typed():
    organiser = make_user("org")
    club = make_club(organiser)
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments:new", args=[club.slug])
    page = client.get(url, {"format": "groups_knockout", "game": "allfours"})
    assert 'name="group_size"' in page.content.decode()
    form = page.context["form"]
    data = {name: ("" if value is None else value) for name, value in form.initial.items()
            if not isinstance(value, (list, dict))}
    data.update({"name": "Copa de grupos", "format": "groups_knockout", "group_size": "4", "group_qualifiers": "4",
                 "starts_at": "2099-01-01T18:00", "check_in": "15", "grace": "10", "round_interval": "0",
                 "game": "allfours", "preset": form.preset_key, "time_control": "30", "best_of": "1",
                 "seeding": "rating", "visibility": "public"})
    answer = client.post(url, data)

    assert answer.status_code == 200 and not Competition.objects.filter(name="Copa de grupos").exists()
    errors = answer.context["form"].errors
    assert "group_qualifiers" in errors and "Copa de grupos" in answer.content.decode()


def test_in_arabic_the_bracket_boxes_name_the_groups_places_and_a_not_drawn_round_says_so():
    competition = make_competition(format="groups_knockout", starts_in=timedelta(hours=1))
    human_pairs(competition, 8)  # nobody checks in: round 1 stays open while we look
    page = Client().get(reverse("tournaments:detail", args=[competition.pk]), HTTP_ACCEPT_LANGUAGE="ar")
    text = page.content.decode()
    assert "متصدر المجموعة" in text and "وصيف المجموعة" in text

    manager.step(competition.pk, now=competition.starts_at)
    round_two = Client().get(reverse("tournaments:round", args=[competition.pk, 2]), HTTP_ACCEPT_LANGUAGE="ar")
    assert 'data-testid="not-drawn"' in round_two.content.decode()


def test_the_edit_page_checks_the_groups_against_the_pairs_entered_so_far_and_saves_a_size_that_works():
    organiser = make_user("org")
    competition = make_competition(make_club(organiser), format="groups_knockout", group_size=3, group_qualifiers=2,
                                   starts_in=timedelta(days=2))
    bot_pairs(competition, 5)
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments:edit", args=[competition.pk])
    page = client.get(url)
    form = page.context["form"]
    data = {name: ("" if value is None else value) for name, value in form.initial.items()
            if not isinstance(value, (list, dict)) and value is not False}
    data.update({"starts_at": (competition.starts_at + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
                 "check_in": "0", "grace": "5", "round_interval": "0", "seen": page.context["seen"],
                 "group_size": "4", "group_qualifiers": "2", "time_control": "30"})

    with translation.override("en"):
        refused = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and list(refused.context["form"].errors) == ["group_size"]
    assert "smallest group would have 2" in refused.content.decode()
    competition.refresh_from_db()
    assert competition.group_size == 3

    data["group_size"] = "5"
    saved = client.post(url, data)
    assert saved.status_code == 302, saved.context["form"].errors
    competition.refresh_from_db()
    assert (competition.group_size, competition.group_qualifiers) == (5, 2)
