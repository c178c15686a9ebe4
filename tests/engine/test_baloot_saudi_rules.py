"""Classic Saudi Baloot (game_mode saudi_classic): scenario tests named by the rules S1-S14 of
docs/rules/baloot_saudi.md and by each option of its section 2.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gameplay.rules import GAMES, IllegalAction, ScenarioError
from gameplay.rules.baloot_saudi_scoring import (deal_outcome, hokum_card_gp, scoring_team,
                                                 sun_card_gp)
from gameplay.rules.replay import replay

BALOOT = GAMES["baloot"]
SAUDI = {"game_mode": "saudi_classic"}
EXAMPLES = Path(__file__).resolve().parent / "examples" / "baloot" / "saudi"


def example(number: str) -> dict:
    return json.loads((EXAMPLES / f"saudi_{number}.json").read_text())


def start_example(number: str, **options):
    """The match of a worked example, before its first action (its options, plus `options`)."""
    scenario = example(number)
    return BALOOT.start(options={**scenario["options"], **options}, dealer=scenario["dealer"],
                        deals=scenario["deals"], start_score=scenario.get("start_score"))


def run(state, actions):
    for action in actions:
        state.apply(action)
    return state


def seat_calls(*pairs):
    """[(seat, type or contract), ...] as actions: 'pass', 'hokum', 'sun', 'ashkal', 'double'..."""
    actions = []
    for seat, call in pairs:
        if call in ("hokum", "sun", "ashkal"):
            actions.append({"seat": seat, "type": "bid", "contract": call})
        elif call.startswith("hokum:"):
            actions.append({"seat": seat, "type": "bid", "contract": "hokum", "suit": call[-1]})
        else:
            actions.append({"seat": seat, "type": call})
    return actions


def deal_for(final_hands: list[str], buyer: int, dealer: int) -> dict:
    """A scenario deal giving each seat its 8 cards (strings of codes) once `buyer` has bought:
    the buyer's sixth card is the face-up card (S5.1)."""
    hands = [h.split() for h in final_hands]
    order = [(dealer + step) % 4 for step in range(1, 5)]
    stock = [hands[buyer][5]]
    for seat in order:
        stock += hands[seat][6:8] if seat == buyer else hands[seat][5:8]
    return {"hands": [h[:5] for h in hands], "stock": stock}


def playing(final_hands, buyer=0, dealer=3, contract="hokum", options=None, start_score=None,
            doubling=("pass", "pass")):
    """A deal in play: seat `buyer` (p1 with the default dealer 3) bought `contract`."""
    state = BALOOT.start(options={**SAUDI, **(options or {})}, dealer=dealer,
                         deals=[deal_for(final_hands, buyer, dealer)], start_score=start_score)
    order = [(dealer + step) % 4 for step in range(1, 5)]
    assert order[0] == buyer, "these helpers buy with p1"
    if contract == "hokum":
        run(state, seat_calls((buyer, "hokum"), (order[1], "pass"), (order[2], "pass"),
                              (order[3], "pass"), (buyer, "hokum")))
    else:
        run(state, seat_calls((buyer, "sun")))
    if state.phase == "doubling":
        opponents = [s for s in order if (s - buyer) % 2]
        run(state, seat_calls(*zip(opponents, doubling)))
    return state


def plays(*codes, seat=None):
    return [{"type": "play", "card": code} for code in codes]


# Deal of saudi_01 (dealer 3, face-up TH): final hands when seat 0 buys.
HOKUM_HANDS = ["JH 9H AS KS QD TH 7H 8C", "AH 8H TS 9S 7S KD JD 9D",
               "KH AC KC QS JS TC 7D 8D", "QH 8S AD TD 7C JC 9C QC"]


# ----- S1, S2, S3: cards, dealer, the deal --------------------------------------------------

def test_s1_card_points_of_a_hokum_deal_are_162_and_of_a_sun_deal_130():
    for contract, total in (("hokum", 162), ("sun", 130)):
        state = playing(HOKUM_HANDS, contract=contract)
        while state.deal_records == []:
            state.apply(state.legal_actions()[-1])
        detail = state.deal_records[0]["detail"]
        assert sum(detail["card_points"]) + 10 == total


def test_s2_the_deal_passes_to_the_right_after_a_scored_and_after_an_annulled_deal():
    state = start_example("06")
    assert state.dealer == 3
    run(state, seat_calls(*[(s, "pass") for s in (0, 1, 2, 3, 0, 1, 2, 3)]))
    assert state.deal_records[0]["detail"] == {"result": "annulled", "dealer": 3}
    assert state.dealer == 0 and state.to_act == 1


def test_s2_option_annulled_deal_dealer_same_keeps_the_dealer():
    state = start_example("06", annulled_deal_dealer="same")
    run(state, seat_calls(*[(s, "pass") for s in (0, 1, 2, 3, 0, 1, 2, 3)]))
    assert state.dealer == 3 and state.to_act == 0


def test_s3_the_face_up_card_is_stock_zero_and_every_seat_and_spectator_sees_it():
    state = start_example("01")
    for seat in (0, 1, 2, 3, None):
        view = state.view(seat)
        assert view["face_up"] == "TH"
        assert len(view["hand"]) == (5 if seat is not None else 0)


def test_s3_a_deal_that_is_not_four_hands_of_five_and_twelve_stock_cards_is_malformed():
    deal = example("01")["deals"][0]
    bad = {"hands": deal["hands"], "stock": deal["stock"][:11]}
    with pytest.raises(ScenarioError):
        BALOOT.start(options=SAUDI, dealer=3, deals=[bad])


def test_s3_seeded_deals_are_shuffled_every_deal():
    state = BALOOT.start(seed=9, options=SAUDI)
    run(state, seat_calls(*[((state.dealer + 1 + i) % 4, "pass") for i in range(8)]))
    first, second = state.dealt
    assert sorted(first[0][0] + first[0][1]) != sorted(second[0][0] + second[0][1])


# ----- S4: buying -----------------------------------------------------------------------------

def legal_calls(state):
    return [(a["type"], a.get("contract"), a.get("suit"), a.get("closed")) for a in state.legal_actions()]


def test_s4_3_round_one_open_turns_offer_pass_hokum_sun_and_ashkal_only_to_p3_and_p4():
    state = start_example("01")  # dealer 3: p1..p4 = seats 0..3, face-up TH
    assert legal_calls(state) == [("pass", None, None, None), ("bid", "hokum", None, None),
                                  ("bid", "sun", None, None)]
    run(state, seat_calls((0, "pass"), (1, "pass")))
    assert ("bid", "ashkal", None, None) in legal_calls(state)
    with pytest.raises(IllegalAction, match="suit"):
        state.apply({"seat": 2, "type": "bid", "contract": "hokum", "suit": "S"})


def test_s4_2_ashkal_is_refused_to_p1_and_p2_and_on_a_face_up_ace():
    state = start_example("01")
    with pytest.raises(IllegalAction, match="dealer"):
        state.apply({"seat": 0, "type": "bid", "contract": "ashkal"})
    state = start_example("03")  # face-up AH, dealer 1: p3 = seat 0
    run(state, seat_calls((2, "pass"), (3, "pass")))
    with pytest.raises(IllegalAction, match="Ace"):
        state.apply({"seat": 0, "type": "bid", "contract": "ashkal"})


def test_s4_5_a_hokum_opens_a_window_for_the_three_other_seats_then_the_confirm_step():
    state = start_example("01")
    run(state, seat_calls((0, "pass"), (1, "hokum")))
    assert [state.to_act] == [2]
    assert legal_calls(state) == [("pass", None, None, None), ("bid", "sun", None, None),
                                  ("bid", "ashkal", None, None)]
    with pytest.raises(IllegalAction, match="overcalled"):
        state.apply({"seat": 2, "type": "bid", "contract": "hokum"})
    run(state, seat_calls((2, "pass"), (3, "pass"), (0, "pass")))
    assert state.to_act == 1 and legal_calls(state) == [("bid", "hokum", None, None), ("bid", "sun", None, None)]
    with pytest.raises(IllegalAction):
        state.apply({"seat": 1, "type": "pass"})


def test_s4_6_option_hokum_confirm_false_fixes_the_hokum_after_the_window():
    state = start_example("01", hokum_confirm=False)
    run(state, seat_calls((0, "hokum"), (1, "pass"), (2, "pass"), (3, "pass")))
    assert state.phase == "doubling" and state.view(None)["contract"] == "hokum"


@pytest.mark.parametrize("rule, p1_may, p2_may", [("first_seat_only", True, False),
                                                   ("never", False, False), ("always", True, True)])
def test_s4_6_option_ace_sun_switch_on_a_face_up_ace(rule, p1_may, p2_may):
    # saudi_03: dealer 1, so p1 = seat 2 and p2 = seat 3; the face-up card is AH
    p1 = run(start_example("03", ace_sun_switch=rule),
             seat_calls((2, "hokum"), (3, "pass"), (0, "pass"), (1, "pass")))
    p2 = run(start_example("03", ace_sun_switch=rule),
             seat_calls((2, "pass"), (3, "hokum"), (0, "pass"), (1, "pass"), (2, "pass")))
    for state, bidder, allowed in ((p1, 2, p1_may), (p2, 3, p2_may)):
        assert state.to_act == bidder and state.view(None)["buying"]["step"] == "confirm"
        assert (("bid", "sun", None, None) in legal_calls(state)) is allowed
        if not allowed:
            with pytest.raises(IllegalAction, match="Ace"):
                state.apply({"seat": bidder, "type": "bid", "contract": "sun"})


def test_s4_7_a_sun_call_by_p3_is_claimed_before_you_by_the_earlier_opponent():
    state = start_example("03")
    run(state, seat_calls((2, "pass"), (3, "pass"), (0, "sun")))
    assert state.to_act == 3 and legal_calls(state) == [("pass", None, None, None), ("bid", "sun", None, None)]
    run(state, seat_calls((3, "sun")))
    view = state.view(None)
    assert view["contract"] == "sun" and view["buyer"] == 3 and not view["ashkal"]


def test_s4_7_claimers_of_p4_are_p1_then_p3_and_their_waiver_fixes_the_sun():
    state = start_example("01")  # p1..p4 = 0..3
    run(state, seat_calls((0, "pass"), (1, "pass"), (2, "pass"), (3, "sun")))
    assert state.to_act == 0
    run(state, seat_calls((0, "pass")))
    assert state.to_act == 2
    run(state, seat_calls((2, "pass")))
    assert state.view(None)["buyer"] == 3 and state.phase in ("play", "doubling")


@pytest.mark.parametrize("rule, claimers", [("round1", []), ("both_rounds", [0]), ("none", [])])
def test_s4_7_option_sun_priority_in_round_two(rule, claimers):
    state = start_example("01", sun_priority=rule)
    run(state, seat_calls(*[(s, "pass") for s in (0, 1, 2, 3)], (0, "pass"), (1, "sun")))
    assert ([state.to_act] if state.phase == "buying" else []) == claimers


def test_s4_7_option_sun_priority_none_has_no_claim_in_round_one():
    state = start_example("03", sun_priority="none")
    run(state, seat_calls((2, "pass"), (3, "pass"), (0, "sun")))
    assert state.phase != "buying" and state.view(None)["buyer"] == 0


def test_s4_ashkal_makes_the_callers_partner_the_buyer_holding_the_face_up_card():
    state = start_example("04")
    run(state, seat_calls((3, "pass"), (0, "pass"), (1, "ashkal"), (0, "pass")))
    assert state.view(None)["buyer"] == 3 and "KS" in state.view(3)["hand"]
    assert state.view(None)["caller"] == 1 and state.view(None)["ashkal"] is True


def test_s4_4_round_two_offers_hokum_in_the_three_other_suits_and_refuses_the_face_up_suit():
    state = start_example("01")
    run(state, seat_calls(*[(s, "pass") for s in (0, 1, 2, 3)]))
    suits = [c[2] for c in legal_calls(state) if c[1] == "hokum"]
    assert suits == ["S", "D", "C"]
    with pytest.raises(IllegalAction, match="face-up"):
        state.apply({"seat": 0, "type": "bid", "contract": "hokum", "suit": "H"})
    with pytest.raises(IllegalAction, match="names its suit"):
        state.apply({"seat": 0, "type": "bid", "contract": "hokum"})


def test_s4_5_option_round2_hokum_window_later_only():
    state = start_example("01", round2_hokum_window="later_only")
    run(state, seat_calls(*[(s, "pass") for s in (0, 1, 2, 3)], (0, "pass"), (1, "hokum:S")))
    assert state.to_act == 2
    run(state, seat_calls((2, "pass"), (3, "pass")))
    assert state.to_act == 1 and state.view(None)["buying"]["step"] == "confirm"


def test_s4_2_option_ashkal_round2_false():
    state = start_example("01", ashkal_round2=False)
    run(state, seat_calls(*[(s, "pass") for s in (0, 1, 2, 3)], (0, "pass"), (1, "pass")))
    assert ("bid", "ashkal", None, None) not in legal_calls(state)
    with pytest.raises(IllegalAction, match="second round"):
        state.apply({"seat": 2, "type": "bid", "contract": "ashkal"})


def test_s4_9_eight_passes_annul_the_deal_with_delta_zero():
    result, status = replay({**example("06"), "actions": example("06")["actions"][:8]})
    assert status == 0 and result["deals"][0]["delta"] == [0, 0]


# ----- S5: completing the deal ------------------------------------------------------------------

def test_s5_1_the_buyer_takes_the_face_up_card_and_two_more_the_others_three():
    state = start_example("03")
    run(state, seat_calls((2, "pass"), (3, "pass"), (0, "sun"), (3, "sun")))
    assert sorted(state.view(3)["hand"]) == sorted("AS TS KS KD 7D AH TH 9C".split())
    assert sorted(state.view(2)["hand"]) == sorted("7S QH TD QC 7C 9H 8H JD".split())
    assert all(size == 8 for size in state.view(None)["hand_sizes"])


# ----- S6: doubling ---------------------------------------------------------------------------

def test_s6_2_the_ladder_double_triple_four_gahwa_goes_doubler_buyer_doubler_buyer():
    state = start_example("15")
    run(state, seat_calls((3, "hokum"), (0, "pass"), (1, "pass"), (2, "pass"), (3, "hokum")))
    assert state.to_act == 0 and legal_calls(state) == [
        ("pass", None, None, None), ("double", None, None, None), ("double", None, None, True)]
    run(state, seat_calls((0, "double")))
    assert state.to_act == 3
    with pytest.raises(IllegalAction, match="triple"):
        state.apply({"seat": 3, "type": "four"})
    run(state, seat_calls((3, "triple"), (0, "four")))
    assert state.to_act == 3 and legal_calls(state) == [("pass", None, None, None), ("gahwa", None, None, None)]
    with pytest.raises(IllegalAction, match="opens"):
        state.apply({"seat": 3, "type": "gahwa", "closed": True})
    run(state, seat_calls((3, "gahwa")))
    assert state.phase == "play" and state.view(None)["level"] == "gahwa"


def test_s6_2_a_pass_after_the_double_ends_the_phase_at_level_two():
    state = start_example("09")
    run(state, seat_calls((3, "hokum"), (0, "pass"), (1, "pass"), (2, "pass"), (3, "hokum"),
                          (0, "pass"), (2, "double"), (3, "pass")))
    assert state.phase == "play" and state.view(None)["level"] == 2


@pytest.mark.parametrize("rule, score, may_double", [
    ("behind_100", [40, 105], True), ("behind_100", [100, 105], False), ("behind_100", [0, 0], False),
    ("always", [0, 0], True), ("never", [40, 105], False)])
def test_s6_3_option_sun_double_rule(rule, score, may_double):
    scenario = example("16")
    state = BALOOT.start(options={**SAUDI, "sun_double_rule": rule}, dealer=3,
                         deals=scenario["deals"], start_score=score)
    run(state, seat_calls((0, "pass"), (1, "sun"), (0, "pass")))
    assert (state.phase == "doubling") is may_double
    if may_double:
        assert legal_calls(state) == [("pass", None, None, None), ("double", None, None, None)]
        with pytest.raises(IllegalAction, match="Sun double"):
            state.apply({"seat": 0, "type": "double", "closed": True})
        run(state, seat_calls((0, "double")))
        assert state.phase == "play"


def test_s6_4_option_closed_double_false_refuses_the_lock():
    state = start_example("09", closed_double=False)
    run(state, seat_calls((3, "hokum"), (0, "pass"), (1, "pass"), (2, "pass"), (3, "hokum")))
    assert ("double", None, None, True) not in legal_calls(state)
    with pytest.raises(IllegalAction):
        state.apply({"seat": 0, "type": "double", "closed": True})


# ----- S7: play ---------------------------------------------------------------------------------

def test_s7_1_p1_leads_the_first_trick_whoever_bought():
    state = start_example("03")
    run(state, seat_calls((2, "pass"), (3, "pass"), (0, "sun"), (3, "sun")))
    assert state.to_act == 2


def test_s7_3_a_closed_game_forbids_leading_a_trump_while_holding_another_suit():
    state = start_example("09")
    run(state, example("09")["actions"][:8])
    assert state.view(None)["closed"] is True
    with pytest.raises(IllegalAction, match="closed"):
        state.apply({"seat": 3, "type": "play", "card": "JS"})


def play_codes(state) -> set[str]:
    return {a["card"] for a in state.legal_actions() if a["type"] == "play"}


def test_s7_4_plain_led_a_void_player_with_trumps_must_trump_when_an_opponent_wins():
    hands = ["AH KH QH 8C 7C TS 9D 8H", "JS 9S AS 7D 8D 9C TD QD",
             "JH TH 8S AD KD 7S QS JD", "KS 9H 7H AC KC QC JC TC"]
    state = playing(hands)  # face-up TS: Hokum spades for seat 0
    run(state, plays("AH"))
    assert play_codes(state) == {"JS", "9S", "AS"}
    with pytest.raises(IllegalAction, match="trump"):
        state.apply({"type": "play", "card": "7D"})


# Hokum spades for seat 0; seat 2 is void in hearts and holds the trumps 9S AS KS.
RUFF_HANDS = ["AH 8H KD QD 7C TS 9D 7D", "7H 9H JS 7S 8C 9C TC JC",
              "9S AS KS KC QC AC AD 8D", "QS 8S KH QH JH TH JD TD"]
ALL_OF_SEAT_2 = set(RUFF_HANDS[2].split())


@pytest.mark.parametrize("rule, lead, legal", [
    ("free", "AH", ALL_OF_SEAT_2), ("free", "8H", ALL_OF_SEAT_2),
    ("free_if_certain", "AH", ALL_OF_SEAT_2), ("free_if_certain", "8H", {"9S", "AS", "KS"}),
    ("must_ruff", "AH", {"9S", "AS", "KS"}), ("must_ruff", "8H", {"9S", "AS", "KS"})])
def test_s7_4_option_partner_winning_ruff_for_the_third_player(rule, lead, legal):
    state = playing(RUFF_HANDS, options={"partner_winning_ruff": rule})
    run(state, plays(lead, "7H"))  # seat 0 leads, seat 1 follows low: the partner is winning
    assert state.to_act == 2 and play_codes(state) == legal


# Hokum spades for seat 0, who leads TS; seat 1 cannot beat it; seat 2 holds AS and KS.
RAISE_HANDS = ["QH 8H 7H 9D 8C TS 7C 9S", "7S 8S AH KH 7D 8D 9C TC",
               "AS KS AD KD QD AC KC QC", "QS JS JH TH 9H JD TD JC"]


def test_s7_4_trump_led_an_opponent_must_raise_the_winning_trump_when_he_can():
    hands = ["9S KH QH 8C 7C TS 9D 8H", "JS AS 7S 7D 8D 9C TD QD",
             "KS TH 8S AD KD QS JD JH", "AC KC QC JC TC 9H 7H AH"]
    state = playing(hands)
    run(state, plays("TS"))
    assert play_codes(state) == {"JS", "AS"}
    with pytest.raises(IllegalAction, match="higher"):
        state.apply({"type": "play", "card": "7S"})
    run(state, plays("AS"))
    assert play_codes(state) == {"KS", "8S", "QS"}  # nothing beats AS: any trump


@pytest.mark.parametrize("raise_over, legal", [(False, {"AS", "KS"}), (True, {"AS"})])
def test_s7_4_option_trump_raise_over_partner(raise_over, legal):
    state = playing(RAISE_HANDS, options={"trump_raise_over_partner": raise_over})
    run(state, plays("TS"))
    assert play_codes(state) == {"7S", "8S"}
    run(state, plays("8S"))
    assert play_codes(state) == legal  # the partner (seat 0) is winning with TS


@pytest.mark.parametrize("undertrump, legal", [
    (True, {"7S", "8S", "KS"}), (False, {"7S", "8S", "KS", "AC", "KC", "QC", "JC", "TC"})])
def test_s7_4_option_must_undertrump(undertrump, legal):
    hands = ["AH KH QH 8C 7C TS 9D 8H", "7H JH TH 9H 7D 8D TD QD",
             "JS 9S AS AD KD QS JD 9C", "7S 8S KS AC KC QC JC TC"]
    state = playing(hands, options={"must_undertrump": undertrump})
    run(state, plays("AH", "7H", "JS"))  # an opponent of seat 3 (seat 2) wins with the top trump
    assert state.to_act == 3 and play_codes(state) == legal


# ----- S8, S9: projects and baloot ---------------------------------------------------------------

def test_s8_projects_kinds_are_public_at_once_and_the_scoring_cards_after_trick_one():
    state = start_example("07")
    actions = example("07")["actions"]
    run(state, actions[:8])  # seat 2 declared KH QH JH and led JH
    assert state.view(1)["declarations"] == [{"seat": 2, "projects": ["sira"]}]
    assert "QH" not in json.dumps(state.view(1)["declarations"])
    assert state.view(1)["projects"] == []
    run(state, actions[8:13])  # trick 1 complete
    view = state.view(1)
    assert view["project_team"] == 1
    assert [p["cards"] for p in view["projects"]] == [["TS", "9S", "8S", "7S"]]


def test_s8_2_invalid_declarations_are_refused():
    state = playing(HOKUM_HANDS)
    for melds, why in (([["AS", "KS"]], "not a meld"), ([["AS", "AS", "KS"]], "twice"),
                       ([["AH", "KH", "QH"]], "not in your hand"), ([], "at least one")):
        with pytest.raises(IllegalAction, match=why):
            state.apply({"type": "declare", "melds": melds})


def test_s8_1_four_nines_are_not_a_project_and_four_aces_are_four_hundred_in_sun():
    hands = ["AS AH AD AC 9S 9H 9D KS", "9C KH QH JH TH 8S 7S KD",
             "QS JS TS 8H 7H QD JD TD", "KC QC JC TC 8C 7C 8D 7D"]
    state = playing(hands, contract="sun")
    choices = [a["melds"] for a in state.legal_actions() if a["type"] == "declare"]
    assert choices == [[["AS", "AH", "AD", "AC"]]]
    run(state, [{"type": "declare", "melds": [["AS", "AH", "AD", "AC"]]}])
    assert state.view(1)["declarations"] == [{"seat": 0, "projects": ["four_hundred"]}]


def test_s8_4_comparison_kind_then_top_card_then_priority():
    sun = False
    priority = {0: 0, 1: 1, 2: 2, 3: 3}.get
    sira_a = 0b111 << 5  # A K Q of spades
    sira_q = 0b111 << 3  # Q J T of spades
    fifty = 0b1111 << 8  # T 9 8 7 of hearts
    assert scoring_team([(0, sira_a), (1, fifty)], sun, priority) == 1
    assert scoring_team([(1, sira_q), (2, sira_a)], sun, priority) == 0
    assert scoring_team([(1, 0b111 << 11), (2, 0b111 << 19)], sun, priority) == 1  # equal: p2 over p3


def test_s9_baloot_is_announced_with_the_second_card_and_scores_two_unmultiplied():
    result, _ = replay(example("07"))
    detail = result["deals"][0]["detail"]
    assert detail["baloot"] == [{"seat": 2}] and result["deals"][0]["delta"] == [13, 10]
    state = start_example("07")
    actions = example("07")["actions"]
    shown = [i for i in range(len(actions))
             if run(state, [actions[i]]).view(None)["baloot"] is not None]
    assert actions[shown[0]] == {"seat": 2, "type": "play", "card": "QH"}


@pytest.mark.parametrize("blocked, delta_has_baloot", [(True, False), (False, True)])
def test_s9_2_option_baloot_blocked_by_hundred(blocked, delta_has_baloot):
    hands = ["AH KH QH JH 8C TH 7C 9D", "JS 9S AS 7D 8D 9C TD QD",
             "KS 9H 8S AD KD QS JD 7S", "AC KC QC JC TC 7H 8H TS"]
    state = playing(hands, options={"baloot_blocked_by_hundred": blocked})  # face-up TH: hearts
    run(state, [{"type": "declare", "melds": [["AH", "KH", "QH", "JH", "TH"]]}])
    while not state.deal_records:
        state.apply(state.default_action())
    assert bool(state.deal_records[0]["detail"]["baloot"]) is delta_has_baloot


# ----- S10, S11: scoring --------------------------------------------------------------------------

@pytest.mark.parametrize("points, gp", [([101, 61], [10, 6]), ([141, 21], [14, 2]), ([95, 67], [9, 7]),
                                        ([85, 77], [8, 8]), ([88, 74], [9, 7]), ([96, 66], [9, 7]),
                                        ([86, 76], [8, 8]), ([126, 36], [12, 4]), ([157, 5], [16, 0]),
                                        ([81, 81], [8, 8])])
def test_s11_hokum_rounding_table(points, gp):
    assert hokum_card_gp(points) == gp


@pytest.mark.parametrize("points, gp", [([55, 75], [11, 15]), ([65, 65], [13, 13]), ([59, 71], [12, 14]),
                                        ([64, 66], [12, 14]), ([57, 73], [12, 14]), ([86, 44], [18, 8]),
                                        ([103, 27], [20, 6]), ([114, 16], [22, 4])])
def test_s11_sun_rounding_table(points, gp):
    assert sun_card_gp(points) == gp


def outcome(cards, sun=False, level=1, last=1, projects=(0, 0), baloots=(0, 0), tricks=(4, 4),
            last_caller=None, **options):
    defaults = {"equal_points_rule": "kammelna", "loser_projects": "to_winner",
                "baloot_on_loss": "to_winner", "kaboot_multiplied": False}
    return deal_outcome({"sun": sun, "level": level, "buyers": 0, "last_caller_team": last_caller,
                         "card_points": list(cards), "last_trick_team": last, "tricks_won": list(tricks),
                         "project_raw": list(projects), "baloots": list(baloots)}, {**defaults, **options})


def test_s10_worked_outcomes_of_section_11():
    assert outcome([101, 51])["delta"] == [10, 6]
    assert outcome([36, 116])["delta"] == [0, 16]
    assert outcome([86, 66])["delta"] == [8, 8] and outcome([86, 66])["result"] == "split"
    assert outcome([76, 76], last=1)["delta"] == [0, 16]
    assert outcome([81, 71])["delta"] == [0, 16]
    assert outcome([65, 55], sun=True)["delta"] == [13, 13]
    assert outcome([111, 41], projects=(0, 50), baloots=(1, 0))["delta"] == [13, 10]
    assert outcome([138, 14], level=2, projects=(20, 0), last_caller=1)["delta"] == [36, 0]
    assert outcome([27, 93], sun=True, level=2, projects=(20, 0), last_caller=1)["delta"] == [0, 60]
    assert outcome([152, 0], last=0, tricks=(8, 0), projects=(20, 0))["delta"] == [27, 0]
    gahwa = outcome([91, 61], level=5, last_caller=0)
    assert gahwa["delta"] == [152, 0] and gahwa["gahwa"]


@pytest.mark.parametrize("rule, delta", [("kammelna", [0, 16]), ("split", [8, 8]), ("buyer_loses", [0, 16])])
def test_s10_4_option_equal_points_rule_in_hokum(rule, delta):
    assert outcome([81, 71], equal_points_rule=rule)["delta"] == delta


def test_s10_4_option_equal_points_rule_buyer_loses_in_sun():
    assert outcome([65, 55], sun=True, equal_points_rule="buyer_loses")["delta"] == [0, 26]


def test_s10_4_a_doubled_tie_is_lost_by_the_last_caller():
    assert outcome([81, 71], level=2, last_caller=1)["delta"] == [32, 0]
    assert outcome([81, 71], level=3, last_caller=0)["delta"] == [0, 48]


@pytest.mark.parametrize("rule, delta", [("to_winner", [0, 18]), ("void", [0, 16])])
def test_s10_5_option_loser_projects(rule, delta):
    assert outcome([36, 116], projects=(20, 0), loser_projects=rule)["delta"] == delta


@pytest.mark.parametrize("rule, delta", [("to_winner", [0, 18]), ("kept", [2, 16]), ("void", [0, 16])])
def test_s10_6_d_option_baloot_on_loss(rule, delta):
    assert outcome([36, 116], baloots=(1, 0), baloot_on_loss=rule)["delta"] == delta


def test_s10_6_a_doubled_deal_the_losers_keep_only_their_own_baloot():
    assert outcome([101, 51], level=2, baloots=(0, 1), last_caller=1)["delta"] == [32, 2]


@pytest.mark.parametrize("multiplied, delta", [(False, [25, 0]), (True, [50, 0])])
def test_s10_7_option_kaboot_multiplied(multiplied, delta):
    got = outcome([152, 0], last=0, tricks=(8, 0), level=2, last_caller=1, kaboot_multiplied=multiplied)
    assert got["delta"] == delta and got["kaboot_team"] == 0


def test_s10_7_a_kaboot_by_the_defenders_is_a_khasara_of_44_in_sun():
    got = outcome([0, 120], sun=True, tricks=(0, 8))
    assert got["delta"] == [0, 44] and got["result"] == "khasara"


# ----- S12: end of the match -----------------------------------------------------------------------

def test_s12_1_both_teams_past_152_the_higher_wins():
    result, _ = replay(example("11"))
    assert result["winner"] == 0 and result["score"] == [155, 154]


@pytest.mark.parametrize("rule, winner", [("continue", None), ("buyer_team", 0)])
def test_s12_1_option_equal_final_scores(rule, winner):
    scenario = {**example("01"), "start_score": [145, 149]}
    scenario["options"] = {**SAUDI, "equal_final_scores": rule}
    result, _ = replay(scenario)
    assert result["deals"][0]["score"] == [155, 155] and result["winner"] == winner


def test_s12_1_option_target_rule_at_least():
    scenario = {**example("01"), "start_score": [141, 0], "options": {**SAUDI, "target_rule": "at_least"}}
    assert replay(scenario)[0]["winner"] == 0  # 151 reaches the target of 151
    scenario["options"] = SAUDI
    assert replay(scenario)[0]["winner"] is None


def test_s12_2_gahwa_ends_the_match_and_s12_3_nothing_follows():
    state = start_example("15")
    run(state, example("15")["actions"])
    assert state.is_over and state.winner == 1
    with pytest.raises(IllegalAction, match="over"):
        state.apply({"seat": 0, "type": "pass"})


# ----- S13: the clock ---------------------------------------------------------------------------------

def test_s13_a_timeout_forfeits_the_match_and_the_deal_records_zero():
    result, _ = replay(example("14"))
    assert result["winner"] == 0 and result["deals"][0]["delta"] == [0, 0]
    assert result["deals"][0]["detail"]["result"] == "timeout"


def test_s13_auto_action_passes_confirms_and_plays_the_lowest_card_without_declaring():
    state = start_example("07", timeout_result="auto_action")
    run(state, seat_calls((2, "hokum")))
    for _ in range(3):
        state.apply({"seat": state.to_act, "type": "timeout"})
    assert state.view(None)["buying"]["step"] == "confirm"
    state.apply({"seat": 2, "type": "timeout"})
    assert state.view(None)["contract"] == "hokum" and state.phase == "doubling"
    state.apply({"seat": state.to_act, "type": "timeout"})
    state.apply({"seat": state.to_act, "type": "timeout"})
    assert state.phase == "play" and state.to_act == 2
    lowest = next(a["card"] for a in state.legal_actions() if a["type"] == "play")
    assert any(a["type"] == "declare" for a in state.legal_actions())
    state.apply({"seat": 2, "type": "timeout"})
    assert state.view(None)["declarations"] == []
    assert state.view(None)["trick"] == [{"seat": 2, "card": lowest}]


def test_s13_no_clock_means_a_timeout_is_illegal():
    state = start_example("01", turn_timer_seconds=0)
    with pytest.raises(IllegalAction, match="clock"):
        state.apply({"seat": 0, "type": "timeout"})


# ----- S14: illegal actions ---------------------------------------------------------------------------

def test_s14_the_worked_illegal_play_and_call_stop_at_their_index():
    assert replay(example("12"))[0]["error"]["index"] == 33
    assert replay(example("13"))[0]["error"]["index"] == 2


@pytest.mark.parametrize("action, why", [
    ({"seat": 1, "type": "pass"}, "turn"), ({"seat": 0, "type": "play", "card": "JH"}, "expects"),
    ({"seat": 0, "type": "double"}, "expects"), ({"seat": 0, "type": "declare", "melds": [["AS"]]}, "expects"),
    ({"seat": 0, "type": "bid", "contract": "sun", "suit": "H"}, "no suit"),
    ({"seat": 0, "type": "bid", "contract": "no_trump"}, "not a call")])
def test_s14_wrong_seat_wrong_phase_and_bad_calls_are_refused(action, why):
    state = start_example("01")
    before = state.snapshot()
    with pytest.raises(IllegalAction, match=why):
        state.apply(action)
    assert state.snapshot() == before


def test_s14_a_second_declaration_and_a_declaration_after_trick_one_are_refused():
    state = start_example("07")
    actions = example("07")["actions"]
    run(state, actions[:7])
    run(state, [actions[7]])
    with pytest.raises(IllegalAction, match="already"):
        state.apply(actions[7])
    run(state, actions[8:12])
    assert state.to_act is not None
    assert all(a["type"] == "play" for a in state.legal_actions())


# ----- options of both modes, presets ---------------------------------------------------------------

@pytest.mark.parametrize("key, value", [("bonus_trick", "first"), ("tie_rule", "contract_made"),
                                        ("no_win_on_capot", True)])
def test_contract_only_options_are_malformed_in_the_saudi_mode(key, value):
    with pytest.raises(ScenarioError, match="does not exist in game_mode 'saudi_classic'"):
        BALOOT.start(seed=1, options={**SAUDI, key: value})


def test_saudi_classic_is_the_first_baloot_preset_and_every_preset_plays():
    assert next(iter(BALOOT.presets)) == "saudi_classic"
    for preset in BALOOT.presets.values():
        state = BALOOT.start(seed=2, options=preset)
        while state.to_act is not None:
            state.apply(state.legal_actions()[-1])  # the last call (never an endless pass)
        assert state.is_over
