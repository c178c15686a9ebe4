"""Every club URL and action × anonymous / non-member / member / organiser / owner gets exactly the
answer docs/permissions.md documents: 200, 302 (the action was done, or refused with a message),
403, 404, or LOGIN (a redirect to the login page).

A private club answers 404 to anyone who is not a member, anonymous users included, before any
login redirect: its existence does not leak. Invitation links are the exception: the token is the
secret, so they answer as for a public club.
"""

import pytest
from django.urls import reverse

from tests.clubs.conftest import make_cast

pytestmark = pytest.mark.django_db
ROLES = ["anonymous", "outsider", "member", "organiser", "owner"]
LOGIN = "LOGIN"


def slug_url(name, *args):
    return lambda c: reverse(f"clubs:{name}", args=[c.club.slug, *args(c)] if args else [c.club.slug])


def target_url(name):
    return lambda c: reverse(f"clubs:{name}", args=[c.club.slug, c.target.pk])


def decide_url(decision):
    return lambda c: reverse("clubs:decide", args=[c.club.slug, c.join_request.pk, decision])


# (name, method, url, data, answers for ROLES in a public club)
CLUB_MATRIX = [
    ("club page", "get", slug_url("detail"), None, [200, 200, 200, 200, 200]),
    ("members page", "get", slug_url("members"), None, [200, 200, 200, 200, 200]),
    ("play now", "get", slug_url("play"), None, [LOGIN, 403, 302, 302, 302]),
    ("settings form", "get", slug_url("edit"), None, [LOGIN, 403, 403, 403, 200]),
    ("save settings", "post", slug_url("edit"),
     {"name": "Renamed", "slug": "renamed", "home_games": ["allfours"], "time_zone": "UTC",
      "default_language": "en", "is_public": "on"}, [LOGIN, 403, 403, 403, 302]),
    ("activity log", "get", slug_url("log"), None, [LOGIN, 403, 403, 200, 200]),
    ("change a role", "post", target_url("member_role"), {"role": "organiser"}, [LOGIN, 403, 403, 403, 302]),
    ("remove a member", "post", target_url("member_remove"), None, [LOGIN, 403, 403, 302, 302]),
    ("leave", "post", slug_url("leave"), None, [LOGIN, 403, 302, 302, 302]),
    ("invitation links", "get", slug_url("invitations"), None, [LOGIN, 403, 403, 200, 200]),
    ("create a link", "post", slug_url("invitations"), {"days": "7"}, [LOGIN, 403, 403, 302, 302]),
    ("revoke a link", "post", lambda c: reverse("clubs:invitation_revoke", args=[c.club.slug, c.invitation.pk]),
     None, [LOGIN, 403, 403, 302, 302]),
    ("invite a player", "post", slug_url("invite_member"),
     lambda c: {"player-who": c.outsider.username, "player-days": "7"}, [LOGIN, 403, 403, 302, 302]),
    ("withdraw a personal invitation", "post",
     lambda c: reverse("clubs:member_invitation_revoke", args=[c.club.slug, c.member_invitation.pk]),
     None, [LOGIN, 403, 403, 302, 302]),
    ("join request form", "get", slug_url("request"), None, [LOGIN, 200, 403, 403, 403]),
    ("ask to join", "post", slug_url("request"), {"message": "hi"}, [LOGIN, 302, 403, 403, 403]),
    ("join requests", "get", slug_url("requests"), None, [LOGIN, 403, 403, 200, 200]),
    ("approve a request", "post", decide_url("approve"), None, [LOGIN, 403, 403, 302, 302]),
    ("decline a request", "post", decide_url("decline"), None, [LOGIN, 403, 403, 302, 302]),
]
# URLs outside a club's slug: the same answers whether the club is public or private.
OPEN_MATRIX = [
    ("club list", "get", lambda c: reverse("clubs:list"), None, [200, 200, 200, 200, 200]),
    ("new club form", "get", lambda c: reverse("clubs:create"), None, [LOGIN, 200, 200, 200, 200]),
    ("invitation page", "get", lambda c: c.invitation.get_absolute_url(), None, [200, 200, 200, 200, 200]),
    ("accept an invitation", "post", lambda c: c.invitation.get_absolute_url(), None, [LOGIN, 302, 302, 302, 302]),
    ("player page", "get", lambda c: reverse("player", args=[c.member.username]), None, [200, 200, 200, 200, 200]),
]


def private_answers(answers):
    """Members answer as in a public club (except that asking to join is never offered);
    everyone else gets 404."""
    return [404, 404, *answers[2:]]


def cases():
    for name, method, url, data, answers in CLUB_MATRIX:
        for role, answer in zip(ROLES, answers):
            yield pytest.param(True, method, url, data, role, answer, id=f"public-{name}-{role}")
        for role, answer in zip(ROLES, private_answers(answers)):
            yield pytest.param(False, method, url, data, role, answer, id=f"private-{name}-{role}")
    for name, method, url, data, answers in OPEN_MATRIX:
        for public in (True, False):
            for role, answer in zip(ROLES, answers):
                yield pytest.param(public, method, url, data, role, answer,
                                   id=f"{'public' if public else 'private'}-{name}-{role}")


def answer_of(response):
    if response.status_code == 302 and response["Location"].startswith(reverse("account_login")):
        return LOGIN
    return response.status_code


@pytest.mark.parametrize("public, method, url, data, role, expected", list(cases()))
def test_each_role_gets_the_documented_answer(client, public, method, url, data, role, expected):
    cast = make_cast("open-club" if public else "closed-club", is_public=public)
    user = cast.user(role)
    if user is not None:
        client.force_login(user)

    response = getattr(client, method)(url(cast), (data(cast) if callable(data) else data) or {})

    assert answer_of(response) == expected


def test_the_matrix_covers_every_club_url():
    """A new URL in clubs/urls.py must get a row here (and in docs/permissions.md)."""
    from clubs.urls import urlpatterns

    covered = {"detail", "members", "play", "edit", "log", "member_role", "member_remove", "leave",
               "invitations", "invitation_revoke", "invite_member", "member_invitation_revoke", "request", "requests", "decide", "list", "create", "invitation"}
    assert {pattern.name for pattern in urlpatterns} == covered


def test_the_documented_table_matches_the_matrix():
    """docs/permissions.md lists the same answers as this test."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "permissions.md").read_text()
    for name, _method, _url, _data, answers in CLUB_MATRIX + OPEN_MATRIX:
        row = next((line for line in doc.splitlines() if line.startswith(f"| {name} |")), None)
        assert row is not None, f"docs/permissions.md has no row for {name!r}"
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[-5:] == [str(a) for a in answers], name
