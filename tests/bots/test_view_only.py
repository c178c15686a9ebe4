"""A bot decides from its seat's view alone: two positions that differ only in the cards hidden
in other hands give the same decision, and the search bot's guesses come from the view only."""

import inspect
import random

import pytest

from gameplay.bots import get_bot
from gameplay.bots.rule_bot import rule_choice, table_options
from gameplay.bots.sampler import sample_hands
from gameplay.bots.search_bot import READERS, SearchBot
from gameplay.rules import GAMES, IllegalAction


def mid_deal_positions(game, seeds=range(6), every=3):
    """(state, seat) at some card plays of the first deal of matches played by the normal bot."""
    options = table_options(game.name, {})
    for seed in seeds:
        state = game.start(seed=seed, dealer=seed % 4)
        decisions = 0
        while state.to_act is not None and state.deal_number == 1 and not state.deal_records:
            seat = state.to_act
            legal = state.legal_actions()
            if state.phase == "play" and len(legal) > 1 and decisions % every == 0:
                yield state, seat
            decisions += 1
            state.apply(rule_choice(state.view(seat), legal, options))


def twin_with_other_hidden_cards(state, seat):
    """The same deal and actions with an unplayed card swapped between two other hands, or None
    when the swap would make a recorded action illegal. Built from the scenario, not the view."""
    scenario = state.scenario()
    deal = scenario["deals"][-1]
    played = {a.get("card") for a in scenario["actions"]}
    shown = set(state.game.deck.codes_of_mask(state.revealed_cards()))
    others = [s for s in range(len(deal["hands"])) if s != seat]
    for first in others:
        for second in others:
            if first >= second:
                continue
            for a in deal["hands"][first][:4]:
                for b in deal["hands"][second][:4]:
                    if {a, b} & (played | shown):
                        continue
                    twin = _replay_swapped(state, scenario, first, second, a, b)
                    if twin is not None:
                        return twin
    return None


def _replay_swapped(state, scenario, first, second, a, b):
    deal = scenario["deals"][-1]
    hands = [list(h) for h in deal["hands"]]
    hands[first][hands[first].index(a)] = b
    hands[second][hands[second].index(b)] = a
    try:
        twin = state.game.start(options=scenario["options"], dealer=scenario["dealer"],
                                deals=[{"hands": hands, "stock": deal["stock"]}])
        for action in scenario["actions"]:
            twin.apply(action)
    except IllegalAction:
        return None
    return twin if twin.to_act == state.to_act else None


def twins(game_name):
    game = GAMES[game_name]
    found = 0
    for state, seat in mid_deal_positions(game):
        twin = twin_with_other_hidden_cards(state, seat)
        if twin is None:
            continue
        assert twin.card_places() != state.card_places()  # other hands really differ
        assert twin.view(seat) == state.view(seat)  # and the seat cannot tell
        found += 1
        yield state, twin, seat
    assert found >= 3


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_rule_based_decision_is_the_same_whatever_the_hidden_cards(game_name):
    options = table_options(game_name, {})
    for state, twin, seat in twins(game_name):
        for level in ("normal", "easy"):
            first = get_bot(level, seed=5, options=options).choose(state.view(seat), state.legal_actions())
            second = get_bot(level, seed=5, options=options).choose(twin.view(seat), twin.legal_actions())
            assert first == second


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_search_guesses_and_decision_are_the_same_whatever_the_hidden_cards(game_name):
    options = table_options(game_name, {})
    for state, twin, seat in twins(game_name):
        guesses = []
        for position in (state, twin):
            seen = READERS[game_name](position.view(seat), options)
            guesses.append(sample_hands(seen, random.Random(3), position.view(seat).get("stock_size", 0)))
        assert guesses[0] == guesses[1]
        decisions = [SearchBot(seed=9, options=options, worlds=2).choose(p.view(seat), p.legal_actions())
                     for p in (state, twin)]
        assert decisions[0] == decisions[1]


def test_the_search_bot_is_given_a_view_and_the_legal_actions_only():
    assert list(inspect.signature(SearchBot.choose).parameters) == ["self", "view", "legal"]


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_guess_fits_what_the_seat_has_seen(game_name):
    options = table_options(game_name, {})
    rng = random.Random(1)
    for state, seat in mid_deal_positions(GAMES[game_name], seeds=range(3)):
        view = state.view(seat)
        seen = READERS[game_name](view, options)
        hands, stock = sample_hands(seen, rng, view.get("stock_size", 0) if game_name == "allfours" else 0)
        assert hands[seat] == state.hands[seat]
        assert [h.bit_count() for h in hands] == view["hand_sizes"]
        for other in range(4):
            assert not hands[other] & seen.played
            if other != seat:
                assert not hands[other] & seen.excluded[other]
                assert hands[other] & seen.known[other] == seen.known[other]


class TickingClock:
    """A clock that moves one millisecond each time it is read: budgets without real time."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.001
        return self.now


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_the_search_stops_when_its_budget_is_spent(game_name):
    options = table_options(game_name, {})
    checked = 0
    for state, seat in mid_deal_positions(GAMES[game_name], seeds=range(2)):
        clock = TickingClock()
        bot = SearchBot(seed=1, options=options, budget=0.02, clock=clock)
        legal = state.legal_actions()
        bot.choose(state.view(seat), legal)
        if bot.searched:
            checked += 1
            # past the deadline it may only finish the choice it was trying when the time ran out
            assert clock.now <= 0.02 + 0.001 * 3
    assert checked
