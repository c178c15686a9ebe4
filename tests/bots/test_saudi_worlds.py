"""The search bot's worlds in Baloot's Saudi mode: a guess of the hidden cards, rebuilt from the
seat's view with the mode's actions (buying, doubling with its lock, projects, cards), is at the
same decision as the table: the same seat to act, legal actions, hand and public state."""

import random

from gameplay.bots.rule_bot import rule_choice, table_options
from gameplay.bots.sampler import sample_hands
from gameplay.bots.search_bot import SearchBot, read
from gameplay.bots.worlds import rebuild
from gameplay.rules import get_game

OPTIONS = table_options("baloot", {"game_mode": "saudi_classic", "sun_double_rule": "always"})
GUESSES = 20  # as many as the search draws before it gives up (search_bot.GIVE_UP_AFTER)
PUBLIC = ("phase", "calls", "contract", "trump", "buyer", "level", "closed", "declarations",
          "trick", "played", "score", "face_up", "buying")


def saudi_decisions(seeds, every=2):
    game = get_game("baloot")
    rng = random.Random(7)
    for seed in seeds:
        state = game.start(seed=seed, options=OPTIONS, dealer=seed % 4)
        decisions = 0
        while state.to_act is not None and state.deal_number <= 2:
            seat, legal = state.to_act, state.legal_actions()
            if len(legal) > 1 and decisions % every == 0:
                yield state, seat
            decisions += 1
            # now and then a ladder call or a lock, so the worlds replay those too
            extra = [a for a in legal if a["type"] in ("double", "triple", "four") or a.get("closed")]
            action = rng.choice(extra) if extra and rng.random() < 0.5 else rule_choice(state.view(seat), legal, OPTIONS)
            state.apply(action)


def test_a_saudi_guess_rebuilds_the_position_the_seat_is_deciding():
    rng = random.Random(1)
    rebuilt = phases = 0
    seen_phases = set()
    for state, seat in saudi_decisions(range(8)):
        view = state.view(seat)
        world = None
        for _ in range(GUESSES):  # a guess without the projects declared is refused: draw again
            guess = sample_hands(read(view, OPTIONS), rng, view.get("stock_size", 0))
            world = rebuild(view, OPTIONS, *guess)
            if world is not None:
                break
        assert world is not None, (view["phase"], view["calls"], view["played"])
        assert world.legal_actions() == state.legal_actions()
        mine = world.view(seat)
        assert mine["hand"] == view["hand"]
        assert {k: mine.get(k) for k in PUBLIC} == {k: view.get(k) for k in PUBLIC}
        rebuilt += 1
        seen_phases.add(view["phase"])
    assert rebuilt > 100 and seen_phases == {"buying", "doubling", "play"}


def test_the_strong_bot_searches_in_the_saudi_mode():
    searched = 0
    for state, seat in saudi_decisions(range(2), every=5):
        bot = SearchBot(seed=1, options=OPTIONS, worlds=3)
        action = bot.choose(state.view(seat), state.legal_actions())
        assert action in state.legal_actions()
        searched += bot.searched > 0
    assert searched >= 5
