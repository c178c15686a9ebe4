"""The club page lists the club's competitions from tournaments.pages through a template tag, so
clubs reads no competition row (issue 33, "No app imports back up"): a visitor sees the public
ones, a member the members-only ones too, an organiser the drafts as well."""

import pytest
from django.urls import reverse

from clubs.models import Membership
from tests.competitions_db.helpers import make_club, make_competition, make_user
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def test_the_club_page_shows_each_reader_the_competitions_they_may_see(client):
    organiser, member = make_user("organiser"), make_user("member")
    club = make_club(organiser, is_public=True)
    Membership.objects.create(club=club, user=member)
    running = make_competition(club, status=Competition.Status.RUNNING)
    private = make_competition(club, status=Competition.Status.OPEN, visibility=Competition.Visibility.MEMBERS)
    draft = make_competition(club, status=Competition.Status.DRAFT)
    page = reverse("clubs:detail", args=[club.slug])

    def names(user=None):
        client.logout()
        if user is not None:
            client.force_login(user)
        html = client.get(page).text
        return {c.name for c in (running, private, draft) if f">{c.name}</a>" in html}

    assert names() == {running.name}
    assert names(member) == {running.name, private.name}
    assert names(organiser) == {running.name, private.name, draft.name}
