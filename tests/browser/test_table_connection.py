"""The live table's plumbing in Chromium: an invitation link seats a friend, the creator fills the
rest with bots and both pages start; a dropped socket shows "offline" and reconnects by itself."""

import re

import pytest
from playwright.sync_api import expect

from gameplay.models import Match

from .play_helpers import log_in, start_table_against_bots

pytestmark = pytest.mark.browser


def test_a_friend_joins_by_the_invite_link_and_the_table_starts_for_both(page, browser, asgi_live):
    log_in(page, "host")
    page.goto("/play/new/")
    page.select_option("#id_game", "cuatrola")
    expect(page.locator("#id_preset option[value=ludoteka_21]")).to_have_count(1)
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("waiting")).to_contain_text("Waiting for players")
    invite = page.get_by_test_id("invite-link").input_value()
    assert re.search(r"/matches/join/[\w-]+/$", invite)

    friend = browser.new_context(base_url=asgi_live.url, locale="en-US").new_page()
    log_in(friend, "guest")
    friend.goto(invite)
    expect(friend).to_have_url(re.compile(r"/matches/\d+/$"))
    expect(page.get_by_test_id("waiting")).to_contain_text("guest")  # the host's list refreshed itself

    page.get_by_test_id("fill-bots").click()
    match = Match.objects.get()
    assert match.status == "playing" and match.seats.get(seat=1).user.username == "guest"
    for someone in (page, friend):
        expect(someone.get_by_test_id("waiting")).to_be_hidden(timeout=10_000)
        expect(someone.get_by_test_id("hand").locator(".hand-card")).to_have_count(5)
    friend.context.close()


def test_a_dropped_connection_shows_offline_and_comes_back_by_itself(page):
    log_in(page, "wanderer")
    start_table_against_bots(page, "allfours", "short_seven")
    badge = page.get_by_test_id("connection")
    expect(badge).to_be_hidden()
    seq = page.evaluate("window.chalkTable.frame.seq")
    page.evaluate("window.chalkTable.socket.close()")
    expect(badge).to_be_visible()
    expect(badge).to_contain_text("Offline")
    expect(badge).to_be_hidden(timeout=10_000)  # reconnected, with backoff
    page.wait_for_function("seq => window.chalkTable.frame.seq >= seq && window.chalkTable.socket.readyState === 1", arg=seq)
    page.locator(".hand-card.legal:not(:disabled), .act-button:not(:disabled)").first.click()
    page.wait_for_function("seq => window.chalkTable.frame.seq > seq", arg=seq)


def test_an_ack_that_overtakes_its_frame_keeps_the_decision_taken_until_the_frame_is_here(page):
    """docs/live-protocol.md "Order of frames": the ack comes straight back while the state goes
    through the channel layer. Until that state is here the page shows the old table, and a
    second click on it would be answered `stale`."""
    held, acks, route = [], [], {}
    holding = {"on": False}

    def relay(socket):
        server = socket.connect_to_server()
        route["client"] = socket

        def to_client(message):
            if '"type":"ack"' in message.replace(" ", ""):
                acks.append(message)
            if holding["on"] and '"type":"state"' in message.replace(" ", ""):
                held.append(message)
            else:
                socket.send(message)
        server.on_message(to_client)
        socket.on_message(server.send)

    page.route_web_socket(re.compile(r"/ws/matches/"), relay)
    log_in(page, "patient")
    start_table_against_bots(page, "allfours", "short_seven")
    control = ".hand-card.legal:not(:disabled), .act-button:not(:disabled)"
    page.wait_for_function(f"() => !window.chalkTable.pending && document.querySelector('{control}')")
    seq = page.evaluate("window.chalkTable.frame.seq")

    holding["on"] = True
    page.locator(control).first.click()
    page.wait_for_timeout(100)
    deadline = 50
    while not acks and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    assert acks, "the server acked the move"
    page.wait_for_timeout(300)  # time for the page to (wrongly) unlock on the ack alone
    assert page.evaluate("window.chalkTable.frame.seq") == seq  # the frame is still held back
    assert page.evaluate("window.chalkTable.pending") is not None
    expect(page.locator(control)).to_have_count(0)  # nothing to click on the old table

    holding["on"] = False
    for message in held:
        route["client"].send(message)
    page.wait_for_function("seq => window.chalkTable.frame.seq > seq && !window.chalkTable.pending", arg=seq)
    expect(page.locator(".error-line")).to_have_text("")
