"""Baloot's classic Saudi mode (`saudi_classic`, docs/rules/baloot_saudi.md) played like a
majlis player: buy Hokum or Sun by counting the tricks of the hand with the face-up card it
would take, answer a Hokum with Sun or Ashkal, claim "before you", climb the doubling ladder only
with the hand for it, declare projects that can score, and play the contract mode's card play
(the bidders draw trumps, cash winners, lead the partner's suit back) within this mode's
obligations (the engine's legal cards: the lock, the partner-winning ruff).

Tricks are counted with the contract mode's suit counts (`baloot_bot.contract_tricks`): the
card orders and values of Hokum and Sun are those of a suit contract and of no-trump.
"""

from __future__ import annotations

from gameplay.rules.baloot import DECK, NO_TRUMP, SUIT_OF, TRUMP_SUIT
from gameplay.rules.baloot_melds import CARD_INDEX
from gameplay.rules.baloot_saudi_scoring import KIND_ORDER, project_kind

from . import trickplay as tp
from .baloot_bot import WORTH_WINNING, contract_tricks, draw_trumps, model_for, trump_suit_tricks
from .seen import Seen, chunk_tricks, mask_of, note_obligations, note_voids

SUITS = "SHDC"
ACE, TEN = 7, 3  # ranks in the deck's natural order 7 8 9 T J Q K A
# Likely tricks (of the six cards a buyer holds when buying: five and the face-up card) a
# contract needs. Sun scores double and a failed Sun gives the opponents 26: it needs more.
HOKUM_NEED = 2.6
SUN_NEED = 3.1
TRUMP_HONOURS = 1.0  # trump tricks a Hokum needs of its own (the Jack; the Nine and the Ace)
SUN_BONUS = 0.4  # a made Sun scores double: between two contracts the hand makes, prefer it
PARTNER_MARGIN = 0.9  # take the contract from the partner only with a clearly better one
SWITCH_MARGIN = 0.6  # at the confirm step, Sun instead of our Hokum only when clearly better
# The doubling ladder, counted on all eight cards: the doubler's tricks in the buyers' contract,
# the buyer's own tricks for a triple, and so on up; gahwa decides the match, so almost never.
DOUBLE_NEED = 3.4
DOUBLE_NEED_FAR_BEHIND = 2.8  # a team far behind gambles sooner (a doubled deal is all or nothing)
TRIPLE_NEED = 5.2
FOUR_NEED = 4.2
GAHWA_NEED = 6.2
CLOSE_WITH_TRUMPS = 3  # a doubler holding this many trumps locks them (the buyers cannot draw)
KNOWN_TYPES = {"pass", "bid", "double", "triple", "four", "gahwa", "declare", "play"}


def contract_of(view: dict):
    """The contract-table index of the fixed contract (Sun is no-trump), or None."""
    if view.get("contract") == "sun":
        return NO_TRUMP
    if view.get("contract") == "hokum":
        return 3 - SUITS.index(view["trump"])
    return None


def read(view: dict, options: dict, exact: bool = True) -> Seen:
    """The seat's knowledge: the contract mode's, plus the face-up card (public, then in the
    buyer's hand) and the cards of the scoring team's projects (shown after trick 1)."""
    contract = contract_of(view)
    seen = Seen(DECK, view, chunk_tricks(view.get("played", []), DECK, 4),
                None if contract is None else TRUMP_SUIT[contract])
    seen.contract = contract
    seen.face_up = DECK.index[view["face_up"]]
    note_voids(seen, SUIT_OF, lambda led, card: SUIT_OF[card] != led)
    if contract is None:
        seen.out_of_play |= (1 << seen.face_up) & ~seen.hand  # on the table, in no hand yet
    else:
        seen.add_known(view["buyer"], 1 << seen.face_up)
        if exact and view.get("phase") == "play":
            note_obligations(seen, lambda prefix, seat: obligations(model_for(contract), options, prefix, seat))
    shown = set()
    for project in view.get("projects", []):
        seen.add_known(project["seat"], mask_of(DECK, project["cards"]))
        shown.add(project["seat"])
    for declared in view.get("declarations", []):
        if declared["seat"] not in shown and declared["seat"] != seen.seat and contract is not None:
            for kind in declared["projects"]:
                seen.holds_one_of.append((declared["seat"], PROJECT_SETS[kind, contract == NO_TRUMP]))
    return seen


def _project_sets() -> dict:
    """(kind, sun) -> every card set that is a project of that kind (S8.1): runs of 3, 4, 5 in
    sequence order within a suit, fours of A K Q J T (four Aces in Sun: the four hundred)."""
    runs = {length: [((1 << length) - 1) << (suit * 8 + low) for suit in range(4) for low in range(9 - length)]
            for length in (3, 4, 5)}
    fours = {rank: sum(1 << (suit * 8 + rank) for suit in range(4)) for rank in (ACE, 6, 5, 4, TEN)}
    sets = {}
    for sun in (False, True):
        hundreds = [m for rank, m in fours.items() if not (sun and rank == ACE)]
        sets["sira", sun], sets["fifty", sun] = runs[3], runs[4]
        sets["hundred", sun] = runs[5] + hundreds
        sets["four_hundred", sun] = [fours[ACE]] if sun else []
    return sets


PROJECT_SETS = _project_sets()


def obligations(model, options, prefix, seat) -> list[int]:
    """S7.4 as card sets in order: raise a trump lead (unless the partner wins and the table
    exempts him), follow the suit, then trump (over the trick's trump) unless the partner wins."""
    led = SUIT_OF[prefix[0][1]]
    led_cards = DECK.suit_mask[led]
    winning_seat, winning_card = model.winner(prefix)
    partner_winning = winning_seat == (seat + 2) % 4
    above = model.above[winning_card]
    if led == model.ruff:
        if partner_winning and not options.get("trump_raise_over_partner"):
            return [led_cards]
        return [led_cards & above, led_cards]
    if model.ruff is None or partner_winning:  # a free ruff when the partner wins (default rule)
        return [led_cards]
    trumps = model.ruff_mask
    if SUIT_OF[winning_card] == model.ruff:
        return [led_cards, trumps & above] + ([trumps] if options.get("must_undertrump", True) else [])
    return [led_cards, trumps]


# ----- buying --------------------------------------------------------------------------------

def as_buyer(seen: Seen) -> int:
    """The hand the seat would play if it bought: its cards and the face-up card it takes."""
    return seen.hand | 1 << seen.face_up


def hokum_margin(hand: int, suit: int) -> float:
    """Over the need, and only with trump honours (the Jack, or the Nine with more): side aces
    without trumps to draw the opponents' are ruffed, which is a Sun hand, not a Hokum."""
    trumps = {DECK.rank_of[c] for c in range(32) if hand >> c & 1 and SUIT_OF[c] == suit}
    if trump_suit_tricks(trumps) < TRUMP_HONOURS:
        return -1.0
    return contract_tricks(hand, 3 - suit) - HOKUM_NEED


def sun_margin(hand: int) -> float:
    return contract_tricks(hand, NO_TRUMP) - SUN_NEED


def _call(legal, contract, suit=None):
    return next((a for a in legal if a["type"] == "bid" and a.get("contract") == contract
                 and (suit is None or a.get("suit") == suit)), None)


def ashkal_instead(seen: Seen, legal: list[dict]) -> dict | None:
    """Ashkal (Sun bought by the partner, who takes the face-up card) when our five cards make
    the Sun on their own and the face-up card would add nothing to them (not an Ace or a Ten):
    the partner gets it, and we three fresh cards instead of two."""
    ashkal = _call(legal, "ashkal")
    rank = DECK.rank_of[seen.face_up]
    if ashkal is None or rank in (ACE, TEN) or sun_margin(seen.hand) < 0:
        return None
    return ashkal


def best_purchase(seen: Seen, legal: list[dict]) -> dict | None:
    """An open turn: the Hokum (in round 1 the face-up suit, in round 2 the best other suit) or
    the Sun the six-card hand counts most over its need, else nothing; Ashkal before a Sun the
    face-up card does not help."""
    hand = as_buyer(seen)
    choices = []
    for action in legal:
        if action["type"] == "bid" and action["contract"] == "hokum":
            suit = SUITS.index(action.get("suit") or seen.view["face_up"][-1])
            choices.append((hokum_margin(hand, suit), action))
    sun = _call(legal, "sun")
    if sun is not None:
        choices.append((sun_margin(hand) + SUN_BONUS if sun_margin(hand) >= 0 else sun_margin(hand), sun))
    if not choices:
        return None
    margin, action = max(choices, key=lambda pair: pair[0])
    if margin < 0:
        return ashkal_instead(seen, legal)
    if action["contract"] == "sun":
        return ashkal_instead(seen, legal) or action
    return action


def sun_over_hokum(seen: Seen, legal: list[dict]) -> dict | None:
    """A window turn after someone's Hokum: Sun beats it; take it from the opponents when the
    hand makes Sun, from the partner only with a clear margin (he already bought with his hand)."""
    bidder = seen.view["buying"]["hokum_bidder"]
    needed = PARTNER_MARGIN if bidder is not None and bidder % 2 == seen.seat % 2 else 0.0
    sun = _call(legal, "sun")
    if sun is None or sun_margin(as_buyer(seen)) < needed:
        return None
    return (ashkal_instead(seen, legal) if needed == 0 else None) or sun


def confirm_or_switch(seen: Seen, legal: list[dict]) -> dict:
    """The confirm step: keep the Hokum, unless the hand counts clearly more for Sun."""
    suit = SUITS.index(seen.view["buying"]["hokum_suit"])
    hand = as_buyer(seen)
    sun = _call(legal, "sun")
    if sun is not None and sun_margin(hand) >= max(0.0, hokum_margin(hand, suit) + SWITCH_MARGIN):
        return sun
    return _call(legal, "hokum")


def claim_before_you(seen: Seen, legal: list[dict]) -> dict | None:
    """"Before you": an opponent's Sun can be claimed by an earlier seat; claim it when our hand
    makes Sun (with the face-up card we would take), else let them play it."""
    sun = _call(legal, "sun")
    return sun if sun is not None and sun_margin(as_buyer(seen)) >= 0 else None


def buying_call(seen: Seen, legal: list[dict]) -> dict:
    step = seen.view["buying"]["step"]
    if step == "confirm":
        return confirm_or_switch(seen, legal)
    if step == "claim":
        choice = claim_before_you(seen, legal)
    elif step == "window":
        choice = sun_over_hokum(seen, legal)
    else:
        choice = best_purchase(seen, legal)
    return choice or tp.action_of_type(legal, "pass")


# ----- doubling ------------------------------------------------------------------------------

def _ladder(legal, call, closed=False):
    return next((a for a in legal if a["type"] == call and bool(a.get("closed")) == closed), None)


def double_their_contract(seen: Seen, legal: list[dict]) -> dict | None:
    """Double when the eight cards take tricks in the buyers' own contract (we hold their trumps,
    or Sun stoppers); sooner when far behind. Lock a Hokum when holding several trumps: the
    buyers then cannot lead trumps to draw ours."""
    if not any(a["type"] == "double" for a in legal):
        return None
    contract = seen.contract
    team = seen.seat % 2
    behind = seen.view["score"][1 - team] - seen.view["score"][team]
    needed = DOUBLE_NEED_FAR_BEHIND if behind >= 60 else DOUBLE_NEED
    if contract_tricks(seen.hand, contract) < needed:
        return None
    trumps = seen.hand & DECK.suit_mask[seen.trump] if seen.trump is not None else 0
    return (_ladder(legal, "double", closed=True) if trumps.bit_count() >= CLOSE_WITH_TRUMPS else None) \
        or _ladder(legal, "double")


def climb_the_ladder(seen: Seen, legal: list[dict]) -> dict | None:
    """Triple (the buyer), four (the doubler), gahwa (the buyer): each only with a hand well
    above what the step before needed; gahwa wins or loses the match, so almost never."""
    needs = {"triple": TRIPLE_NEED, "four": FOUR_NEED, "gahwa": GAHWA_NEED}
    for call, need in needs.items():
        action = _ladder(legal, call)
        if action is not None:
            return action if contract_tricks(seen.hand, seen.contract) >= need else None
    return None


def doubling_call(seen: Seen, legal: list[dict]) -> dict:
    return double_their_contract(seen, legal) or climb_the_ladder(seen, legal) or tp.action_of_type(legal, "pass")


# ----- projects and play ---------------------------------------------------------------------

def _best_kind(melds, sun: bool) -> int:
    return max(KIND_ORDER[project_kind(sum(1 << CARD_INDEX[c] for c in meld), sun)] for meld in melds)


def declare_projects(seen: Seen, legal: list[dict]) -> dict | None:
    """Declare the strongest projects, unless an opponent has already declared a stronger kind:
    only one team scores projects (S8.4), so ours would only tell them what we hold."""
    declares = [a for a in legal if a["type"] == "declare"]
    if not declares:
        return None
    sun = seen.contract == NO_TRUMP
    best = max(declares, key=lambda a: (_best_kind(a["melds"], sun), sum(len(m) for m in a["melds"])))
    ours = _best_kind(best["melds"], sun)
    for declared in seen.view.get("declarations", []):
        if declared["seat"] % 2 != seen.seat % 2 and max(KIND_ORDER[k] for k in declared["projects"]) > ours:
            return None
    return best


def choose_card(seen: Seen, legal: list[dict]) -> int:
    model = model_for(seen.contract)
    cards = tp.cards_of(legal, DECK)
    if seen.trick:
        return tp.follow(model, seen, cards, [0, 1, 2, 3], WORTH_WINNING)
    seen.view = dict(seen.view, bidder=seen.view["buyer"])  # draw_trumps reads the bidding side
    return (draw_trumps(model, seen, cards)
            or tp.lead_master(model, seen, cards, trumps_first=False)
            or tp.lead_partner_suit(model, seen, cards)
            or tp.lead_low(model, seen, cards))


def choose(view: dict, legal: list[dict], options: dict, exact: bool = True) -> dict:
    seen = read(view, options, exact)
    if view["phase"] == "buying":
        return buying_call(seen, legal)
    if view["phase"] == "doubling":
        return doubling_call(seen, legal)
    declaration = declare_projects(seen, legal)
    if declaration is not None:
        return declaration
    code = DECK.codes[choose_card(seen, legal)]
    return next(a for a in legal if a.get("card") == code)
