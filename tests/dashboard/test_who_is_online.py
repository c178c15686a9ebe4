"""Who is online (issue 32): a member with a Chalk tab open (its /ws/me/ socket) is online on
the club page; closing the last tab takes them off; a process keeps its users online while
their tabs stay open, and a cache out of reach closes no tab."""

import asyncio

import pytest
from channels.db import database_sync_to_async as db
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from clubs import online
from clubs.models import Club, Membership
from tests.gameplay.helpers import make_user

from .test_me_channel import connected

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def club_with(*users) -> Club:
    club = Club.objects.create(name="Diamonds", slug="diamonds", is_public=True, created_by=users[0])
    for index, user in enumerate(users):
        Membership.objects.create(club=club, user=user, role="owner" if index == 0 else "member")
    return club


def club_page(club, viewer) -> str:
    client = Client()
    client.force_login(viewer)
    response = client.get(reverse("clubs:detail", args=[club.slug]))
    assert response.status_code == 200
    return response.content.decode()


async def test_a_member_with_a_tab_open_is_online_on_the_club_page_until_the_last_tab_closes():
    here, away = await db(make_user)(), await db(make_user)()
    club = await db(club_with)(here, away)
    first, _ = await connected(here)
    second, _ = await connected(here)
    assert await db(online.online_among)([here.pk, away.pk]) == {here.pk}
    page = await db(club_page)(club, away)
    assert page.count('data-testid="online-member"') == 1 and "1 member online now" in page
    await first.close()  # another tab is still open
    assert await db(online.online_among)([here.pk]) == {here.pk}
    await second.close()
    assert await db(online.online_among)([here.pk]) == set()
    assert "0 members online now" in await db(club_page)(club, away)


async def test_a_process_tells_the_cache_again_while_the_tabs_stay_open(monkeypatch):
    monkeypatch.setattr(online, "REFRESH_SECONDS", 0.05)
    user = await db(make_user)()
    socket, _ = await connected(user)
    await db(cache.delete)(online.key_of(user.pk))  # as if the key had expired
    for _ in range(40):
        await asyncio.sleep(0.05)
        if await db(online.online_among)([user.pk]):
            break
    assert await db(online.online_among)([user.pk]) == {user.pk}
    await socket.close()


async def test_a_cache_out_of_reach_closes_no_tab(monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("redis is away")

    monkeypatch.setattr(online, "_mark", broken)
    user = await db(make_user)()
    socket, first = await connected(user)
    assert first["type"] == "notifications"
    await socket.close()
