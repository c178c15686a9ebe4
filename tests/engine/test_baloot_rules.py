"""Baloot (contract variant): one test per numbered rule of docs/rules/baloot.md, and its options.

Deals are written as the 8-card hands each seat holds after R3.3; `deal_for` turns them into the
scenario form (5-card hands + stock) so the engine deals them exactly as the rules say.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gameplay.rules import get_game
from gameplay.rules.baloot import PRESETS, SUIT_PLAYS
from gameplay.rules.baloot_melds import deal_outcome, round_share, round_total
from gameplay.rules.errors import IllegalAction, ScenarioError

BALOOT = get_game("baloot")
CODES = BALOOT.deck.codes
REPO = Path(__file__).resolve().parents[2]
EXAMPLES = Path(__file__).resolve().parent / "examples" / "baloot"


# ----- helpers ------------------------------------------------------------------------------

def hands_of(**seats: str) -> list[list[str]]:
    """8-card hands: the cards named for seats s0..s3, the rest of the deck filling them in order."""
    hands = [seats.get(f"s{seat}", "").split() for seat in range(4)]
    used = {card for hand in hands for card in hand}
    assert len(used) == sum(len(h) for h in hands), "a card was given twice"
    rest = [code for code in CODES if code not in used]
    for attempt in range(500):  # deterministic tries until no filler card makes a meld
        random.Random(attempt).shuffle(rest)
        filled = [list(hand) for hand in hands]
        for code in rest:
            hand = next((h for h in filled if len(h) < 8 and not _makes_meld(h, code)), None)
            if hand is None:
                break
            hand.append(code)
        else:
            return filled
    raise AssertionError("cannot fill these hands without making melds")


def _makes_meld(hand: list[str], code: str) -> bool:
    """Would this filler card give the hand a run of 3, a four of a kind or a K+Q pair?"""
    ranks = "789TJQKA"
    suit_ranks = {ranks.index(c[0]) for c in hand + [code] if c[1] == code[1]}
    rank = ranks.index(code[0])
    runs = any({r, r + 1, r + 2} <= suit_ranks for r in range(rank - 2, rank + 1))
    four = sum(1 for c in hand if c[0] == code[0]) == 3
    return runs or four or {5, 6} <= suit_ranks


def deal_for(hands8: list[list[str]], dealer: int) -> dict:
    """The scenario deal that gives these 8-card hands once the stock is dealt (R3.2, R3.3)."""
    stock = []
    for step in range(4):
        stock += hands8[(dealer + 1 + step) % 4][5:]
    return {"hands": [hand[:5] for hand in hands8], "stock": stock}


def new_match(hands8=None, dealer=3, options=None, start_score=None, deals=None):
    deals = deals if deals is not None else [deal_for(hands8, dealer)]
    return BALOOT.start(options=options, dealer=dealer, deals=deals, start_score=start_score)


def auction(state, contract: str, bidder: int | None = None, then=()):
    """Pass round to the bidder, bid, then the given calls, then passes until play starts."""
    bidder = (state.dealer + 1) % 4 if bidder is None else bidder
    while state.to_act != bidder:
        state.apply({"type": "pass"})
    state.apply({"type": "bid", "contract": contract})
    for call in then:
        state.apply(call if isinstance(call, dict) else {"type": call})
    while state.phase == "auction":
        state.apply({"type": "pass"})
    return state


def in_play(contract: str, dealer=3, bidder=None, options=None, **seats):
    return auction(new_match(hands_of(**seats), dealer, options), contract, bidder)


def play(state, *codes: str):
    for code in codes:
        state.apply({"type": "play", "card": code})
    return state


def legal_cards(state) -> set[str]:
    return {a["card"] for a in state.legal_actions() if a["type"] == "play"}


def play_out_deal(state):
    """Finish the current deal with each seat's first legal card (no declarations)."""
    records = len(state.deal_records)
    while state.to_act is not None and len(state.deal_records) == records:
        state.apply(next(a for a in state.legal_actions() if a["type"] != "declare"))
    return state


def last_detail(state) -> dict:
    return state.deal_records[-1]["detail"]


def run_cli(scenario: dict):
    done = subprocess.run([sys.executable, "-m", "gameplay.rules", "replay", "-"], cwd=REPO,
                          input=json.dumps(scenario), capture_output=True, text=True)
    return json.loads(done.stdout), done.returncode


ALL_HEARTS = "JH 9H AH TH KH QH 8H 7H"


# ----- R1: cards, contracts, rank orders, points ----------------------------------------------

def test_trump_order_puts_jack_then_nine_above_the_ace():
    """R1.4: in the trump suit J 9 A T K Q 8 7."""
    state = in_play("hearts", s0="AH", s1="9H", s2="7H", s3="JH")
    play(state, "AH", "9H", "7H", "JH")
    assert state.leader == 3


def test_plain_order_puts_ten_above_king_and_jack_above_nine():
    """R1.4: plain suits A T K Q J 9 8 7 (no_trump)."""
    state = in_play("no_trump", s0="9S KS", s1="JS", s2="TS", s3="7S")
    play(state, "9S", "JS", "TS", "7S")
    assert state.leader == 2


@pytest.mark.parametrize("contract,card_total,base_total", [
    ("spades", 152, 162), ("no_trump", 120, 260), ("all_trump", 248, 258)])
def test_card_points_add_up_to_the_deal_totals(contract, card_total, base_total):
    """R1.5, R9.3: 152 / 120 / 248 in cards, 162 / 260 / 258 with the bonus trick (and doubling)."""
    rng = random.Random(contract)
    for seed in range(25):
        state = BALOOT.start(seed=seed, dealer=seed % 4)
        auction(state, contract)
        while state.phase == "play" and not state.deal_records:
            state.apply(rng.choice(state.legal_actions()))
        detail = last_detail(state)
        assert sum(detail["card_points"]) == card_total
        assert sum(detail["card_points_with_bonus"]) == card_total + 10
        assert sum(detail["base"]) == base_total


# ----- R2, R3: dealer, deal, stock ------------------------------------------------------------

def test_the_deal_passes_to_the_right_after_a_played_deal():
    """R2.1: the next dealer is seat d+1."""
    state = BALOOT.start(dealer=1, seed=4)
    auction(state, "hearts")
    play_out_deal(state)
    assert state.deal_records and state.dealer == 2


def test_the_deal_passes_on_after_an_all_pass_deal_unless_same_dealer_option():
    """R2.1, R4.5: an annulled deal is followed by d+1's deal; annulled_deal_dealer = same keeps d."""
    for option, expected in (("next", 0), ("same", 3)):
        state = BALOOT.start(dealer=3, seed=9, options={"annulled_deal_dealer": option})
        for _ in range(4):
            state.apply({"type": "pass"})
        assert state.deal_records[-1]["detail"] == {"result": "annulled", "dealer": 3}
        assert state.deal_records[-1]["delta"] == [0, 0]
        assert state.dealer == expected and state.to_act == (expected + 1) % 4


def test_seeded_deal_uses_the_batch_positions_3_then_2():
    """R3.2: positions 0-2 to d+1, ..., 12-13 to d+1, ..., 20-31 are the stock."""
    state = BALOOT.start(seed=1, dealer=3)
    hands, stock = state.split_shuffled(list(range(32)))
    assert hands[0] == [0, 1, 2, 12, 13] and hands[3] == [9, 10, 11, 18, 19]
    assert stock == list(range(20, 32))


def test_seeded_next_deal_is_the_gathered_tricks_cut_not_shuffled():
    """R3.1: cards are gathered trick by trick and cut (3..29 cards) by d+3; never shuffled."""
    state = BALOOT.start(seed=5, dealer=0)
    auction(state, "spades")
    played = []
    while not state.deal_records:
        action = next(a for a in state.legal_actions() if a["type"] == "play")
        played.append(BALOOT.deck.index[action["card"]])
        state.apply(action)
    pack = _pack_of(state.dealt[1], state.dealer)
    rotations = [played[k:] + played[:k] for k in range(3, 30)]
    assert pack in rotations


def test_all_pass_gathers_hands_in_deal_order_then_the_stock():
    """R3.1: after an annulled deal the hands of d+1, d+2, d+3, d and then the stock are gathered."""
    state = BALOOT.start(seed=6, dealer=2)
    for _ in range(4):
        state.apply({"type": "pass"})
    hands, stock = state.dealt[0]
    assert state.gathered == hands[3] + hands[0] + hands[1] + hands[2] + stock
    assert _pack_of(state.dealt[1], 3) in [state.gathered[k:] + state.gathered[:k]
                                           for k in range(3, 30)]


def test_shuffle_each_deal_option_gives_a_fresh_pack():
    """R3.1 option shuffle_each_deal: the next pack is no cut of the gathered cards."""
    state = BALOOT.start(seed=6, dealer=2, options={"shuffle_each_deal": True})
    for _ in range(4):
        state.apply({"type": "pass"})
    pack = _pack_of(state.dealt[1], 3)
    assert pack not in [state.gathered[k:] + state.gathered[:k] for k in range(32)]


def _pack_of(dealt, dealer):
    hands, stock = dealt
    pack = [None] * 32
    for step in range(4):
        hand = hands[(dealer + 1 + step) % 4]
        pack[3 * step:3 * step + 3] = hand[:3]
        pack[12 + 2 * step:14 + 2 * step] = hand[3:]
    pack[20:] = stock
    return pack


def test_stock_gives_three_cards_each_from_the_dealers_right():
    """R3.3: seat d+1+k receives stock[3k..3k+2] once a contract stands."""
    deal = {"hands": [["7S", "8S", "9S", "TS", "JS"], ["QS", "KS", "AS", "7H", "8H"],
                      ["9H", "TH", "JH", "QH", "KH"], ["AH", "7D", "8D", "9D", "TD"]],
            "stock": ["JD", "QD", "KD", "AD", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]}
    state = new_match(dealer=1, deals=[deal])
    assert state.view(2)["hand"] == ["9H", "TH", "JH", "QH", "KH"]
    auction(state, "clubs")
    assert set(state.view(2)["hand"]) == {"9H", "TH", "JH", "QH", "KH", "JD", "QD", "KD"}
    assert set(state.view(1)["hand"]) >= {"QC", "KC", "AC"}  # the dealer, served last
    assert state.view(None)["stock_size"] == 0


@pytest.mark.parametrize("deal", [
    {"hands": [["7S"] * 5] * 4, "stock": []},
    {"hands": [["7S", "8S", "9S", "TS"], [], [], []], "stock": []},
    {"hands": [["2S", "8S", "9S", "TS", "JS"]] + [[]] * 3, "stock": []},
])
def test_malformed_deals_are_scenario_errors(deal):
    """R3.4: deal data must be 4 x 5 + 12 distinct valid cards of the 32-card deck."""
    with pytest.raises(ScenarioError):
        BALOOT.start(deals=[deal])


def test_malformed_scenario_exits_2_with_a_null_index():
    """R3.4, section 3.2: a bad deal is reported with index null and exit status 2."""
    scenario = json.loads((EXAMPLES / "S1.json").read_text())
    scenario["deals"][0]["stock"] = scenario["deals"][0]["stock"][:-1]
    result, status = run_cli(scenario)
    assert status == 2 and result["error"]["index"] is None


# ----- R4: the auction ------------------------------------------------------------------------

def test_auction_starts_right_of_the_dealer_and_offers_pass_and_every_bid():
    """R4.1, R4.3: seat d+1 speaks first; with no contract pass and all six bids are legal."""
    state = new_match(hands_of(), dealer=1)
    assert state.to_act == 2
    legal = state.legal_actions()
    assert [a["type"] for a in legal].count("bid") == 6 and {"seat": 2, "type": "pass"} in legal
    assert all(a["type"] in ("pass", "bid") for a in legal)


def test_a_bid_must_be_strictly_higher():
    """R4.3: a bid is legal only above the current contract."""
    state = new_match(hands_of())
    state.apply({"type": "bid", "contract": "hearts"})
    with pytest.raises(IllegalAction):
        state.apply({"type": "bid", "contract": "hearts"})
    with pytest.raises(IllegalAction):
        state.apply({"type": "bid", "contract": "clubs"})
    bids = [a["contract"] for a in state.legal_actions() if a["type"] == "bid"]
    assert bids == ["spades", "no_trump", "all_trump"]


def test_either_opponent_may_double_but_never_the_bidding_team():
    """R4.3, R4.4: double only against an opponent's undoubled bid."""
    state = new_match(hands_of())
    state.apply({"type": "bid", "contract": "hearts"})  # seat 0
    state.apply({"type": "pass"})  # seat 1 passes, seat 3 may still double later
    with pytest.raises(IllegalAction):
        state.apply({"type": "double"})  # seat 2, the bidder's partner
    assert {"seat": 2, "type": "double"} not in state.legal_actions()
    state.apply({"type": "pass"})
    state.apply({"type": "double"})  # seat 3
    assert state.multiplier == 2 and state.passes == 0


def test_redouble_by_either_bidding_team_member_after_a_double_only():
    """R4.3: redouble when m = 2 by the bidder or its partner; nothing after a redouble."""
    state = new_match(hands_of())
    state.apply({"type": "bid", "contract": "hearts"})  # seat 0
    with pytest.raises(IllegalAction):
        state.apply({"type": "redouble"})  # seat 1: not doubled, not its contract
    state.apply({"type": "double"})  # seat 1
    assert {"seat": 2, "type": "redouble"} in state.legal_actions()
    state.apply({"type": "redouble"})  # seat 2, the partner
    assert state.multiplier == 4
    types = {a["type"] for a in state.legal_actions()}
    assert "double" not in types and "redouble" not in types


def test_doubled_bidder_speaks_again_and_may_bid_higher_which_clears_the_double():
    """R4.4: the doubled bidder gets the turn again; a new bid resets m to 1."""
    state = new_match(hands_of())
    state.apply({"type": "bid", "contract": "hearts"})  # 0
    state.apply({"type": "double"})  # 1
    state.apply({"type": "pass"})  # 2
    state.apply({"type": "pass"})  # 3
    assert state.to_act == 0 and state.phase == "auction"
    state.apply({"type": "bid", "contract": "no_trump"})
    assert state.multiplier == 1 and state.bidder == 0 and state.contract == 4


def test_partner_may_overbid_and_the_last_bid_is_the_contract():
    """R4.4, R4.5: a partner may bid higher; three passes after it end the auction."""
    state = new_match(hands_of())
    state.apply({"type": "bid", "contract": "clubs"})  # 0
    state.apply({"type": "pass"})  # 1
    state.apply({"type": "bid", "contract": "spades"})  # 2
    for _ in range(3):
        state.apply({"type": "pass"})
    assert state.phase == "play" and state.bidder == 2 and state.contract == 3


def test_three_passes_after_a_double_end_the_auction_doubled():
    """R4.5: the auction ends after three passes following the last double; m stays 2."""
    state = new_match(hands_of())
    state.apply({"type": "bid", "contract": "hearts"})
    state.apply({"type": "double"})
    for _ in range(3):
        state.apply({"type": "pass"})
    assert state.phase == "play" and state.multiplier == 2


def test_four_opening_passes_annul_the_deal_and_leave_the_score():
    """R4.5: no score, no stock dealt, a new deal entry is needed."""
    state = new_match(hands_of())
    for _ in range(4):
        state.apply({"type": "pass"})
    assert state.deal_records[0]["delta"] == [0, 0] and state.score == [0, 0]
    assert state.to_act is None and state.winner is None  # the next deal is not given


# ----- R5: first lead -------------------------------------------------------------------------

def test_seat_right_of_the_dealer_leads_whoever_won_the_auction():
    """R5.2: d+1 leads trick 1."""
    state = in_play("hearts", dealer=3, bidder=2)
    assert state.to_act == 0 and state.phase == "play"


# ----- R6: play obligations -------------------------------------------------------------------

def test_plain_lead_must_be_followed_without_having_to_beat():
    """R6.3 suit contract, plain lead, rule 1."""
    state = in_play("hearts", s0="AS", s1="7S KS 7H QD JD 9D 8D 7D")
    play(state, "AS")
    assert legal_cards(state) == {"7S", "KS"}


def test_void_without_trumps_may_play_any_card():
    """R6.3 suit contract, rule 2."""
    state = in_play("hearts", s0="AS", s1="AD KD QD JD TD 9D 8D 7D")
    play(state, "AS")
    assert len(legal_cards(state)) == 8


def test_void_player_must_trump_when_no_trump_is_in_the_trick():
    """R6.3 suit contract, rule 5."""
    state = in_play("hearts", s0="AS", s1="7H QH AD KD QD JD TD 9D")
    play(state, "AS")
    assert legal_cards(state) == {"7H", "QH"}
    with pytest.raises(IllegalAction, match="trump"):
        play(state, "AD")


def test_void_player_whose_partner_is_winning_may_play_anything():
    """R6.3 suit contract, rule 3."""
    state = in_play("hearts", s0="AS", s1="7S", s2="7H QH AD KD QD JD TD 9D")
    play(state, "AS", "7S")
    assert len(legal_cards(state)) == 8


def test_void_player_must_overtrump_an_opponents_trump():
    """R6.3 suit contract, rule 4: overtrump when able."""
    state = in_play("hearts", s0="7S", s1="QH AD KD QD JD TD 9D 8D",
                    s2="7H KH JH AC KC QC JC TC")
    play(state, "7S", "QH")
    assert legal_cards(state) == {"KH", "JH"}


def test_void_player_unable_to_overtrump_must_undertrump():
    """R6.3 suit contract, rule 4: undertrump (default must_undertrump = true)."""
    state = in_play("hearts", s0="7S", s1="JH AD KD QD JD TD 9D 8D",
                    s2="7H KH AC KC QC JC TC 9C")
    play(state, "7S", "JH")
    assert legal_cards(state) == {"7H", "KH"}


def test_must_undertrump_false_lets_the_player_discard_instead():
    """R6.3 rule 4 with option must_undertrump = false."""
    state = in_play("hearts", options={"must_undertrump": False}, s0="7S",
                    s1="JH AD KD QD JD TD 9D 8D", s2="7H KH AC KC QC JC TC 9C")
    play(state, "7S", "JH")
    assert len(legal_cards(state)) == 8


def test_partner_winning_with_a_trump_frees_the_fourth_player():
    """R6.3 rule 3: the partner's ruff is winning, so any card."""
    state = in_play("hearts", s0="7S", s1="QH AD KD QD JD TD 9D 8D",
                    s2="8S", s3="7H KH AC KC QC JC TC 9C")
    play(state, "7S", "QH", "8S")
    assert len(legal_cards(state)) == 8


def test_trump_lead_must_be_raised_when_able():
    """R6.3 trump-led rule 1: play a higher trump than the best one in the trick."""
    state = in_play("hearts", s0="9H", s1="JH 7H AS")
    play(state, "9H")
    assert legal_cards(state) == {"JH"}


def test_trump_lead_that_cannot_be_raised_allows_any_trump():
    """R6.3 trump-led rule 1: no higher card of the led suit, so any card of it."""
    state = in_play("hearts", s0="9H", s1="AH 7H AS", s2="JH")
    play(state, "9H")
    assert legal_cards(state) == {"AH", "7H"}


def test_trump_lead_must_be_raised_even_over_the_partner():
    """R6.3 trump-led rule 1 applies even when the partner is winning (A9 ii)."""
    state = in_play("hearts", s0="7H", s1="8H", s2="AS KS QS JS TS 9S 8S 7S",
                    s3="QH 9H TH")
    play(state, "7H", "8H", "AS")
    assert legal_cards(state) == {"QH", "9H", "TH"}
    state = in_play("hearts", s0="7H", s1="9H", s2="AS KS QS JS TS 9S 8S 7S", s3="QH TH JH")
    play(state, "7H", "9H", "AS")
    assert legal_cards(state) == {"JH"}


def test_partner_exempts_trump_raise_option():
    """R6.3 with option partner_exempts_trump_raise: any card of the led suit."""
    options = {"partner_exempts_trump_raise": True}
    state = in_play("hearts", options=options, s0="7H", s1="9H",
                    s2="AS KS QS JS TS 9S 8S 7S", s3="QH TH JH 7D 9D JC KC 8C")
    play(state, "7H", "9H", "AS")
    assert legal_cards(state) == {"QH", "TH", "JH"}


def test_void_in_a_trump_lead_may_play_anything():
    """R6.3 trump-led rule 2."""
    state = in_play("hearts", s0="9H", s1="AS KS QS JS TS 9S 8S 7S")
    play(state, "9H")
    assert len(legal_cards(state)) == 8


def test_no_trump_follow_any_card_of_the_suit_and_discard_when_void():
    """R6.3 no-trump rules 1 and 2."""
    state = in_play("no_trump", s0="7S", s1="AS 8S AD 7D TD AC 8C TC",
                    s2="AH KH QH JH TH 9H 8H 7H")
    play(state, "7S")
    assert legal_cards(state) == {"AS", "8S"}
    play(state, "8S")
    assert len(legal_cards(state)) == 8


def test_all_trump_every_suit_must_be_raised_and_other_suits_never_win():
    """R6.3 all-trump, R6.4: beat the led suit in trump order; an off-suit card cannot win."""
    state = in_play("all_trump", s0="TS", s1="JS 9S QS AD 7D AC 8C 9D",
                    s2="AH KH QH JH TH 9H 8H 7H")
    play(state, "TS")
    assert legal_cards(state) == {"JS", "9S"}
    play(state, "9S")
    assert len(legal_cards(state)) == 8
    play(state, "JH")
    play(state, sorted(legal_cards(state))[0])  # seat 3 cannot beat 9S: JS is seat 1's
    assert state.leader == 1


def test_suit_contract_highest_trump_wins_else_highest_of_the_led_suit():
    """R6.4 suit contract."""
    state = in_play("hearts", s0="AS", s1="7H AD KD QD JD TD 9D 8D", s2="TS", s3="KS")
    play(state, "AS", "7H", "TS", "KS")
    assert state.leader == 1
    state = in_play("hearts", s0="KS", s1="TS", s2="AD KD 9D 7D AC TC 8C 7C", s3="7S")
    play(state, "KS", "TS", "AD", "7S")
    assert state.leader == 1


def test_a_card_not_in_hand_or_not_legal_is_rejected_and_nothing_changes():
    """R6.3: illegal plays are refused; the state is unchanged."""
    state = in_play("hearts", s0="AS", s1="7S KS 7H QD JD 9D 8D 7D")
    play(state, "AS")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="not in your hand"):
        play(state, "AS")
    with pytest.raises(IllegalAction, match="follow suit"):
        play(state, "7H")
    assert state.snapshot() == before


# ----- R7: declarations -----------------------------------------------------------------------

def _declare(state, *melds: str):
    state.apply({"type": "declare", "melds": [m.split() for m in melds]})
    return state


def test_declarations_are_offered_in_trick_1_before_the_seats_first_card():
    """R7.2: the window is trick 1, just before the seat's own play; once per seat."""
    state = in_play("hearts", s0="JS TS 9S 8S")
    declares = [a for a in state.legal_actions() if a["type"] == "declare"]
    assert declares == [{"seat": 0, "type": "declare", "melds": [["JS", "TS", "9S", "8S"]]}]
    _declare(state, "8S 9S TS JS")
    assert all(a["type"] == "play" for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="already declared"):
        _declare(state, "JS TS 9S 8S")
    play(state, "JS")
    assert state.view(1)["declarations"] == [{"seat": 0, "melds": [["JS", "TS", "9S", "8S"]]}]


def test_no_declaration_after_the_first_trick():
    """R7.2: declaring in trick 2 is illegal."""
    state = in_play("hearts", s0="AS JD TD 9D", s1="7S", s2="8S", s3="9S")
    play(state, "AS", "7S", "8S", "9S")
    with pytest.raises(IllegalAction, match="first trick"):
        _declare(state, "JD TD 9D")


def test_no_declarations_in_no_trump():
    """R7.1: declare is illegal in no_trump and not offered."""
    state = in_play("no_trump", s0="JS TS 9S 8S")
    assert all(a["type"] == "play" for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="no-trump"):
        _declare(state, "JS TS 9S 8S")


def test_declaring_during_the_auction_is_illegal():
    """R7.2, 3.2: declare outside the trick-1 window."""
    state = new_match(hands_of(s0="JS TS 9S"))
    with pytest.raises(IllegalAction):
        _declare(state, "JS TS 9S")


@pytest.mark.parametrize("melds,reason", [
    ([], "at least one"),
    (["8H 8S 8D 8C"], "not in your hand"),
    (["JS TS"], "not a meld"),
    (["JS TS 8S"], "not a meld"),
    (["AD KD QD"], "not in your hand"),
    (["JS TS 9S"], "declared whole"),
    (["JS JH JD JC", "JS TS 9S 8S"], "two melds"),
])
def test_invalid_declarations_are_rejected(melds, reason):
    """R7.3, R7.4: shape, holding, no shared card, maximal runs."""
    state = in_play("hearts", s0="JS TS 9S 8S JH JD JC 8H", s1="8D", s2="8C")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=reason):
        state.apply({"type": "declare", "melds": [m.split() for m in melds]})
    assert state.snapshot() == before


def test_four_sevens_or_eights_are_not_a_meld():
    """R7.3: only Jacks, Nines, Aces, Tens, Kings and Queens make a four of a kind."""
    state = in_play("hearts", s0="8S 8H 8D 8C 7S 7H 7D 7C")
    assert all(a["type"] == "play" for a in state.legal_actions())
    for meld in ("8S 8H 8D 8C", "7S 7H 7D 7C"):
        with pytest.raises(IllegalAction, match="not a meld"):
            _declare(state, meld)


def test_a_four_of_a_kind_takes_its_card_out_of_the_run():
    """R7.4: with four Jacks declared the run is measured without the J."""
    state = in_play("hearts", s0="JS TS 9S 8S JH JD JC 7H")
    options = {tuple(map(tuple, a["melds"])) for a in state.legal_actions() if a["type"] == "declare"}
    assert (("JS", "JH", "JD", "JC"), ("TS", "9S", "8S")) in options
    assert (("JS", "TS", "9S", "8S"),) in options
    _declare(state, "JS JH JD JC", "TS 9S 8S")
    assert len(state.declared[0]) == 2


def test_meld_values_and_best_overall_comparison():
    """R7.5, R7.6 (scenario S9): four Queens (100) beat a 50; that team scores all its melds."""
    result, status = run_cli(json.loads((EXAMPLES / "S9.json").read_text()))
    assert status == 0
    assert result["deals"][0]["detail"]["melds"] == [
        {"seat": 1, "cards": ["QS", "QH", "QD", "QC"], "points": 100}]


def _declared_deal(contract, options=None, **seats):
    """Every seat declares whatever it is offered first (largest option), then plays out."""
    state = in_play(contract, options=options, **seats)
    while state.trick_number == 0 and state.phase == "play":
        offered = [a for a in state.legal_actions() if a["type"] == "declare"]
        if offered:
            state.apply(max(offered, key=lambda a: sum(len(m) for m in a["melds"])))
        state.apply(next(a for a in state.legal_actions() if a["type"] == "play"))
    return play_out_deal(state)


def test_equal_best_sequences_cancel_every_meld_of_both_teams():
    """R7.6: two equal best sequences held by opponents: neither team scores any meld."""
    state = _declared_deal("hearts", s0="JS TS 9S", s1="JD TD 9D", s2="9C 8C 7C")
    assert last_detail(state)["melds"] == []


def test_value_decides_first_four_nines_beat_four_aces():
    """R7.6 step 1: 150 > 100."""
    state = _declared_deal("hearts", s0="9S 9H 9D 9C", s1="AS AH AD AC")
    assert [m["seat"] for m in last_detail(state)["melds"]] == [0]
    assert last_detail(state)["melds"][0]["points"] == 150


def test_four_of_a_kind_beats_a_hundred_sequence():
    """R7.6 step 2: at value 100 a four of a kind beats a sequence."""
    state = _declared_deal("hearts", s0="KS KH KD KC", s1="JD TD 9D 8D 7D")
    assert [m["seat"] for m in last_detail(state)["melds"]] == [0]


def test_longer_then_higher_sequence_wins():
    """R7.6 step 3: length, then the top card."""
    state = _declared_deal("hearts", s0="AD KD QD JD TD", s1="KS QS JS TS 9S 8S")
    assert [m["seat"] for m in last_detail(state)["melds"]] == [1]
    state = _declared_deal("hearts", s0="AD KD QD", s1="KS QS JS", s3="9C 8C 7C")
    assert [m["seat"] for m in last_detail(state)["melds"]] == [0]


def test_winning_team_scores_all_its_melds():
    """R7.6: the team with the best meld scores every meld it declared, R7.7 whatever the play."""
    state = _declared_deal("hearts", s0="AD KD QD JD", s1="KS QS JS", s2="9C 8C 7C")
    melds = last_detail(state)["melds"]
    assert sorted(m["points"] for m in melds) == [20, 50] and {m["seat"] for m in melds} == {0, 2}


def test_by_category_compares_sequences_and_fours_separately():
    """R7.6 option meld_comparison = by_category."""
    seats = {"s0": "KS KH KD KC", "s1": "JD TD 9D 8D 7D"}
    state = _declared_deal("hearts", options={"meld_comparison": "by_category"}, **seats)
    assert sorted(m["seat"] for m in last_detail(state)["melds"]) == [0, 1]


# ----- R8: belote -----------------------------------------------------------------------------

def test_belote_is_twenty_for_king_and_queen_of_trumps():
    """R8.1: automatic, for the holder of both; the defenders score theirs too (R8.2)."""
    state = play_out_deal(in_play("hearts", s1="KH QH"))
    detail = last_detail(state)
    assert detail["belote"] == [{"seat": 1, "suit": "H"}]
    assert detail["raw"][1] == detail["base"][1] + 20


def test_belote_counts_in_every_suit_in_all_trump_and_not_in_no_trump():
    """R8.1: all_trump per suit; no belote in no_trump."""
    state = play_out_deal(in_play("all_trump", s2="KH QH KC QC"))
    assert last_detail(state)["belote"] == [{"seat": 2, "suit": "H"}, {"seat": 2, "suit": "C"}]
    state = play_out_deal(in_play("no_trump", s2="KH QH KC QC"))
    assert last_detail(state)["belote"] == []


def test_belote_of_an_inside_contracting_team_goes_to_the_defenders():
    """R8.2 and option belote_kept_by_holder (case b only)."""
    seats = {"s0": "KH QH 7S 8S 9S 7D 8D 9D", "s1": "JH 9H AH TH AS AD AC TS"}
    for kept in (False, True):
        state = play_out_deal(in_play("hearts", options={"belote_kept_by_holder": kept}, **seats))
        record = state.deal_records[-1]
        detail = record["detail"]
        assert detail["result"] == "inside" and detail["belote"] == [{"seat": 0, "suit": "H"}]
        total = sum(detail["raw"])
        if kept:
            assert record["delta"] == [2, round_total(total - 20, 6)]
        else:
            assert record["delta"] == [0, round_total(total, 6)]


# ----- R9: scoring ----------------------------------------------------------------------------

def test_bonus_trick_is_the_last_trick_or_the_first_with_the_option():
    """R9.3 step 1, option bonus_trick (scenario S12: trick 1 to team 0, trick 8 to team 1)."""
    scenario = json.loads((EXAMPLES / "S12.json").read_text())
    result, _ = run_cli(scenario)
    assert result["deals"][0]["detail"]["bonus_trick_team"] == 1
    scenario["options"] = {"bonus_trick": "first"}
    result, _ = run_cli(scenario)
    deal = result["deals"][0]
    assert deal["detail"]["bonus_trick_team"] == 0 and deal["detail"]["raw"] == [96, 66]
    assert deal["delta"] == [9, 7]


def test_no_trump_points_are_doubled_unless_the_option_says_not():
    """R9.3 step 2 (scenario S7) and option no_trump_double."""
    scenario = json.loads((EXAMPLES / "S7.json").read_text())
    result, _ = run_cli(scenario)
    assert result["deals"][0]["detail"]["raw"] == [164, 96] and result["deals"][0]["delta"] == [16, 10]
    scenario["options"] = {"no_trump_double": False}
    result, _ = run_cli(scenario)
    assert result["deals"][0]["detail"]["raw"] == [82, 48] and result["deals"][0]["delta"] == [8, 5]


def test_capot_adds_ninety_to_the_team_that_took_every_trick():
    """R9.3 step 3 (capot): 162 + 90 + 20 belote = 272 -> 27."""
    state = play_out_deal(in_play("hearts", s0=ALL_HEARTS))
    record = state.deal_records[-1]
    assert record["detail"]["capot_team"] == 0 and record["detail"]["raw"] == [272, 0]
    assert record["delta"] == [27, 0]


def test_no_trump_capot_is_added_after_the_doubling_and_multiplied_when_redoubled():
    """R9.3 (capot not doubled by no-trump), R9.4 total 350 -> 35, R9.5 d with m = 4."""
    state = play_out_deal(in_play("no_trump", s0="AS KS QS JS TS 9S 8S 7S"))
    assert state.deal_records[-1]["detail"]["raw"] == [350, 0]
    assert state.deal_records[-1]["delta"] == [35, 0]
    state = new_match(hands_of(s0="AS KS QS JS TS 9S 8S 7S"))
    play_out_deal(auction(state, "no_trump", then=("double", "redouble")))
    assert state.deal_records[-1]["detail"]["multiplier"] == 4
    assert state.deal_records[-1]["delta"] == [140, 0] and state.winner is None  # 140 < 151


def test_capot_by_the_defenders_puts_the_contract_inside():
    """R9.3, A15: raw[K] = 0, D takes everything."""
    state = play_out_deal(in_play("hearts", s1=ALL_HEARTS))
    record = state.deal_records[-1]
    assert record["detail"]["capot_team"] == 1 and record["detail"]["result"] == "inside"
    assert record["delta"] == [0, 27]


@pytest.mark.parametrize("contract_threshold,raw,expected", [
    (6, [145, 17], [14, 2]), (6, [96, 66], [9, 7]), (6, [56, 106], [6, 10]), (6, [6, 156], [1, 15]),
    (6, [87, 75], [9, 7]), (4, [214, 44], [21, 5]), (4, [155, 103], [16, 10]), (4, [34, 224], [4, 22]),
    (4, [164, 194], [17, 19]), (5, [164, 96], [16, 10]), (5, [150, 110], [15, 11]),
    (5, [75, 55], [7, 6]),
])
def test_share_rounding_follows_the_worked_table(contract_threshold, raw, expected):
    """R9.4: up above the threshold digit, down below, on it the lower team rounds up."""
    got = [round_share(raw[t], contract_threshold, raw[t] < raw[1 - t]) for t in (0, 1)]
    assert got == expected
    assert sum(got) == round_total(sum(raw), contract_threshold)


@pytest.mark.parametrize("threshold,total,expected", [
    (6, 162, 16), (6, 182, 18), (6, 252, 25), (4, 258, 26), (4, 348, 35), (5, 260, 26), (5, 350, 35)])
def test_total_rounding(threshold, total, expected):
    """R9.4: RT(S)."""
    assert round_total(total, threshold) == expected


def test_shares_always_add_up_to_the_rounded_total():
    """R9.4 property for every contract and every unequal split."""
    for threshold, total in ((6, 162), (6, 252), (5, 260), (4, 258), (4, 348)):
        for first in range(total + 1):
            raw = [first, total - first]
            if raw[0] != raw[1]:
                shares = [round_share(raw[t], threshold, raw[t] < raw[1 - t]) for t in (0, 1)]
                assert sum(shares) == round_total(total, threshold)


OPTS = {"tie_rule": "hanging", "belote_kept_by_holder": False}


def test_outcome_made_inside_and_doubled():
    """R9.5 cases a, b, d."""
    assert deal_outcome([145, 17], 0, 1, 6, OPTS, 0, 0) == ([14, 2], "made", 0, 0)
    assert deal_outcome([17, 145], 0, 1, 6, OPTS, 0, 0) == ([0, 16], "inside", 0, 0)
    assert deal_outcome([145, 17], 0, 2, 6, OPTS, 0, 0) == ([32, 0], "made", 0, 0)
    assert deal_outcome([145, 17], 1, 4, 6, OPTS, 0, 0) == ([64, 0], "inside", 0, 0)


def test_outcome_tie_hangs_the_contracting_share():
    """R9.5 cases c and e; table rows 81/81, 106/106, 154/154."""
    assert deal_outcome([81, 81], 0, 1, 6, OPTS, 0, 0) == ([0, 8], "tie", 0, 8)
    assert deal_outcome([106, 106], 1, 1, 6, OPTS, 0, 0) == ([10, 0], "tie", 0, 11)
    assert deal_outcome([154, 154], 0, 1, 4, OPTS, 3, 0) == ([0, 15], "tie", 0, 19)
    assert deal_outcome([81, 81], 0, 2, 6, OPTS, 5, 0) == ([0, 0], "tie", 0, 5 + 32)


def test_tie_rule_options_replace_the_hanging_pool():
    """Option tie_rule: contract_made / contract_fails."""
    made = dict(OPTS, tie_rule="contract_made")
    fails = dict(OPTS, tie_rule="contract_fails")
    assert deal_outcome([106, 106], 0, 1, 6, made, 0, 0) == ([11, 10], "made", 0, 0)
    assert deal_outcome([81, 81], 1, 2, 6, made, 0, 0) == ([0, 32], "made", 0, 0)
    assert deal_outcome([81, 81], 0, 1, 6, fails, 0, 0) == ([0, 16], "inside", 0, 0)
    assert deal_outcome([81, 81], 0, 4, 6, fails, 0, 0) == ([0, 64], "inside", 0, 0)


def test_hanging_pool_goes_to_the_next_winner_of_a_scored_deal():
    """R9.6: after a tie the next deal's team with more raw points takes the pool."""
    assert deal_outcome([145, 17], 0, 1, 6, OPTS, 8, 0) == ([22, 2], "made", 8, 0)
    assert deal_outcome([17, 145], 0, 1, 6, OPTS, 8, 0) == ([0, 24], "inside", 8, 0)
    assert deal_outcome([17, 145], 0, 2, 6, OPTS, 8, 0) == ([0, 40], "inside", 8, 0)


def test_hanging_pool_survives_annulled_deals_within_a_match():
    """R9.6 through the engine: a tie fills the pool, an all-pass keeps it, a scored deal pays it."""
    for seed in range(400):
        state = BALOOT.start(seed=seed, dealer=0)
        rng = random.Random(seed)
        while state.to_act is not None and not any(r["detail"].get("result") == "tie"
                                                   for r in state.deal_records):
            state.apply(rng.choice(state.legal_actions()))
        if state.to_act is None:
            continue
        pool = state.pool
        assert pool == last_detail(state)["hanging_pool"] > 0
        for _ in range(4):
            state.apply({"type": "pass"})
        assert state.pool == pool and last_detail(state)["result"] == "annulled"
        auction(state, "hearts")
        play_out_deal(state)
        detail = last_detail(state)
        if detail["result"] == "tie":
            continue
        winner = 0 if detail["raw"][0] > detail["raw"][1] else 1
        assert detail["hanging_awarded"] == pool and detail["hanging_pool"] == 0
        assert state.deal_records[-1]["delta"][winner] >= pool
        return
    pytest.fail("no tie found")


# ----- R10: end of the match ------------------------------------------------------------------

def _s1(start_score, options=None):
    scenario = json.loads((EXAMPLES / "S1.json").read_text())  # the deal scores [14, 2]
    scenario["start_score"] = start_score
    scenario["options"] = options or {}
    return run_cli(scenario)[0]


def test_match_is_won_above_151_not_at_151():
    """R10.1: more than target_score; 151 exactly goes on."""
    assert _s1([137, 0])["winner"] is None
    assert _s1([138, 0])["winner"] == 0
    assert _s1([137, 0], {"target_rule": "at_least"})["winner"] == 0
    assert _s1([100, 0], {"target_score": 110})["winner"] == 0


def test_both_above_the_target_the_higher_score_wins_and_equal_plays_on():
    """R10.1: both teams above: the higher wins; equal scores continue."""
    assert _s1([140, 150])["winner"] == 0  # 154 against 152
    scenario = json.loads((EXAMPLES / "S12.json").read_text())  # scores [8, 8]
    scenario["start_score"] = [150, 150]
    result, _ = run_cli(scenario)
    assert result["score"] == [158, 158] and result["winner"] is None


def test_no_win_on_capot_option():
    """R10.2: a deal with a capot cannot end the match."""
    hands = hands_of(s0=ALL_HEARTS)
    state = play_out_deal(auction(new_match(hands, start_score=[140, 0]), "hearts"))
    assert state.winner == 0
    state = new_match(hands, start_score=[140, 0], options={"no_win_on_capot": True})
    play_out_deal(auction(state, "hearts"))
    assert state.winner is None and state.score == [167, 0]


def test_no_action_after_the_match_is_won():
    """R10.4."""
    scenario = json.loads((EXAMPLES / "S1.json").read_text())
    scenario["start_score"] = [140, 0]
    scenario["actions"].append({"seat": 1, "type": "pass"})
    result, status = run_cli(scenario)
    assert status == 1 and result["winner"] == 0 and result["error"]["index"] == 36


def test_timeout_forfeits_the_match_by_default():
    """R10.3: the seat's team loses, the deal scores nothing."""
    state = in_play("hearts")
    state.apply({"seat": 0, "type": "timeout"})
    assert state.winner == 1
    record = state.deal_records[-1]
    assert record["delta"] == [0, 0] and record["detail"]["result"] == "timeout"
    assert record["detail"]["seat"] == 0


def test_timeout_auto_action_passes_or_plays_the_lowest_legal_card():
    """R10.3 auto_action: pass in the auction; first legal card S H D C, 7 up to A; no declaring."""
    options = {"timeout_result": "auto_action"}
    state = new_match(hands_of(s0="JS TS 9S 8S AH"), options=options)
    state.apply({"type": "timeout"})
    assert state.calls == [(0, "pass", None)] and state.to_act == 1
    state = in_play("hearts", options=options, s0="JS TS 9S 8S AH")
    state.apply({"type": "timeout"})
    assert state.trick == [BALOOT.deck.index["8S"]] and state.declared[0] is None
    assert state.actions[-1] == {"seat": 0, "type": "timeout"}


def test_auto_action_timeouts_in_every_auction_annul_every_deal():
    """R10.3 + R4.5: the default call is pass, so a table of sleeping players never plays a card."""
    state = BALOOT.start(seed=2, options={"timeout_result": "auto_action"})
    for _ in range(40):
        state.apply({"seat": state.to_act, "type": "timeout"})
    assert len(state.deal_records) == 10 and state.score == [0, 0]
    assert {r["detail"]["result"] for r in state.deal_records} == {"annulled"}


def test_timeout_is_illegal_without_a_clock_or_for_another_seat():
    """R10.3: turn_timer_seconds = 0 means no clock; a timeout names the pending seat."""
    state = in_play("hearts", options={"turn_timer_seconds": 0})
    with pytest.raises(IllegalAction):
        state.apply({"seat": 0, "type": "timeout"})
    state = in_play("hearts")
    with pytest.raises(IllegalAction):
        state.apply({"seat": 2, "type": "timeout"})


# ----- options, presets, views, serialisation ---------------------------------------------------

def test_saudi_classic_mode_starts_and_its_options_are_refused_in_the_contract_mode():
    """Section 2.1 game_mode: saudi_classic plays (baloot_saudi.md); its own options exist only there."""
    assert BALOOT.start(seed=1, options={"game_mode": "saudi_classic"}).phase == "buying"
    with pytest.raises(ScenarioError, match="does not exist in game_mode 'contract'"):
        BALOOT.start(seed=1, options={"sun_priority": "none"})


@pytest.mark.parametrize("options", [{"target_score": 0}, {"turn_timer_seconds": -1},
                                     {"no_trump_double": 1}, {"tie_rule": "split"}, {"bogus": 1}])
def test_bad_options_are_scenario_errors(options):
    """Section 2.1: every option is checked."""
    with pytest.raises(ScenarioError):
        BALOOT.start(seed=1, options=options)


def test_presets_are_valid_option_sets():
    """Section 2.2: source, bulgarian_written_rules, literal_source."""
    assert set(PRESETS) == {"source", "bulgarian_written_rules", "literal_source"}
    for preset in PRESETS.values():
        assert BALOOT.resolve_options(preset)
    assert BALOOT.resolve_options(PRESETS["bulgarian_written_rules"])["must_undertrump"] is False


def test_start_score_of_151_is_legal_under_more_than_151():
    """R10.1: 151 has not won yet, so a match may start there."""
    assert _s1([151, 0])["winner"] == 0
    with pytest.raises(ScenarioError):
        BALOOT.start(seed=1, start_score=[152, 0])


def test_views_show_own_hand_auction_and_table_but_no_other_hand():
    """Views: own 5 then 8 cards, the auction, the trick and played cards; never another hand."""
    state = new_match(hands_of(s0="JS TS 9S 8S AH"))
    view = state.view(0)
    assert len(view["hand"]) == 5 and view["hand_sizes"] == [5, 5, 5, 5]
    auction(state, "hearts")
    view = state.view(2)
    assert len(view["hand"]) == 8 and view["auction"][0] == {"seat": 0, "call": "bid",
                                                              "contract": "hearts"}
    assert view["contract"] == "hearts" and view["multiplier"] == 1
    _declare(state, "JS TS 9S 8S")
    play(state, "AH")
    view = state.view(1)
    assert view["trick"] == [{"seat": 0, "card": "AH"}] and view["played"] == [{"seat": 0, "card": "AH"}]
    hidden = set().union(*(set(state.view(s)["hand"]) for s in (0, 2, 3)))
    assert not hidden & set(view["hand"])
    assert state.view(None)["hand"] == []
    text = json.dumps(view)
    assert all(code not in text for code in state.view(3)["hand"])
    assert state.revealed_cards() == sum(1 << BALOOT.deck.index[c] for c in "JS TS 9S 8S".split())


def test_json_round_trip_and_clone_are_equal():
    """Contract: a state rebuilt from its actions equals the original; clones are independent."""
    state = _declared_deal("hearts", s0="JS TS 9S 8S", s1="KD KH KS KC")
    rebuilt = BALOOT.from_json(json.loads(json.dumps(state.to_json())))
    assert rebuilt == state
    state = in_play("hearts")
    twin = state.clone()
    play(state, state.legal_actions()[-1]["card"])
    assert twin != state and twin.trick == []


def test_legal_play_tables_cover_every_card_once():
    """Implementation check: the per-suit play tables give each card's action exactly once."""
    everything = [a["card"] for suit in range(4) for a in SUIT_PLAYS[2][suit][255]]
    assert sorted(everything) == sorted(CODES)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("S*[0-9].json")))
def test_shared_examples_replay_to_their_expected_results(path):
    """Section 5: every worked example."""
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    result, _ = run_cli(json.loads(path.read_text()))
    assert [(d["delta"], d["score"]) for d in result["deals"]] == [
        (d["delta"], d["score"]) for d in expected["deals"]]
    assert result["winner"] == expected.get("winner")
    assert (result["error"] or {}).get("index") == (expected.get("error") or {}).get("index")


def test_random_matches_finish_with_consistent_records():
    """Conformance smoke test: random legal play ends every match, cards always partition."""
    for seed in range(30):
        state = BALOOT.start(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while state.to_act is not None:
            places = state.card_places()
            union = 0
            for mask in places.values():
                assert not union & mask
                union |= mask
            assert union == (1 << 32) - 1
            legal = state.legal_actions()
            assert legal
            state.apply(rng.choice(legal))
        assert state.winner in (0, 1)
        assert sum(r["delta"][0] for r in state.deal_records) == state.score[0]
