"""Invitation links, join requests, leaving, removing and roles: the rules and the audit log."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import permissions, services
from clubs.models import AuditEntry, Invitation, JoinRequest, Membership
from tests.clubs.conftest import make_user

pytestmark = pytest.mark.django_db
Role = Membership.Role


def members_of(club):
    return set(club.memberships.values_list("user__username", flat=True))


def role(club, user):
    return Membership.objects.get(club=club, user=user).role


# ----- invitation links ------------------------------------------------------------------------

def test_an_invitation_link_lets_a_new_player_join_and_is_logged(client, cast):
    newcomer = make_user("newcomer")
    client.force_login(newcomer)

    response = client.post(cast.invitation.get_absolute_url())

    assert response.status_code == 302 and response["Location"] == cast.club.get_absolute_url()
    assert role(cast.club, newcomer) == Role.MEMBER
    cast.invitation.refresh_from_db()
    assert cast.invitation.uses == 1
    assert AuditEntry.objects.filter(club=cast.club, actor=newcomer, action=AuditEntry.Action.JOINED).exists()


def test_an_expired_link_is_refused_and_changes_nothing(client, cast):
    Invitation.objects.filter(pk=cast.invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    newcomer = make_user("late")
    client.force_login(newcomer)

    page = client.get(cast.invitation.get_absolute_url())
    client.post(cast.invitation.get_absolute_url())

    assert page.status_code == 410 and "This invitation link has expired." in page.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()
    with pytest.raises(services.ClubError) as refused:
        services.accept_invitation(newcomer, cast.invitation.token)
    assert refused.value.code == "unusable"


def test_a_revoked_link_is_refused(client, cast):
    services.revoke_invitation(cast.organiser, cast.invitation)
    newcomer = make_user("revoked-out")
    client.force_login(newcomer)

    page = client.get(cast.invitation.get_absolute_url())
    client.post(cast.invitation.get_absolute_url())

    assert page.status_code == 410 and "revoked" in page.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()
    assert AuditEntry.objects.filter(club=cast.club, actor=cast.organiser, action=AuditEntry.Action.REVOKED).exists()


def test_a_link_with_a_reuse_limit_stops_after_that_many_joins(cast):
    invitation = services.create_invitation(cast.owner, cast.club, days=1, max_uses=2)
    first, second, third = (make_user(name) for name in ("first", "second", "third"))

    services.accept_invitation(first, invitation.token)
    services.accept_invitation(second, invitation.token)
    with pytest.raises(services.ClubError) as refused:
        services.accept_invitation(third, invitation.token)

    assert refused.value.code == "unusable"
    assert {"first", "second"} <= members_of(cast.club) and "third" not in members_of(cast.club)
    invitation.refresh_from_db()
    assert invitation.uses == 2 and invitation.is_used_up


def test_a_member_following_a_link_does_not_use_it_up(cast):
    invitation = services.create_invitation(cast.owner, cast.club, days=1, max_uses=1)

    with pytest.raises(services.ClubError) as refused:
        services.accept_invitation(cast.member, invitation.token)

    assert refused.value.code == "already_member"
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_a_link_opens_a_private_club_to_its_holder(client, private_cast):
    newcomer = make_user("guest")
    client.force_login(newcomer)
    assert client.get(private_cast.club.get_absolute_url()).status_code == 404

    client.post(private_cast.invitation.get_absolute_url())

    assert client.get(private_cast.club.get_absolute_url()).status_code == 200


def test_an_unknown_token_is_404(client, cast):
    assert client.get(reverse("clubs:invitation", args=["nope"])).status_code == 404


def test_an_invitation_needs_at_least_a_day_and_one_use(cast):
    with pytest.raises(services.ClubError):
        services.create_invitation(cast.owner, cast.club, days=0)
    with pytest.raises(services.ClubError):
        services.create_invitation(cast.owner, cast.club, days=1, max_uses=0)


def test_the_invitation_form_rejects_a_zero_limit_and_creates_nothing(client, cast):
    client.force_login(cast.organiser)
    before = Invitation.objects.count()

    response = client.post(reverse("clubs:invitations", args=[cast.club.slug]), {"days": "7", "max_uses": "0"})

    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert Invitation.objects.count() == before


def test_after_an_error_on_the_invite_by_name_form_create_a_link_still_posts_to_the_links(client, cast):
    client.force_login(cast.organiser)
    refused = client.post(reverse("clubs:invite_member", args=[cast.club.slug]), {"player-who": "nobody-at-all", "player-days": "7"})
    assert refused.status_code == 400
    html = refused.content.decode()
    links_form = html[html.index('data-testid="invitation-form"') - 200:html.index('data-testid="invitation-form"')]
    action = re.search(r'<form method="post" action="([^"]+)"[^>]*$', links_form).group(1)
    assert action == reverse("clubs:invitations", args=[cast.club.slug])

    before = Invitation.objects.count()
    client.post(action, {"days": "7", "max_uses": "3"})
    assert Invitation.objects.count() == before + 1


# ----- join requests ---------------------------------------------------------------------------

def test_approving_a_request_makes_a_member(client, cast):
    client.force_login(cast.organiser)

    client.post(reverse("clubs:decide", args=[cast.club.slug, cast.join_request.pk, "approve"]))

    assert role(cast.club, cast.applicant) == Role.MEMBER
    cast.join_request.refresh_from_db()
    assert cast.join_request.status == JoinRequest.Status.APPROVED and cast.join_request.decided_by == cast.organiser
    assert AuditEntry.objects.filter(action=AuditEntry.Action.APPROVED, target=cast.applicant).exists()


def test_declining_a_request_leaves_the_applicant_outside(client, cast):
    client.force_login(cast.owner)

    client.post(reverse("clubs:decide", args=[cast.club.slug, cast.join_request.pk, "decline"]))

    assert not Membership.objects.filter(club=cast.club, user=cast.applicant).exists()
    cast.join_request.refresh_from_db()
    assert cast.join_request.status == JoinRequest.Status.DECLINED
    assert AuditEntry.objects.filter(action=AuditEntry.Action.DECLINED, target=cast.applicant).exists()


def test_a_request_is_answered_once(cast):
    services.decide_request(cast.owner, cast.join_request, approve=False)

    with pytest.raises(services.ClubError) as refused:
        services.decide_request(cast.organiser, cast.join_request, approve=True)

    assert refused.value.code == "decided"
    assert not Membership.objects.filter(club=cast.club, user=cast.applicant).exists()


def test_approving_over_htmx_returns_the_row_not_a_page(client, cast):
    client.force_login(cast.organiser)

    response = client.post(reverse("clubs:decide", args=[cast.club.slug, cast.join_request.pk, "approve"]),
                           HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200 and html.startswith("<li") and "<html" not in html
    assert "Approved" in html


def test_a_player_asks_once(client, cast):
    client.force_login(cast.outsider)
    url = reverse("clubs:request", args=[cast.club.slug])

    client.post(url, {"message": "Baloot on Thursdays?"})
    client.post(url, {"message": "again"})

    assert JoinRequest.objects.filter(club=cast.club, user=cast.outsider).count() == 1
    assert AuditEntry.objects.filter(action=AuditEntry.Action.REQUESTED, actor=cast.outsider).count() == 1


def test_a_private_club_takes_no_join_requests(private_cast):
    with pytest.raises(services.ClubError):
        services.request_to_join(private_cast.outsider, private_cast.club)


# ----- leaving, removing, roles ----------------------------------------------------------------

def test_the_last_owner_cannot_leave(client, cast):
    client.force_login(cast.owner)

    response = client.post(reverse("clubs:leave", args=[cast.club.slug]), follow=True)

    assert "A club needs an owner" in response.content.decode()
    assert role(cast.club, cast.owner) == Role.OWNER


def test_an_owner_can_leave_once_there_is_another_owner(cast):
    services.change_role(cast.owner, Membership.objects.get(club=cast.club, user=cast.organiser), Role.OWNER)

    services.leave(cast.owner, cast.club)

    assert cast.owner.username not in members_of(cast.club)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.LEFT, actor=cast.owner).exists()


def test_the_last_owner_cannot_step_down(cast):
    own = Membership.objects.get(club=cast.club, user=cast.owner)

    with pytest.raises(services.ClubError) as refused:
        services.change_role(cast.owner, own, Role.MEMBER)

    assert refused.value.code == "last_owner" and role(cast.club, cast.owner) == Role.OWNER


def test_a_member_leaves(client, cast):
    client.force_login(cast.member)

    response = client.post(reverse("clubs:leave", args=[cast.club.slug]))

    assert response.status_code == 302 and cast.member.username not in members_of(cast.club)


def test_changing_a_role_is_logged_with_old_and_new(client, cast):
    client.force_login(cast.owner)

    client.post(reverse("clubs:member_role", args=[cast.club.slug, cast.target.pk]), {"role": "organiser"})

    assert role(cast.club, cast.target) == Role.ORGANISER
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ROLE_CHANGED)
    assert (entry.actor, entry.target, entry.detail) == (cast.owner, cast.target, {"old": "member", "new": "organiser"})


def test_changing_a_role_over_htmx_returns_the_row(client, cast):
    client.force_login(cast.owner)

    response = client.post(reverse("clubs:member_role", args=[cast.club.slug, cast.target.pk]),
                           {"role": "organiser"}, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert response.status_code == 200 and html.startswith("<li") and "Organiser" in html and "Saved" in html


def test_an_unknown_role_is_a_clear_error_and_changes_nothing(client, cast):
    client.force_login(cast.owner)

    response = client.post(reverse("clubs:member_role", args=[cast.club.slug, cast.target.pk]),
                           {"role": "emperor"}, follow=True)

    assert "Choose one of the roles." in response.content.decode()
    assert role(cast.club, cast.target) == Role.MEMBER


def test_an_organiser_removes_a_member_but_not_another_organiser(client, cast):
    other = make_user("second-organiser")
    Membership.objects.create(club=cast.club, user=other, role=Role.ORGANISER)
    client.force_login(cast.organiser)

    removed = client.post(reverse("clubs:member_remove", args=[cast.club.slug, cast.target.pk]))
    refused = client.post(reverse("clubs:member_remove", args=[cast.club.slug, other.pk]))

    assert removed.status_code == 302 and cast.target.username not in members_of(cast.club)
    assert refused.status_code == 403 and other.username in members_of(cast.club)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.REMOVED, target=cast.target).exists()


def test_every_change_shows_in_the_activity_log(client, cast):
    services.change_role(cast.owner, Membership.objects.get(club=cast.club, user=cast.target), Role.ORGANISER)
    client.force_login(cast.organiser)

    html = client.get(reverse("clubs:log", args=[cast.club.slug])).content.decode()

    assert "changed a role" in html and "Member" in html and "Organiser" in html


# ----- permissions module ----------------------------------------------------------------------

def test_role_of_answers_from_one_query_per_club(cast, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert permissions.role_of(cast.organiser, cast.club) == Role.ORGANISER
        assert permissions.can_organise(cast.organiser, cast.club)
        assert not permissions.is_owner(cast.organiser, cast.club)
        assert permissions.is_member(cast.organiser, cast.club)


def test_anonymous_users_have_no_role(cast):
    from django.contrib.auth.models import AnonymousUser

    anonymous = AnonymousUser()
    assert permissions.role_of(anonymous, cast.club) is None
    assert permissions.can_view_club(anonymous, cast.club)
    assert not permissions.can_organise(anonymous, cast.club)


def test_staff_may_view_a_private_club(private_cast):
    staff = make_user("staffer", is_staff=True)
    assert permissions.can_view_club(staff, private_cast.club)
    assert not permissions.can_organise(staff, private_cast.club)


# ----- play now and templates ------------------------------------------------------------------

def test_play_now_opens_the_new_table_form_with_the_clubs_game(client, cast):
    client.force_login(cast.member)

    response = client.get(reverse("clubs:play", args=[cast.club.slug]))

    assert response["Location"] == "/play/new/?game=baloot"


def test_templates_ask_the_permissions_module(cast):
    from django.template import Context, Template

    template = Template("{% load club_perms %}{% if user|can_organise:club %}tools{% endif %}")

    assert template.render(Context({"user": cast.organiser, "club": cast.club})) == "tools"
    assert template.render(Context({"user": cast.member, "club": cast.club})) == ""


def test_the_archive_filters_by_player(client, cast):
    from django.utils import timezone as tz

    from gameplay.models import Match, Seat

    theirs, other = Match.objects.bulk_create([
        Match(game="baloot", seed=1, status=Match.Status.FINISHED, finished_at=tz.now()),
        Match(game="baloot", seed=2, status=Match.Status.FINISHED, finished_at=tz.now())])
    Seat.objects.create(match=theirs, seat=0, user=cast.member)
    Seat.objects.create(match=other, seat=0, user=cast.outsider)

    html = client.get(f"/matches/?player={cast.member.username}").content.decode()

    assert f"#{theirs.pk}<" in html and f"#{other.pk}<" not in html
    assert f'/matches/?player={cast.member.username}' in client.get(
        reverse("player", args=[cast.member.username])).content.decode()


def test_the_spanish_invitation_message_does_not_guess_the_players_gender(client, cast):
    client.force_login(cast.organiser)
    response = client.post(reverse("clubs:invite_member", args=[cast.club.slug]),
                           {"player-who": cast.outsider.username, "player-days": "7"}, follow=True,
                           HTTP_ACCEPT_LANGUAGE="es")
    html = response.content.decode()
    assert "Invitación enviada a" in html and "está invitado" not in html
