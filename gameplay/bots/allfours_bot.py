"""All Fours (Trinidad) played like a club player: stand on a hand that can win High, Jack or
Game, give one or run the pack by the score, and play for the jack and for Game.

Only the deal's Jack and Game depend on the play (High and Low go to whoever was dealt them), so
the play is about the jack of trumps (1 point, or 3 for hang jack to whoever captures it) and the
counters (A 4, K 3, Q 2, J 1, T 10) that decide Game.
"""

from __future__ import annotations

from gameplay.rules.allfours import ACE, COUNTERS, DECK, JACK, RANK_OF, SUIT_OF

from . import trickplay as tp
from .seen import Seen, chunk_tricks, mask_of, note_voids

KING, QUEEN, TEN, THREE, TWO = 11, 10, 8, 1, 0
JACK_WORTH = 30  # losing the jack costs 1 to 4 points: as much as a big swing in counters
WORTH_WINNING = 4  # a trick with less than an ace's worth of counters is not worth a trump
STAND_STRENGTH = 1.6


def read(view: dict, options: dict, exact: bool = True) -> Seen:
    """The seat's knowledge; `exact=False` skips what only the search's guesses need (what a
    seat's plays prove it did not hold), to keep the search's own play-outs quick."""
    players = view.get("players", 4)
    tricks = chunk_tricks(view["played"], DECK, players)
    trump = DECK.suits.index(view["trump"]) if view.get("trump") else None
    seen = Seen(DECK, view, tricks, trump)
    seen.trick_size = players
    seen.out_of_play = mask_of(DECK, view.get("turn_ups", []))
    rule = options.get("follow_rule", "follow_or_trump")
    if rule != "free" and trump is not None:
        def shows_void(led, card):
            if led == trump:
                return SUIT_OF[card] != trump
            return rule == "follow_or_trump" and SUIT_OF[card] not in (led, trump)
        note_voids(seen, SUIT_OF, shows_void)
    return seen


_MODELS: dict = {}


def model_for(trump: int) -> tp.TrickModel:
    if trump not in _MODELS:
        value = list(COUNTERS)
        value[trump * 13 + JACK] += JACK_WORTH
        _MODELS[trump] = tp.TrickModel(SUIT_OF, RANK_OF, value, trump)
    return _MODELS[trump]


# ----- stand or beg, give one or run the pack ------------------------------------------------

def trump_strength(hand: int, suit: int) -> float:
    """Roughly how many of High, Jack and Game a hand can win with `suit` as trump: the ace or
    king is likely High, a guarded jack is likely Jack, many trumps and tens win Game."""
    trumps = [RANK_OF[c] for c in range(52) if hand >> c & 1 and SUIT_OF[c] == suit]
    strength = 0.0
    if ACE in trumps:
        strength += 1.0
    elif KING in trumps:
        strength += 0.6
    if JACK in trumps:
        strength += 0.9 if any(r > JACK for r in trumps) or len(trumps) >= 3 else 0.4
    if TWO in trumps or THREE in trumps:
        strength += 0.4
    strength += 0.3 * max(0, len(trumps) - 2)
    tens = sum(1 for c in range(52) if hand >> c & 1 and RANK_OF[c] == TEN)
    return strength + 0.25 * tens


def begging_wins(view: dict) -> bool:
    """One point from the target, the pone begs: if the dealer gives one, the match is won."""
    team = (view["dealer"] + 1) % 2
    return view["score"][team] + 1 >= view["target"]


def stand_or_beg(seen: Seen, legal: list[dict]) -> dict:
    """Stand on a hand that should take High, Jack or Game in the turned suit; beg otherwise."""
    view = seen.view
    turned = SUIT_OF[DECK.index[view["turn_ups"][-1]]]
    if begging_wins(view):
        return tp.action_of_type(legal, "beg")
    return tp.action_of_type(legal, "stand" if trump_strength(seen.hand, turned) >= STAND_STRENGTH else "beg")


def give_or_run(seen: Seen, legal: list[dict]) -> dict:
    """The dealer gives one when the turned suit suits his hand and the point does not take the
    beggars to the target; otherwise he runs the pack for a new trump (and a chance of kicks)."""
    view = seen.view
    turned = SUIT_OF[DECK.index[view["turn_ups"][-1]]]
    beggars = (view["dealer"] + 1) % 2
    if view["score"][beggars] + 1 >= view["target"]:
        return tp.action_of_type(legal, "run_pack")
    keep = trump_strength(seen.hand, turned) >= STAND_STRENGTH - 0.3
    return tp.action_of_type(legal, "give_one" if keep else "run_pack")


# ----- the play ------------------------------------------------------------------------------

def catch_their_jack(model, seen: Seen, cards: list[int]) -> int | None:
    """An opponent's jack of trumps is in the trick and we can beat it: take it (hang jack, 3)."""
    jack = seen.trump * 13 + JACK
    trick = seen.trick
    if not any(card == jack and seat % 2 != seen.seat % 2 for seat, card in trick):
        return None
    return tp.lowest_winner(model, cards, model.winner(trick)[1])


def jack_to_safety(model, seen: Seen, cards: list[int], active) -> int | None:
    """Play the jack when it cannot be lost: it wins the trick and no higher trump is left out
    (the ace, king and queen are gone), or the partner already holds the trick safely."""
    jack = seen.trump * 13 + JACK
    if jack not in cards:
        return None
    trick = seen.trick
    if not trick:
        return jack if model.is_master(jack, seen.unseen) else None
    seat, best = model.winner(trick)
    if seat == seen.partner:
        if not tp.seats_after_me(seen, active) or tp.safe_from_later(model, seen, best, active):
            return jack
        return None
    if model.beats(jack, best) and tp.safe_from_later(model, seen, jack, active):
        return jack
    return None


def hold_back_jack(seen: Seen, cards: list[int]) -> list[int]:
    """Otherwise keep the jack back: a higher trump still out would capture it for hang jack."""
    jack = seen.trump * 13 + JACK
    rest = [c for c in cards if c != jack]
    return rest or cards


def choose_card(seen: Seen, legal: list[dict]) -> int:
    model = model_for(seen.trump)
    cards = tp.cards_of(legal, DECK)
    active = list(range(seen.trick_size))
    card = catch_their_jack(model, seen, cards)
    if card is None:
        card = jack_to_safety(model, seen, cards, active)
    if card is not None:
        return card
    cards = hold_back_jack(seen, cards)
    if seen.trick:
        return tp.follow(model, seen, cards, active, WORTH_WINNING)
    trumps = sum(1 for c in cards if SUIT_OF[c] == seen.trump)
    return (tp.lead_master(model, seen, cards, trumps_first=trumps >= 3)
            or tp.lead_partner_suit(model, seen, cards)
            or tp.lead_low(model, seen, cards))


def choose(view: dict, legal: list[dict], options: dict, exact: bool = True) -> dict:
    seen = read(view, options, exact)
    phase = view["phase"]
    if phase == "stand_or_beg":
        return stand_or_beg(seen, legal)
    if phase == "dealer_choice":
        return give_or_run(seen, legal)
    card = choose_card(seen, legal)
    code = DECK.codes[card]
    return next(a for a in legal if a.get("card") == code)

