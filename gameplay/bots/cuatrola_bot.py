"""La Cuatrola played like a club player: announce solo, cuatrola or quintola by counting sure
tricks, land on the eleven exactly when a contract can do it, sing the forty (then the twenties)
at the first chance, and play for points in pass and solo hands and for tricks in the others.
"""

from __future__ import annotations

from gameplay.rules.cuatrola_tables import (ABOVE, CONTRACT_RANK, DECK, POINTS, RANK_OF, SUIT_INDEX,
                                             SUIT_MASK, SUIT_OF)

from . import trickplay as tp
from .seen import Seen, mask_of, note_obligations, note_voids

SOTA, CABALLO, REY, TRES, AS = range(5)
# Sure tricks a contract needs (solo is won on points alone against two, so it needs control).
ANNOUNCE_TRICKS = {"solo": 2.6, "cuatrola": 3.7, "quintola": 4.7}
EXACT_TARGET_SLACK = 0.5  # to land exactly on the target a slightly thinner hand will do
WORTH_WINNING = 10


def active_seats(view: dict) -> list[int]:
    out = view.get("sits_out")
    return [s for s in range(4) if s != out]


def _trick_pairs(leader: int, cards: list[str], active: list[int]) -> list[tuple[int, int]]:
    at = active.index(leader)
    return [(active[(at + k) % len(active)], DECK.index[code]) for k, code in enumerate(cards)]


def read(view: dict, options: dict, exact: bool = True) -> Seen:
    """The seat's knowledge; `exact=False` skips what only the search's guesses need (what a
    seat's plays prove it did not hold), to keep the search's own play-outs quick."""
    active = active_seats(view)
    tricks = [_trick_pairs(t["leader"], t["cards"], active) for t in view.get("tricks", [])]
    current = [(p["seat"], DECK.index[p["card"]]) for p in view.get("trick", [])]
    if current:
        tricks.append(current)
    trump = SUIT_INDEX[view["trump"]] if view.get("trump") else None
    seen = Seen(DECK, view, tricks, trump)
    seen.trick_size = len(active)
    seen.active = active
    note_voids(seen, SUIT_OF, lambda led, card: SUIT_OF[card] != led)
    if exact and trump is not None:
        note_obligations(seen, lambda prefix, seat: obligations(options, trump, prefix))
    if view.get("trump_card") and trump is not None:
        seen.add_known(view["dealer"], mask_of(DECK, [view["trump_card"]]))
    for cante in view.get("cantes", []):
        suit = SUIT_INDEX[cante["suit"]]
        seen.add_known(cante["seat"], (1 << (suit * 5 + CABALLO)) | (1 << (suit * 5 + REY)))
    return seen


def obligations(options, trump: int, prefix) -> list[int]:
    """R20 as card sets, in order: head the suit led, follow it, overtrump, trump."""
    lead = prefix[0][1]
    led = SUIT_OF[lead]
    led_cards = SUIT_MASK[led]
    trumps_in = [c for _, c in prefix if SUIT_OF[c] == trump]
    sets = []
    if options.get("must_head", True) and not (led != trump and trumps_in):
        reference = lead if options.get("head_reference") == "lead" else \
            max(c for _, c in prefix if SUIT_OF[c] == led)
        sets.append(ABOVE[reference])
    sets.append(led_cards)
    if not options.get("must_trump", True):
        return sets
    if trumps_in and options.get("must_overtrump", True):
        return sets + [ABOVE[max(trumps_in)]]
    return sets + [SUIT_MASK[trump]]


_MODELS: dict = {}


def model_for(trump: int, for_tricks: bool) -> tp.TrickModel:
    """Pass and solo hands are won on points; in a cuatrola or quintola every trick counts."""
    key = (trump, for_tricks)
    if key not in _MODELS:
        value = [p + 20 for p in POINTS] if for_tricks else list(POINTS)
        _MODELS[key] = tp.TrickModel(SUIT_OF, RANK_OF, value, trump)
    return _MODELS[key]


# ----- the calls -----------------------------------------------------------------------------

def sure_tricks(hand: int, trump: int) -> float:
    """Tricks the hand should take playing alone: top trumps, side aces, a tres behind its ace,
    and every trump beyond the second as a ruff."""
    tricks = 0.0
    for suit in range(4):
        ranks = {RANK_OF[c] for c in range(20) if hand >> c & 1 and SUIT_OF[c] == suit}
        if suit == trump:
            tricks += 1.0 * (AS in ranks) + (0.95 if TRES in ranks and AS in ranks else 0.5 * (TRES in ranks))
            tricks += 0.45 * (REY in ranks) + 0.6 * max(0, len(ranks) - 2)
        else:
            tricks += 0.9 * (AS in ranks) + (0.6 if TRES in ranks and AS in ranks else 0.15 * (TRES in ranks))
    return tricks


def announcement(seen: Seen, legal: list[dict]) -> dict | None:
    """The highest contract the sure tricks reach; when one lands the pair exactly on the
    target, take it with a little less (it wins the match at once)."""
    view = seen.view
    trump = SUIT_INDEX[view["trump"]]
    tricks = sure_tricks(seen.hand, trump)
    team_score = view["score"][seen.seat % 2]
    values = {"solo": 2, "cuatrola": 4, "quintola": 5}
    best = None
    for action in legal:
        if action["type"] != "announce":
            continue
        name = action["contract"]
        needed = ANNOUNCE_TRICKS[name]
        if team_score + seen.values.get(name, values[name]) == view["target"]:
            needed -= EXACT_TARGET_SLACK
        if tricks >= needed and (best is None or CONTRACT_RANK[name] > CONTRACT_RANK[best["contract"]]):
            best = action
    return best


def sing_the_best(seen: Seen, legal: list[dict]) -> dict | None:
    """Sing at once when we may: a window opens only after our pair wins a trick and closes with
    the next card, one cante each, so sing the forty (trumps) first, then a twenty."""
    sings = [a for a in legal if a["type"] == "sing"]
    if not sings:
        return None
    trump = seen.view.get("trump")
    return next((a for a in sings if a["suit"] == trump), sings[0])


# ----- the play ------------------------------------------------------------------------------

def choose_card(seen: Seen, legal: list[dict]) -> int:
    contract = seen.view.get("contract")
    for_tricks = contract in ("cuatrola", "quintola")
    model = model_for(seen.trump, for_tricks)
    cards = tp.cards_of(legal, DECK)
    worth = 0 if for_tricks else WORTH_WINNING
    if seen.trick:
        return tp.follow(model, seen, cards, seen.active, worth)
    return (tp.lead_master(model, seen, cards, trumps_first=True)
            or tp.lead_partner_suit(model, seen, cards)
            or tp.lead_low(model, seen, cards))


def choose(view: dict, legal: list[dict], options: dict, exact: bool = True) -> dict:
    seen = read(view, options, exact)
    seen.values = options.get("values", {})
    if view["phase"] == "calls":
        return announcement(seen, legal) or tp.action_of_type(legal, "pass")
    sing = sing_the_best(seen, legal)
    if sing is not None:
        return sing
    code = DECK.codes[choose_card(seen, legal)]
    return next(a for a in legal if a.get("card") == code)
