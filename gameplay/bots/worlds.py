"""Turn a seat's view plus a guess of the hidden hands into a full engine state.

The search bot never sees a state: it gets a view, guesses the hidden cards (`sampler`), and
rebuilds a world from (view, guessed hands) by starting the engine on the deal those hands imply
and replaying the deal's public actions as the view shows them (calls, declarations, cantes and
cards played). The rebuilt world stops at the end of the current deal, which is the horizon the
search looks at. `rebuild` returns None when the guess cannot reproduce the view (the caller then
draws another guess).

`hands[s]` is a mask of the cards seat s holds now (the seat's own hand is its real one).
"""

from __future__ import annotations

from gameplay.rules import IllegalAction, ScenarioError, get_game
from gameplay.rules.allfours import KICK_POINTS, RANK_OF as AF_RANK_OF
from gameplay.rules.baloot import NO_TRUMP
from gameplay.rules.baloot_melds import CARD_INDEX
from gameplay.rules.baloot_saudi_scoring import project_kind
from gameplay.rules.cards import iter_bits


def _codes(deck, cards) -> list[str]:
    return [deck.codes[c] for c in cards]


def _replay(game, options, dealer, deal, start_score, actions, judge=None):
    """The deal played through `actions`; None if the engine refuses one, or if `judge(state,
    action)` says a seat would not have made one of them with the hand the guess gives it."""
    try:
        state = game.start(options=options, dealer=dealer, deals=[deal], start_score=start_score)
        for action in actions:
            if judge is not None and not judge(state, action):
                return None
            state.apply(action)
    except (IllegalAction, ScenarioError):
        return None
    return state


# ----- All Fours -----------------------------------------------------------------------------

def _allfours_deal(view, deck, full_hands, stock_rest):
    """Hands of the first dealing step, and the stock: the kick, then for every run of the pack
    three cards per seat from d+1 and the next turn-up, then the unknown rest."""
    players = view.get("players", 4)
    dealer = view["dealer"]
    turn_ups = [deck.index[c] for c in view["turn_ups"]]
    held = [sorted(iter_bits(full_hands[s])) for s in range(players)]
    first = [cards[:6] for cards in held]
    stock = [turn_ups[0]]
    for run, turn_up in enumerate(turn_ups[1:]):
        for step in range(players):
            seat = (dealer + 1 + step) % players
            stock.extend(held[seat][6 + 3 * run:9 + 3 * run])
        stock.append(turn_up)
    stock.extend(stock_rest)
    return {"hands": [_codes(deck, h) for h in first], "stock": _codes(deck, stock)}


def _allfours_start_score(view, options):
    """The score before this deal: take off the kick points and the begging point it scored."""
    score = list(view["score"])
    kicks = KICK_POINTS[options["kick_scoring"]]
    dealer_team = view["dealer"] % 2
    for code in view["turn_ups"]:
        score[dealer_team] -= kicks.get(AF_RANK_OF[get_game("allfours").deck.index[code]], 0)
    if view.get("decision") == "give_one":
        score[(view["dealer"] + 1) % 2] -= 1
    return score


def rebuild_allfours(view, options, hands, stock_rest, judge=None):
    game = get_game("allfours")
    players = view.get("players", 4)
    pone = (view["dealer"] + 1) % players
    full = [hands[s] | _played_by(view["played"], game.deck, s) for s in range(players)]
    decision = view.get("decision") or ("beg" if view["phase"] == "dealer_choice" else "none")
    actions = {"stand": [{"type": "stand"}], "give_one": [{"type": "beg"}, {"type": "give_one"}],
               "run_pack": [{"type": "beg"}, {"type": "run_pack"}], "beg": [{"type": "beg"}],
               "none": []}[decision]
    actions = [{"seat": pone if a["type"] in ("stand", "beg") else view["dealer"], **a} for a in actions]
    actions += [{"seat": p["seat"], "type": "play", "card": p["card"]} for p in view["played"]]
    deal = _allfours_deal(view, game.deck, full, stock_rest)
    return _replay(game, options, view["dealer"], deal, _allfours_start_score(view, options), actions, judge)


def _played_by(played: list[dict], deck, seat: int) -> int:
    mask = 0
    for p in played:
        if p["seat"] == seat:
            mask |= 1 << deck.index[p["card"]]
    return mask


# ----- Baloot --------------------------------------------------------------------------------

def rebuild_baloot(view, options, hands, stock_rest, judge=None):
    """Eight cards a seat: five as if dealt before the auction, three from the stock after it."""
    game = get_game("baloot")
    deck, dealer = game.deck, view["dealer"]
    full = [sorted(iter_bits(hands[s] | _played_by(view["played"], deck, s))) for s in range(4)]
    stock = []  # in the play: each seat's last three cards; in the auction: the guessed stock
    for step in range(4):
        stock.extend(full[(dealer + 1 + step) % 4][5:])
    stock.extend(stock_rest)
    deal = {"hands": [_codes(deck, cards[:5]) for cards in full], "stock": _codes(deck, stock)}
    actions = [_baloot_call(c) for c in view["auction"]]
    declared = {d["seat"]: d["melds"] for d in view.get("declarations", [])}
    for number, p in enumerate(view["played"]):
        if number < 4 and p["seat"] in declared:
            actions.append({"seat": p["seat"], "type": "declare", "melds": declared.pop(p["seat"])})
        actions.append({"seat": p["seat"], "type": "play", "card": p["card"]})
    if view["to_act"] in declared and len(view["played"]) < 4:
        actions.append({"seat": view["to_act"], "type": "declare", "melds": declared.pop(view["to_act"])})
    state = _replay(game, options, dealer, deal, list(view["score"]), actions, judge)
    if state is not None and hasattr(state, "pool"):
        state.pool = view.get("hanging_pool", 0)  # the points hanging from earlier tied deals
    return state


def _baloot_call(call: dict) -> dict:
    action = {"seat": call["seat"], "type": call["call"]}
    if call["call"] == "bid":
        action["contract"] = call["contract"]
    return action


# ----- Baloot, the Saudi mode ---------------------------------------------------------------

SAUDI_LADDER = {"double", "triple", "four", "gahwa"}


def rebuild_baloot_saudi(view, options, hands, stock_rest, judge=None):
    """S3.3: five cards a seat, then the face-up card and the eleven dealt after the buying (the
    buyer two, the others three, from p1). In the buying the rest of the stock is the guess's."""
    game = get_game("baloot")
    deck, dealer = game.deck, view["dealer"]
    order = [(dealer + step) % 4 for step in range(1, 5)]
    face_up = deck.index[view["face_up"]]
    full = [hands[s] | _played_by(view["played"], deck, s) for s in range(4)]
    if view.get("contract") is None:
        first, stock = [sorted(iter_bits(full[s])) for s in range(4)], list(stock_rest)
    else:
        first, stock = [[]] * 4, []
        for seat in order:
            cards = sorted(iter_bits(full[seat] & ~(1 << face_up)))
            first[seat] = cards[:5]
            stock.extend(cards[5:])
    deal = {"hands": [_codes(deck, cards) for cards in first], "stock": _codes(deck, [face_up] + stock)}
    state = _replay(game, options, dealer, deal, list(view["score"]), _saudi_calls(view), judge)
    if state is None:
        return None
    declared = {d["seat"]: sorted(d["projects"]) for d in view.get("declarations", [])}
    try:
        for number, p in enumerate(view["played"]):
            if number < 4 and p["seat"] in declared:
                _declare_like(state, p["seat"], declared.pop(p["seat"]))
            state.apply({"seat": p["seat"], "type": "play", "card": p["card"]})
        if view["to_act"] in declared and len(view["played"]) < 4:
            _declare_like(state, view["to_act"], declared.pop(view["to_act"]))
    except (IllegalAction, ScenarioError):
        return None
    return state


def _saudi_calls(view) -> list[dict]:
    """The buying and doubling calls as actions; the lock is the last ladder call's (S6.4)."""
    calls = view.get("calls", [])
    last_ladder = max((i for i, c in enumerate(calls) if c["call"] in SAUDI_LADDER), default=None)
    actions = []
    for number, call in enumerate(calls):
        action = {"seat": call["seat"], "type": call["call"]}
        if call["call"] in ("hokum", "sun", "ashkal"):
            action = {"seat": call["seat"], "type": "bid", "contract": call["call"]}
            if call["call"] == "hokum":
                action["suit"] = call["suit"]
        elif number == last_ladder and view.get("closed"):
            action["closed"] = True
        actions.append(action)
    return actions


def _declare_like(state, seat: int, kinds: list[str]) -> None:
    """Declare, in the world, projects of the kinds the seat declared at the table (their cards
    are hidden from the other team); a guess without such projects cannot be this deal."""
    sun = state.contract == NO_TRUMP
    for action in state.legal_actions():
        if action["type"] == "declare" and sorted(
                project_kind(sum(1 << CARD_INDEX[c] for c in meld), sun) for meld in action["melds"]) == kinds:
            state.apply(action)
            return
    raise ScenarioError("the guess holds no such projects")


# ----- La Cuatrola ---------------------------------------------------------------------------

def rebuild_cuatrola(view, options, hands, stock_rest, judge=None):
    """The dealer's fifth card is the trump card; tricks are replayed with the cantes sung after
    them, in the order the view lists them."""
    game = get_game("cuatrola")
    deck, dealer = game.deck, view["dealer"]
    trump_card = deck.index[view["trump_card"]]
    played = _cuatrola_plays(view)
    full = []
    for seat in range(4):
        mask = hands[seat]
        for s, code in played:
            if s == seat:
                mask |= 1 << deck.index[code]
        cards = sorted(iter_bits(mask))
        if seat == dealer:
            cards = [c for c in cards if c != trump_card] + [trump_card]
        full.append(cards)
    actions = [_cuatrola_call(seat, call) for seat, call in view["calls"]]
    cantes = {}
    for cante in view.get("cantes", []):
        cantes.setdefault(cante["after_trick"], []).append(cante)
    done = 0
    for number, trick in enumerate(_cuatrola_tricks(view), start=1):
        actions += [{"seat": s, "type": "play", "card": code} for s, code in trick]
        if len(trick) == (4 if view.get("sits_out") is None else 3):
            done = number
            actions += [{"seat": c["seat"], "type": "sing", "suit": c["suit"]} for c in cantes.get(done, [])]
    deal = {"hands": [_codes(deck, cards) for cards in full], "stock": []}
    return _replay(game, options, dealer, deal, list(view["score"]), actions, judge)


def _cuatrola_call(seat: int, call: str) -> dict:
    if call == "pass":
        return {"seat": seat, "type": "pass"}
    return {"seat": seat, "type": "announce", "contract": call}


def _cuatrola_tricks(view) -> list[list[tuple[int, str]]]:
    out = view.get("sits_out")
    active = [s for s in range(4) if s != out]
    tricks = []
    for trick in view.get("tricks", []):
        at = active.index(trick["leader"])
        tricks.append([(active[(at + k) % len(active)], code) for k, code in enumerate(trick["cards"])])
    current = [(p["seat"], p["card"]) for p in view.get("trick", [])]
    if current:
        tricks.append(current)
    return tricks


def _cuatrola_plays(view) -> list[tuple[int, str]]:
    return [pair for trick in _cuatrola_tricks(view) for pair in trick]


REBUILD = {"allfours": rebuild_allfours, "baloot": rebuild_baloot, "cuatrola": rebuild_cuatrola}


def rebuild(view: dict, options: dict, hands: list[int], stock_rest: list[int], judge=None):
    """The world of the guess, at the same decision as the view, or None if it cannot be (or if
    `judge` refuses one of the deal's actions in it, see `_replay`)."""
    builder = rebuild_baloot_saudi if view.get("mode") == "saudi_classic" else REBUILD[view["game"]]
    state = builder(view, options, hands, stock_rest, judge)
    if state is None or state.to_act != view["seat"]:
        return None
    return state
