"""Positions for bot tests, built by the engine itself from fixed cards and a list of actions.

`position(game, hands, actions, ...)` deals the given hands (the rest of the deck goes to the
stock in deck order after any cards named first), replays the actions and returns the state.
"""

from gameplay.rules import get_game


def position(game_name, hands, actions=(), *, dealer=3, stock_top=(), options=None, score=None,
             avoid=""):
    """Hands not given in full are filled with other cards, none of the suits in `avoid` while
    others are left (so a filler card does not give a seat a trump the test did not mean)."""
    game = get_game(game_name)
    deck = game.deck
    hands = list(hands) + [[]] * (4 - len(hands))
    used = {code for hand in hands for code in hand} | set(stock_top)
    hand_sizes, stock_size = game.deal_sizes(game.resolve_options(options or {}))
    rest = sorted((code for code in deck.codes if code not in used), key=lambda code: code[-1] in avoid)
    filled = [list(hand) for hand in hands]
    needed = sum(hand_sizes) - sum(len(hand) for hand in hands)
    spare, stock = rest[:needed], list(stock_top) + rest[needed:][:stock_size - len(stock_top)]
    for seat, size in enumerate(hand_sizes):
        while len(filled[seat]) < size:
            filled[seat].append(spare.pop(0))
    state = game.start(options=options, dealer=dealer, deals=[{"hands": filled, "stock": stock}],
                       start_score=score)
    for action in actions:
        state.apply(dict(action, seat=action.get("seat", state.to_act)))
    return state


def plays(*codes):
    return [{"type": "play", "card": code} for code in codes]


def baloot_position(hands8, actions=(), *, dealer=3, options=None, score=None):
    """A Baloot deal from the 8-card hands: five dealt first, three from the stock (R3, R5)."""
    from gameplay.rules import get_game

    stock = []
    for step in range(4):
        stock += hands8[(dealer + 1 + step) % 4][5:]
    game = get_game("baloot")
    state = game.start(options=options, dealer=dealer, start_score=score,
                       deals=[{"hands": [hand[:5] for hand in hands8], "stock": stock}])
    for action in actions:
        state.apply(dict(action, seat=action.get("seat", state.to_act)))
    return state


def passes(count):
    return [{"type": "pass"}] * count
