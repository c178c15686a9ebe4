"""A club with one person in every role, for the permission and service tests."""

from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs.models import Club, Invitation, JoinRequest, MemberInvitation, Membership

Role = Membership.Role


@dataclass
class ClubCast:
    club: Club
    owner: object
    organiser: object
    member: object
    target: object      # a second plain member: the one roles are changed on and who is removed
    applicant: object   # has a pending join request
    outsider: object    # signed in, no relation to the club
    join_request: JoinRequest
    invitation: Invitation
    member_invitation: MemberInvitation  # the applicant, invited by name too

    def user(self, who):
        return None if who == "anonymous" else getattr(self, who)


def make_user(username, **extra):
    return get_user_model().objects.create_user(username, f"{username}@example.com", "pw-chalk-123", **extra)


def make_cast(slug="spades", is_public=True) -> ClubCast:
    users = {name: make_user(f"{slug}-{name}") for name in
             ("owner", "organiser", "member", "target", "applicant", "outsider")}
    club = Club.objects.create(name=slug.title(), slug=slug, is_public=is_public, home_games=["baloot"],
                               created_by=users["owner"])
    roles = {"owner": Role.OWNER, "organiser": Role.ORGANISER, "member": Role.MEMBER, "target": Role.MEMBER}
    for name, role in roles.items():
        Membership.objects.create(club=club, user=users[name], role=role)
    join_request = JoinRequest.objects.create(club=club, user=users["applicant"], message="Let me in")
    invitation = Invitation.objects.create(club=club, created_by=users["owner"],
                                           expires_at=timezone.now() + timedelta(days=7))
    member_invitation = MemberInvitation.objects.create(club=club, user=users["applicant"], invited_by=users["owner"],
                                                        expires_at=timezone.now() + timedelta(days=7))
    return ClubCast(club=club, join_request=join_request, invitation=invitation, member_invitation=member_invitation,
                    **users)


@pytest.fixture
def cast(db):
    return make_cast()


@pytest.fixture
def private_cast(db):
    return make_cast("hidden-aces", is_public=False)
