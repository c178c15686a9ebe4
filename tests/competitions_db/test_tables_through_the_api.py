"""The competition pages learn about their tables only through gameplay.api (issue 33, "No app
imports back up"): a pairing's `table` is the `MatchResult` of its match, so the round page, the
organiser's controls and the bracket say Watch, Replay and Not rated as before without reading
gameplay's rows (tests/foundation/test_app_seams.py forbids `match__` and `.match.` there)."""

import pytest
from django.urls import reverse

from clubs.models import Membership
from gameplay import api as gameplay
from tests.competitions_db.helpers import human_pairs, make_club, make_competition, make_user
from tournaments import pages
from tournaments.models import Pairing
from tournaments.services import controls, manager
from tournaments.services.controls import pairing_state

pytestmark = pytest.mark.django_db


def started(format: str, **fields):
    organiser = make_user("organiser")
    club = make_club(organiser)
    competition = make_competition(club, format=format, created_by=organiser, **fields)
    pairs = human_pairs(competition, 2)
    for _entry, users in pairs:
        for user in users:
            Membership.objects.create(club=club, user=user)
    manager.step(competition.pk)
    pairing = Pairing.objects.get(competition=competition, away__isnull=False)
    for _entry, users in pairs:
        for user in users:
            manager.check_in(user, pairing.pk)
    pairing.refresh_from_db()
    return organiser, competition, pairing, pairs


def test_the_round_page_and_its_controls_say_watch_not_rated_and_replay_from_the_tables_result(client):
    organiser, competition, pairing, pairs = started("swiss", swiss_rounds=2)
    table = gameplay.result_of(pairing.match_id)
    assert table.status == gameplay.Status.PLAYING and table.rated
    client.force_login(organiser)
    round_page = reverse("tournaments:round", args=[competition.pk, 1])

    page = client.get(round_page).text
    assert 'data-testid="watch"' in page and "Not rated" not in page
    assert pages.round_pairings(pairing.round)[0].table == table

    controls.seat_bot(competition, pairing.pk, pairs[1][1][0].pk, organiser)  # the match stops counting
    assert "Not rated" in client.get(round_page).text

    seen = pairing_state(Pairing.objects.get(pk=pairing.pk))
    assert seen.endswith(f"|{pairing.match_id}|{gameplay.Status.PLAYING}")
    url = reverse("tournaments:pairing_control", args=[competition.pk, pairing.pk, "walkover"])
    fragment = client.post(url, {f"p{pairing.pk}-winner": "home", f"p{pairing.pk}-reason": "Away pair left",
                                 "seen": seen}, HTTP_HX_REQUEST="true").text
    assert reverse("gameplay:replay", args=[pairing.match_id]) in fragment and 'data-testid="watch"' not in fragment
    assert gameplay.result_of(pairing.match_id).status == gameplay.Status.ABORTED  # the open table was closed


def test_a_bracket_box_links_to_its_table_while_it_plays_and_to_the_replay_once_it_ended(client):
    organiser, competition, pairing, _pairs = started("single_elimination")
    bracket = reverse("tournaments:bracket", args=[competition.pk])

    table_link = f'href="{reverse("gameplay:table", args=[pairing.match_id])}"'
    assert table_link in client.get(bracket).text

    controls.award_walkover(competition, pairing.pk, "home", organiser, "Away pair left")
    page = client.get(bracket).text
    assert f'href="{reverse("gameplay:replay", args=[pairing.match_id])}"' in page and table_link not in page
