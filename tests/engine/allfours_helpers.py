"""Small builders for All Fours rule tests: deals from card strings, tricks played by card."""

from gameplay.rules import get_game
from gameplay.rules.cards import FRENCH_52

GAME = get_game("allfours")


def deal(*hands: str, top: str = "", players: int = 4) -> dict:
    """A scenario deal: hands as space-separated codes; the stock starts with `top`, then every
    other card in deck order."""
    hands_lists = [h.split() for h in hands]
    assert len(hands_lists) == players
    top_cards = top.split()
    used = {c for h in hands_lists for c in h}
    assert not used & set(top_cards), f"stock top repeats hand cards {used & set(top_cards)}"
    used |= set(top_cards)
    rest = [c for c in FRENCH_52.codes if c not in used]
    return {"hands": hands_lists, "stock": top_cards + rest}


def start(*deals: dict, dealer: int = 3, score=None, **options):
    return GAME.start(options=options, dealer=dealer, deals=list(deals), start_score=score)


def act(state, kind: str, **fields):
    return state.apply({"seat": state.to_act, "type": kind, **fields})


def play(state, *cards: str):
    """Play cards in turn order, whoever is to act."""
    for card in cards:
        act(state, "play", card=card)
    return state


def play_out(state):
    """Finish the current deal with the lowest legal card each time (deterministic)."""
    deal_number = len(state.deal_records)
    while state.to_act is not None and len(state.deal_records) == deal_number:
        state.apply(state.legal_actions()[0])
    return state


def points(state, deal_index: int = -1) -> list:
    return state.deal_records[deal_index]["detail"]["points"]
