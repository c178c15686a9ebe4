"""Rematch and Play now by clicking (issue 32): two people at a finished table with two bots
propose and accept a rematch and both land at the new table; a player opens Play now from the
lobby and is seated with a waiting stranger and two bots."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from gameplay import play_now
from gameplay.models import Match
from gameplay.rules import get_game
from gameplay.services import SeatSpec, create_match

from .play_helpers import log_in, shot

pytestmark = pytest.mark.browser


def kick_decided_seed():
    engine = get_game("allfours")
    return next(s for s in range(1000) if engine.start(seed=s, options={"target_score": 1}, dealer=3).is_over)


def signed_in_page(browser, asgi_live, username):
    context = browser.new_context(base_url=asgi_live.url, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, username)
    return context, page


@pytest.mark.timeout(300)
def test_two_people_click_rematch_and_both_land_at_the_same_table_again(browser, asgi_live):
    ann_context, ann = signed_in_page(browser, asgi_live, "rematch-ann")
    bob_context, bob = signed_in_page(browser, asgi_live, "rematch-bob")
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(username__in=["rematch-ann", "rematch-bob"]).order_by("username")
    match = create_match("allfours", {"target_score": 1}, [SeatSpec(user=users[0]), SeatSpec(user=users[1]),
                                                           SeatSpec(bot="random"), SeatSpec(bot="random")],
                         seed=kick_decided_seed(), first_dealer=3)
    match.refresh_from_db()
    assert match.status == "finished"
    for page in (ann, bob):
        page.goto(f"/matches/{match.pk}/")
        expect(page.get_by_test_id("match-result")).to_be_visible()

    ann.get_by_test_id("rematch").click()
    expect(ann.get_by_test_id("rematch-proposed")).to_have_text("You proposed a rematch.")
    expect(bob.get_by_test_id("rematch-proposed")).to_contain_text("rematch-ann")
    expect(bob.get_by_test_id("rematch-waiting")).to_contain_text("rematch-bob")
    expect(bob.get_by_test_id("rematch-accepted")).to_contain_text("rematch-ann")
    shot(bob, "rematch-proposed")
    bob.get_by_test_id("rematch-accept").click()

    ann.wait_for_url(lambda url: f"/matches/{match.pk}/" not in url)
    bob.wait_for_url(lambda url: f"/matches/{match.pk}/" not in url)
    again = Match.objects.exclude(pk=match.pk).get()
    assert ann.url.endswith(f"/matches/{again.pk}/") and bob.url.endswith(f"/matches/{again.pk}/")
    assert list(again.seats.order_by("seat").values_list("user__username", flat=True)) == [
        "rematch-ann", "rematch-bob", None, None]
    ann_context.close()
    bob_context.close()


@pytest.mark.timeout(300)
def test_play_now_from_the_lobby_seats_the_player_with_a_waiting_stranger_and_two_bots(browser, asgi_live):
    context, page = signed_in_page(browser, asgi_live, "queue-cleo")
    from django.contrib.auth import get_user_model

    stranger = get_user_model().objects.create_user("queue-dev")
    play_now.join(stranger, "allfours", "trinidad_standard", bots_after=15,
                  now=timezone.now() - timedelta(seconds=20))  # waiting longer than their bots' wait
    page.goto("/play/")
    page.get_by_test_id("play-now").click()
    page.select_option("#id_queue", "allfours:trinidad_standard")
    page.select_option("#id_bots_after", "15")
    page.get_by_test_id("join-queue").click()
    page.wait_for_url("**/matches/*/")
    match = Match.objects.get()
    assert page.url.endswith(f"/matches/{match.pk}/")
    assert set(match.seats.exclude(user=None).values_list("user__username", flat=True)) == {"queue-cleo", "queue-dev"}
    assert match.seats.exclude(bot="").count() == 2
    context.close()


@pytest.mark.timeout(300)
def test_the_play_now_form_and_wait_fit_a_360_px_phone_in_arabic_and_spanish(browser, asgi_live):
    from .test_phone_width import PHONE, STICKING_OUT

    context = browser.new_context(base_url=asgi_live.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, "queue-phone")
    failures = []
    for language in ["ar", "es"]:
        context.add_cookies([{"name": "django_language", "value": language, "url": asgi_live.url}])
        page.goto("/play/now/")
        page.select_option("#id_queue", "baloot:saudi_arena_sheet")  # the longest name
        for step in ("form", "wait"):
            found = page.evaluate(STICKING_OUT)
            if found["scroll"] > found["width"]:
                failures.append(f"{language} {step}: {found['scroll']} px wide: {found['out']}")
                shot(page, f"play-now-{language}-{step}")
            if step == "form":
                page.get_by_test_id("join-queue").click()
                expect(page.get_by_test_id("queue-wait")).to_be_visible()
        page.get_by_test_id("leave-queue").click()
        expect(page.get_by_test_id("play-now-form")).to_be_visible()
    context.close()
    assert not failures, "\n".join(failures)
