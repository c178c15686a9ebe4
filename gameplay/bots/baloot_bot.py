"""Baloot (the contract game) played like a club player: bid by counting likely tricks per
contract, double and redouble by the hand and the score, declare the melds that can score, and
play: the bidders draw trumps, everybody cashes winners, leads the partner's suit back and counts
the trumps that are gone.

Actions this module does not know (another mode's vocabulary) get a safe generic choice, so the
bot stays legal in any mode (`safe_choice`).
"""

from __future__ import annotations

from gameplay.rules.baloot import CONTRACT_INDEX, DECK, SUIT_OF, TABLES, TRUMP_SUIT
from gameplay.rules.baloot_melds import CARD_INDEX, meld_key, meld_points

from . import trickplay as tp
from .seen import Seen, chunk_tricks, note_obligations, note_voids

SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(8)
RANK_OF = DECK.rank_of
NO_TRUMP, ALL_TRUMP = CONTRACT_INDEX["no_trump"], CONTRACT_INDEX["all_trump"]
# How many likely tricks (from the 5 cards held in the auction) each kind of contract needs.
BID_THRESHOLD = {"suit": 2.4, "no_trump": 2.7, "all_trump": 3.1}
PARTNER_OVERBID_MARGIN = 0.9  # outbid the partner only with a clearly better contract
REDOUBLE_MARGIN = 0.8
WORTH_WINNING = 10
KNOWN_TYPES = {"pass", "bid", "double", "redouble", "declare", "play"}


def read(view: dict, options: dict, exact: bool = True) -> Seen:
    """The seat's knowledge; `exact=False` skips what only the search's guesses need (what a
    seat's plays prove it did not hold), to keep the search's own play-outs quick."""
    contract = CONTRACT_INDEX.get(view.get("contract")) if view.get("contract") else None
    trump = TRUMP_SUIT[contract] if contract is not None else None
    seen = Seen(DECK, view, chunk_tricks(view.get("played", []), DECK, 4), trump)
    seen.contract = contract
    note_voids(seen, SUIT_OF, lambda led, card: SUIT_OF[card] != led)
    if exact and contract is not None and view.get("phase") == "play":
        note_obligations(seen, lambda prefix, seat: obligations(model_for(contract), options, prefix, seat))
    for declared in view.get("declarations", []):
        _note_declaration(seen, declared)
    return seen


def _note_declaration(seen: Seen, declared: dict) -> None:
    """Declared cards stay with the declarer; a declared run is whole (R7.4), so the cards just
    above and below it in sequence order are not in that hand (unless in a declared four)."""
    masks = [sum(1 << CARD_INDEX[c] for c in meld) for meld in declared["melds"]]
    in_fours = 0
    for mask in masks:
        seen.add_known(declared["seat"], mask)
        if mask.bit_count() == 4 and len({SUIT_OF[c] for c in range(32) if mask >> c & 1}) == 4:
            in_fours |= mask
    for mask in masks:
        if mask & in_fours:
            continue
        low, high = (mask & -mask).bit_length() - 1, mask.bit_length() - 1
        ends = [c for c in (low - 1, high + 1) if 0 <= c < 32 and SUIT_OF[c] == SUIT_OF[low]]
        seen.exclude(declared["seat"], sum(1 << c for c in ends) & ~in_fours)


def obligations(model, options, prefix, seat) -> list[int]:
    """R6.3 as card sets, in order: raise a trump lead, follow, overtrump, (under)trump."""
    led = SUIT_OF[prefix[0][1]]
    led_cards = DECK.suit_mask[led]
    winning_seat, winning_card = model.winner(prefix)
    partner_winning = winning_seat == (seat + 2) % 4
    above = model.above[winning_card]
    if model.ruff is None and model.power is TABLES[ALL_TRUMP][0] or led == model.ruff:
        if partner_winning and options.get("partner_exempts_trump_raise"):
            return [led_cards]
        return [led_cards & above, led_cards]
    sets = [led_cards]
    if model.ruff is None or partner_winning:
        return sets
    trumps = model.ruff_mask
    if SUIT_OF[winning_card] == model.ruff:
        sets.append(trumps & above)
        if options.get("must_undertrump", True):
            sets.append(trumps)
        return sets
    return sets + [trumps]


_MODELS: dict = {}


def model_for(contract: int) -> tp.TrickModel:
    if contract not in _MODELS:
        strength, points, _, _, _ = TABLES[contract]
        ruff = TRUMP_SUIT[contract]  # all_trump: every suit in trump order, but none ruffs another
        _MODELS[contract] = tp.TrickModel(SUIT_OF, strength, points, ruff)
    return _MODELS[contract]


# ----- the auction ---------------------------------------------------------------------------

def _ranks(hand: int, suit: int) -> set[int]:
    return {RANK_OF[c] for c in range(32) if hand >> c & 1 and SUIT_OF[c] == suit}


def trump_suit_tricks(ranks: set[int]) -> float:
    """Tricks a trump suit should take: J and 9 are its two top cards, then A and T; every trump
    beyond the third is a ruff."""
    tricks = 1.0 * (JACK in ranks) + (0.9 if NINE in ranks and JACK in ranks else 0.6 * (NINE in ranks))
    tricks += 0.5 * (ACE in ranks) + 0.3 * (TEN in ranks)
    return tricks + 0.35 * max(0, len(ranks) - 2)


def plain_suit_tricks(ranks: set[int]) -> float:
    """Tricks a plain suit should take: the ace, the ten behind it, the king behind both."""
    tricks = 0.9 * (ACE in ranks)
    if TEN in ranks:
        tricks += 0.6 if ACE in ranks else 0.25
    if KING in ranks and ACE in ranks and TEN in ranks:
        tricks += 0.3
    return tricks


def contract_tricks(hand: int, contract: int) -> float:
    """Likely tricks of the hand in a contract, counted suit by suit."""
    trump = TRUMP_SUIT[contract]
    total = 0.0
    for suit in range(4):
        ranks = _ranks(hand, suit)
        if contract == ALL_TRUMP:
            total += trump_suit_tricks(ranks) * 0.8
        elif suit == trump:
            total += trump_suit_tricks(ranks)
        else:
            total += plain_suit_tricks(ranks)
    return total


def contract_margin(hand: int, contract: int) -> float:
    kind = "no_trump" if contract == NO_TRUMP else "all_trump" if contract == ALL_TRUMP else "suit"
    return contract_tricks(hand, contract) - BID_THRESHOLD[kind]


def best_bid(seen: Seen, legal: list[dict]) -> dict | None:
    """Bid the contract the hand counts most tricks for, if it reaches that contract's need;
    over the partner's bid only with a clear margin (he is already playing his strength)."""
    view = seen.view
    bids = [a for a in legal if a["type"] == "bid"]
    if not bids:
        return None
    scored = [(contract_margin(seen.hand, CONTRACT_INDEX[a["contract"]]), a) for a in bids]
    margin, bid = max(scored, key=lambda pair: pair[0])
    partner_bid = view.get("bidder") is not None and view["bidder"] % 2 == seen.seat % 2
    needed = PARTNER_OVERBID_MARGIN if partner_bid else 0.0
    return bid if margin >= needed else None


def double_by_hand_and_score(seen: Seen, legal: list[dict]) -> dict | None:
    """Double when the hand would have bid the opponents' contract itself (it holds their
    trumps); more readily when far behind, since a doubled deal gives everything to one side."""
    double = next((a for a in legal if a["type"] == "double"), None)
    contract = CONTRACT_INDEX.get(seen.view.get("contract") or "")
    if double is None or contract is None:
        return None
    team = seen.seat % 2
    behind = seen.view["score"][1 - team] - seen.view["score"][team]
    needed = -0.4 if behind >= 60 else 0.2
    return double if contract_margin(seen.hand, contract) >= needed else None


def redouble_by_hand(seen: Seen, legal: list[dict]) -> dict | None:
    """Redouble our own contract only with a hand well above what the bid needed."""
    redouble = next((a for a in legal if a["type"] == "redouble"), None)
    contract = CONTRACT_INDEX.get(seen.view.get("contract") or "")
    if redouble is None or contract is None:
        return None
    return redouble if contract_margin(seen.hand, contract) >= REDOUBLE_MARGIN else None


def auction_call(seen: Seen, legal: list[dict]) -> dict:
    return (redouble_by_hand(seen, legal) or double_by_hand_and_score(seen, legal)
            or best_bid(seen, legal) or tp.action_of_type(legal, "pass"))


# ----- declarations --------------------------------------------------------------------------

def _declaration_strength(action: dict) -> tuple[int, int]:
    masks = [sum(1 << CARD_INDEX[c] for c in meld) for meld in action["melds"]]
    return max(meld_key(m) for m in masks), sum(meld_points(m) for m in masks)


def declare_to_advantage(seen: Seen, legal: list[dict]) -> dict | None:
    """Declare the melds worth most, unless an opponent has already declared a stronger best
    meld: then ours cannot score and would only show the opponents our cards."""
    declares = [a for a in legal if a["type"] == "declare"]
    if not declares:
        return None
    best = max(declares, key=lambda a: _declaration_strength(a)[1])
    ours = _declaration_strength(best)[0]
    for declared in seen.view.get("declarations", []):
        if declared["seat"] % 2 != seen.seat % 2 and _declaration_strength(declared)[0] > ours:
            return None
    return best


# ----- the play ------------------------------------------------------------------------------

def draw_trumps(model, seen: Seen, cards: list[int]) -> int | None:
    """The bidding side leads its top trump while the opponents may still hold trumps (counted
    from the trumps played): every trump drawn is a ruff they cannot make on our aces."""
    contract = seen.contract
    if contract in (NO_TRUMP, ALL_TRUMP) or seen.view.get("bidder") is None:
        return None
    if seen.view["bidder"] % 2 != seen.seat % 2 or not seen.unseen & model.ruff_mask:
        return None
    trumps = [c for c in cards if SUIT_OF[c] == model.ruff]
    top = [c for c in trumps if model.is_master(c, seen.unseen)]
    return max(top, key=lambda c: model.power[c]) if top else None


def choose_card(seen: Seen, legal: list[dict]) -> int:
    model = model_for(seen.contract)
    cards = tp.cards_of(legal, DECK)
    active = [0, 1, 2, 3]
    if seen.trick:
        return tp.follow(model, seen, cards, active, WORTH_WINNING)
    return (draw_trumps(model, seen, cards)
            or tp.lead_master(model, seen, cards, trumps_first=False)
            or tp.lead_partner_suit(model, seen, cards)
            or tp.lead_low(model, seen, cards))


def safe_choice(legal: list[dict]) -> dict:
    """For actions this bot does not know: the lowest legal card (what the engine plays on a
    timeout), else the first call that is not a pass (four bots that always passed would redeal
    for ever), else the first action offered."""
    plays = [a for a in legal if a["type"] == "play"]
    if plays:
        return min(plays, key=lambda a: (DECK.rank_of[DECK.index[a["card"]]], a["card"]))
    return next((a for a in legal if a["type"] != "pass"), legal[0])


def choose(view: dict, legal: list[dict], options: dict, exact: bool = True) -> dict:
    if options.get("game_mode", "contract") != "contract" or {a["type"] for a in legal} - KNOWN_TYPES:
        return safe_choice(legal)
    seen = read(view, options, exact)
    if view["phase"] == "auction":
        return auction_call(seen, legal)
    declaration = declare_to_advantage(seen, legal)
    if declaration is not None:
        return declaration
    code = DECK.codes[choose_card(seen, legal)]
    return next(a for a in legal if a.get("card") == code)
