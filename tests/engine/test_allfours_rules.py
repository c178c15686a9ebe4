"""All Fours rules, one behaviour per test, each naming its rule in docs/rules/allfours.md.

Unless a test says otherwise the dealer is seat 3, so the pone (who stands or begs and leads) is
seat 0, and kick points go to team 1.
"""

import json
import subprocess
import sys

import pytest

from gameplay.rules import IllegalAction, ScenarioError
from gameplay.rules.allfours import COUNTERS
from gameplay.rules.replay import replay

from .allfours_helpers import GAME, act, deal, play, play_out, points, start

# Four hands with no club: a club kick then leaves no trump in play.
NO_CLUBS = ("AH KH QH JH TH 9H", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "8H 7H 8S 7S 8D 7D")


def refuse(state, action):
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert state.snapshot() == before
    return str(error.value)


# Hands for running the pack: no club, and the fillers below are free for the stock.
RUN_HANDS = ("AH KH QH JH TH 9H", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "8H 7H 6H 5H 4H 3H")
RUN_FILLER_1 = "2S 3S 4S 5S 7S 8S 2D 3D 4D 5D 6D 7D"  # the 12 cards dealt by the first run
RUN_FILLER_2 = "2H 8D 3C 4C 5C 7C 9C TC QC KC AC 6S"  # by the second run


# ----- R2, R3: cards and the match -------------------------------------------------------------

def test_the_pack_holds_eighty_counter_points():
    """R2.3: A 4, K 3, Q 2, J 1, T 10 in every suit."""
    assert sum(COUNTERS) == 80


def test_the_match_ends_the_moment_a_kick_takes_a_team_to_the_target():
    """R3.2, R6.4, R13.2: a kicked ace at 13 wins at once; no stand or beg follows."""
    state = start(deal(*NO_CLUBS, top="AC"), score=[0, 13])
    assert state.is_over and state.winner == 1 and state.to_act is None
    assert state.score == [0, 14]
    assert state.deal_records[0]["delta"] == [0, 1]


def test_scores_are_never_capped_at_the_target():
    """R3.3: 12 + 3 for a kicked jack gives 15."""
    state = start(deal(*NO_CLUBS, top="JC"), score=[0, 12])
    assert state.score == [0, 15] and state.winner == 1


def test_a_start_score_at_the_target_is_a_malformed_scenario():
    """3.2 input checks: both start_score values must be below the target."""
    with pytest.raises(ScenarioError):
        start(deal(*NO_CLUBS, top="5C"), score=[14, 0])


# ----- R4, R5: dealer and dealing ----------------------------------------------------------------

def test_the_deal_passes_to_the_right_after_a_played_out_deal():
    """R4.2: the next dealer is d+1, and the new pone d+2 stands or begs."""
    state = start(deal(*NO_CLUBS, top="5C"), deal(*NO_CLUBS, top="5C"))
    act(state, "stand")
    play_out(state)
    assert state.dealer == 0 and state.to_act == 1 and state.phase == "stand_or_beg"


def test_running_the_pack_deals_three_cards_each_from_the_top_starting_right_of_the_dealer():
    """R5.3, R9.1c: seat d+1 takes the first three stock cards, the dealer the last three."""
    state = start(deal(*RUN_HANDS, top=f"5C {RUN_FILLER_1} 8D"))
    act(state, "beg")
    act(state, "run_pack")
    view = [set(state.view(seat)["hand"]) for seat in range(4)]
    assert {"2S", "3S", "4S"} <= view[0] and {"5S", "7S", "8S"} <= view[1]
    assert {"2D", "3D", "4D"} <= view[2] and {"5D", "6D", "7D"} <= view[3]
    assert all(len(hand) == 9 for hand in view)


# ----- R6: the kick ------------------------------------------------------------------------------

@pytest.mark.parametrize("kick, scored", [("AC", 1), ("6C", 2), ("JC", 3), ("KC", 0), ("2C", 0)])
def test_the_kick_scores_ace_one_six_two_jack_three_for_the_dealers_team_at_once(kick, scored):
    """R6.2: the turned-up card scores for the dealer's team the moment it is turned."""
    state = start(deal(*NO_CLUBS, top=kick))
    assert state.score == [0, scored]
    assert state.deal_records == []  # R14.3: an unfinished deal has no record yet


def test_kick_points_stand_when_the_suit_is_refused():
    """R6.3: the dealer keeps a kicked jack even after a beg and a run of the pack."""
    state = start(deal(*RUN_HANDS, top=f"JC {RUN_FILLER_1} 8D"))
    act(state, "beg")
    act(state, "run_pack")
    assert state.score == [0, 3]
    assert state.view(0)["trump"] == "D"


def test_a_kicked_ace_of_trumps_is_out_of_play_so_the_king_is_high():
    """R6.5, R12.1: turned-up cards count for nothing but their kick points."""
    hands = ("KC 2H 3H 4H 5H 7H", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "3C AH KH QH JH TH")
    state = start(deal(*hands, top="AC"))
    act(state, "stand")
    play_out(state)
    detail = state.deal_records[0]["detail"]
    assert detail["high"] == {"card": "KC", "team": 0}
    assert detail["low"] == {"card": "3C", "team": 1}


# ----- R7, R8: stand, beg, give one ---------------------------------------------------------------

def test_only_the_pone_may_stand_or_beg():
    """R7.1, 3.2.3: seat d+1 alone decides."""
    state = start(deal(*NO_CLUBS, top="5C"))
    assert state.legal_actions() == [{"seat": 0, "type": "stand"}, {"seat": 0, "type": "beg"}]
    assert "turn" in refuse(state, {"seat": 1, "type": "stand"})
    refuse(state, {"seat": 3, "type": "give_one"})
    refuse(state, {"seat": 0, "type": "play", "card": "AH"})


def test_standing_keeps_the_turned_suit_and_the_pone_leads():
    """R7.1, R11.1."""
    state = start(deal(*NO_CLUBS, top="5C"))
    act(state, "stand")
    assert state.view(None)["trump"] == "C" and state.to_act == 0 and state.phase == "play"


def test_giving_one_scores_a_point_for_the_beggars_and_keeps_the_trump():
    """R8.1: +1 to the pone's team, the turned suit stays trump, the pone leads."""
    state = start(deal(*NO_CLUBS, top="6C"))
    act(state, "beg")
    assert state.to_act == 3 and state.phase == "dealer_choice"
    act(state, "give_one")
    assert state.score == [1, 2]
    assert state.view(0)["trump"] == "C" and state.to_act == 0


def test_giving_one_may_hand_the_beggars_the_match():
    """R8.2, R8.3, A9: allowed by default; the beggars win at once and no tricks are played."""
    state = start(deal(*NO_CLUBS, top="5C"), score=[13, 0])
    act(state, "beg")
    act(state, "give_one")
    assert state.winner == 0 and state.deal_records[0]["delta"] == [1, 0]


def test_the_pone_cannot_beg_twice():
    """R7.2, R9.2: after a run nobody begs again; play starts."""
    state = start(deal(*RUN_HANDS, top=f"5C {RUN_FILLER_1} 8D"))
    act(state, "beg")
    act(state, "run_pack")
    refuse(state, {"seat": 0, "type": "beg"})
    assert state.phase == "play"


# ----- R9: running the pack --------------------------------------------------------------------



def test_a_run_turns_up_until_a_new_suit_and_every_turn_up_scores():
    """R9.1, R9.3, R9.5: a refused-suit turn-up in a run scores too; 12 cards each after two runs."""
    filler_2 = RUN_FILLER_2.replace("6S", "8C")
    state = start(deal(*RUN_HANDS, top=f"2C {RUN_FILLER_1} JC {filler_2} 6S"))
    act(state, "beg")
    act(state, "run_pack")
    assert state.view(None)["turn_ups"] == ["2C", "JC", "6S"]
    assert state.score == [0, 3 + 2]
    assert state.view(None)["trump"] == "S"
    assert all(len(state.view(seat)["hand"]) == 12 for seat in range(4))
    assert state.to_act == 0  # R11.1: the pone leads after a run too


def test_when_the_pack_runs_out_the_same_dealer_deals_again_and_kick_points_stand():
    """R9.4, R9.6, R4.3, R14.1b: after two runs of the refused suit the deal is abandoned."""
    state = start(deal(*RUN_HANDS, top=f"2C {RUN_FILLER_1} 6C {RUN_FILLER_2} 8C"), deal(*NO_CLUBS, top="5C"))
    act(state, "beg")
    act(state, "run_pack")
    record = state.deal_records[0]
    assert record["detail"]["redeal"] is True
    assert record["detail"]["turn_ups"] == ["2C", "6C", "8C"]
    assert record["delta"] == [0, 2] and state.score == [0, 2]
    assert state.dealer == 3 and state.to_act == 0 and state.phase == "stand_or_beg"


def test_after_the_pack_runs_out_with_no_deal_left_nothing_is_pending():
    """3.2.1: the engine needs a new deal and none is given."""
    state = start(deal(*RUN_HANDS, top=f"2C {RUN_FILLER_1} 6C {RUN_FILLER_2} 8C"))
    act(state, "beg")
    act(state, "run_pack")
    assert state.to_act is None and not state.is_over
    assert "no decision" in refuse(state, {"seat": 0, "type": "stand"})


# ----- R11: trick play -------------------------------------------------------------------------

TRICK_HANDS = ("AS KS 2H 3C 4D 5D", "QS 3H 4C 5C 6D 7D", "JS TS 8C 9C 8D 9D", "2S 3S 4S 5S 6S 7S")


def trick_state(**options):
    state = start(deal(*TRICK_HANDS, top="5H"), **options)
    act(state, "stand")
    return state


def test_a_player_may_trump_a_plain_lead_even_when_able_to_follow():
    """R11.4b."""
    state = trick_state()
    play(state, "AS")
    legal = {a["card"] for a in state.legal_actions()}
    assert legal == {"QS", "3H"}


def test_a_player_holding_the_suit_led_must_follow_or_trump():
    """R11.4b, 3.2.4: a plain card of another suit is refused with a reason."""
    state = trick_state()
    play(state, "AS")
    assert "follow suit" in refuse(state, {"seat": 1, "type": "play", "card": "4C"})


def test_the_lowest_trump_beats_the_ace_of_the_suit_led():
    """R11.5: the highest trump wins; its player leads the next trick."""
    state = trick_state()
    play(state, "AS", "3H", "TS", "2S")
    assert state.to_act == 1 and state.view(None)["last_trick"]["winner"] == 1


def test_a_card_of_another_suit_never_wins_the_trick():
    """R11.5: a void player's plain discard cannot win; the highest card of the suit led does."""
    state = start(deal("AS KS 2H 3C 4D 5D", "QS 3H 4C 5C 6D 7D", "JS TS 8C 9C 8D 9D", "AC KD 4S 5S 6S 7S",
                       top="5H"))
    act(state, "stand")
    play(state, "2H")  # trump lead
    assert {a["card"] for a in state.legal_actions()} == {"3H"}  # R11.4a: must trump
    play(state, "3H", "8C", "AC")
    assert state.to_act == 1


def test_after_a_trump_lead_a_player_without_trumps_may_play_anything():
    """R11.4a."""
    state = trick_state()
    play(state, "AS", "3H", "TS", "2S")
    play(state, "4C")  # seat 1 leads a club, seat 2 follows
    play(state, "8C", "3S")
    play(state, "3C")
    assert state.to_act == 2  # 8C wins


def test_undertrumping_is_allowed_by_default():
    """R11.4c, V7 default."""
    state = start(deal("AS KS 2H 3C 4D 5D", "QH 3S 4C 5C 6D 7D", "JS TS 8C 9C 8D 9D", "2S 3H 4S 5S 6S 7S",
                       top="5H"))
    act(state, "stand")
    play(state, "AS", "QH", "TS")
    assert "3H" in {a["card"] for a in state.legal_actions()}


# ----- R12, R13: scoring -----------------------------------------------------------------------

def test_high_low_and_game_go_to_the_team_that_holds_every_trump_and_wins_every_trick():
    """R12.1, R12.2, R12.5: the jack was not dealt, so there is no Jack item (R12.4)."""
    hands = ("AC KC QC 9C 8C 7C", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "AH KH QH JH TH 9H")
    state = start(deal(*hands, top="5C"))
    act(state, "stand")
    play_out(state)
    assert points(state) == [["high", 0, 1], ["low", 0, 1], ["game", 0, 1]]
    assert state.deal_records[0]["detail"]["jack"] is None


def test_low_goes_to_the_team_it_was_dealt_to_even_when_captured():
    """R12.2, A13."""
    hands = ("AC 2H 3H 4H 5H 7H", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "3C AH KH QH JH TH")
    state = start(deal(*hands, top="5C"))
    act(state, "stand")
    play(state, "AC", "9S", "9D", "3C")  # the pone's ace of trumps captures the low trump
    play_out(state)
    assert state.deal_records[0]["detail"]["low"] == {"card": "3C", "team": 1}


def test_a_single_trump_in_play_is_both_high_and_low():
    """R12.3."""
    state = start(deal("AH KH QH JH TH 9H", "7C KS QS JS TS 9S", "AD KD QD JD TD 9D", "8H 7H 8S 7S 8D 7D",
                       top="5C"))
    act(state, "stand")
    play_out(state)
    assert points(state)[:2] == [["high", 1, 1], ["low", 1, 1]]


def test_high_at_thirteen_wins_and_low_is_not_applied():
    """R12.3, R13.2: each item is followed by the target check."""
    state = start(deal("AH KH QH JH TH 9H", "7C KS QS JS TS 9S", "AD KD QD JD TD 9D", "8H 7H 8S 7S 8D 7D",
                       top="5C"), score=[0, 13])
    act(state, "stand")
    play_out(state)
    assert state.winner == 1 and state.deal_records[0]["delta"] == [0, 1]


def test_no_trump_in_play_means_no_high_low_or_jack():
    """R12.3, R12.4."""
    state = start(deal(*NO_CLUBS, top="5C"))
    act(state, "stand")
    play_out(state)
    assert [item for item, _, _ in points(state)] in (["game"], [])


def test_the_jack_won_by_its_own_team_scores_one():
    """R12.4: W = H."""
    hands = ("AH KH QH JH TH 9H", "AS KS QS JS TS 9S", "8H 7H 6H 5H 4H 3H", "AD KD QD JC 3C 4C")
    state = start(deal(*hands, top="2C"))
    act(state, "stand")
    play(state, "AH", "9S", "3H", "JC")
    play_out(state)
    assert state.deal_records[0]["detail"]["jack"]["kind"] == "jack"
    assert ["jack", 1, 1] in points(state)


HANG_HANDS = ("QC AH KH QH JH TH", "AS KS QS JS TS 9S", "AD KD TD 9D 8D 7D", "JC 2D 3D 4D 5D 6D")


def test_hang_jack_scores_three_for_the_capturers():
    """R12.4: the opponents captured the jack of trumps."""
    state = start(deal(*HANG_HANDS, top="2C"))
    act(state, "stand")
    play(state, "QC", "9S", "7D", "JC")
    play_out(state)
    assert ["hang_jack", 0, 3] in points(state)
    assert state.deal_records[0]["detail"]["jack"] == {"card": "JC", "holder_team": 1, "won_by_team": 0,
                                                       "kind": "hang_jack"}


def test_hang_jack_is_worth_six_under_option_v5():
    """V5 hang_jack_points."""
    state = start(deal(*HANG_HANDS, top="2C"), hang_jack_points=6)
    act(state, "stand")
    play(state, "QC", "9S", "7D", "JC")
    play_out(state)
    assert ["hang_jack", 0, 6] in points(state)


def test_a_turned_up_jack_scores_no_jack_item():
    """R12.4, A5: only its kick points."""
    state = start(deal(*NO_CLUBS, top="JC"))
    act(state, "stand")
    play_out(state)
    assert state.deal_records[0]["detail"]["jack"] is None
    assert points(state)[0] == ["kick", 1, 3]


def test_game_totals_add_up_the_counters_of_every_card_in_play():
    """R12.5, A16: counters of every suit, trump or not."""
    state = start(deal(*HANG_HANDS, top="2C"))
    act(state, "stand")
    play_out(state)
    in_play = [c for hand in HANG_HANDS for c in hand.split()]
    from gameplay.rules.cards import FRENCH_52
    assert sum(state.deal_records[0]["detail"]["game_totals"]) == sum(COUNTERS[FRENCH_52.index[c]]
                                                                       for c in in_play)


ZERO_COUNTER_HANDS = ("2H 3H 4H 5H 7H 8H", "2S 3S 4S 5S 7S 8S", "2D 3D 4D 5D 7D 8D", "9H 9S 9D 6H 6S 6D")


def test_a_game_tie_scores_nothing():
    """R12.5, A15."""
    state = start(deal(*ZERO_COUNTER_HANDS, top="5C"))
    act(state, "stand")
    play_out(state)
    assert points(state) == [] and state.deal_records[0]["detail"]["game_totals"] == [0, 0]


def test_a_game_tie_goes_to_the_pones_team_under_option_v10():
    """V10 game_tie = non_dealer."""
    state = start(deal(*ZERO_COUNTER_HANDS, top="5C"), game_tie="non_dealer")
    act(state, "stand")
    play_out(state)
    assert points(state) == [["game", 0, 1]]


def test_game_is_worth_two_under_option_v4():
    """V4 game_points."""
    hands = ("AC KC QC 9C 8C 7C", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "AH KH QH JH TH 9H")
    state = start(deal(*hands, top="5C"), game_points=2)
    act(state, "stand")
    play_out(state)
    assert points(state)[-1] == ["game", 0, 2]


def test_high_is_applied_first_when_both_teams_stand_at_thirteen():
    """R13.4, the example of [D0]: team A wins High, so it wins 14 to 13."""
    hands = ("AC 2H 3H 4H 5H 7H", "AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "3C JC KH QH TH 9H")
    state = start(deal(*hands, top="5C"), score=[13, 13])
    act(state, "stand")
    play_out(state)
    assert state.winner == 0 and state.score == [14, 13]
    assert state.deal_records[0]["delta"] == [1, 0]


# ----- 3.2: illegal actions and malformed scenarios ----------------------------------------------

def test_a_card_not_in_hand_is_refused_and_changes_nothing():
    """3.2.4."""
    state = trick_state()
    assert "not in your hand" in refuse(state, {"seat": 0, "type": "play", "card": "QS"})
    refuse(state, {"seat": 0, "type": "play", "card": "XX"})
    refuse(state, {"seat": 0, "type": "play"})


def test_an_action_after_the_match_is_over_is_refused():
    """3.2.1."""
    state = start(deal(*NO_CLUBS, top="AC"), score=[0, 13])
    assert "over" in refuse(state, {"seat": 0, "type": "stand"})


@pytest.mark.parametrize("broken, reason", [
    (lambda s: s["deals"][0]["hands"][0].pop(), "holds 5 cards"),
    (lambda s: s["deals"][0]["hands"][0].__setitem__(0, "KS"), "twice"),
    (lambda s: s["deals"][0]["hands"][0].__setitem__(0, "1S"), "unknown card"),
    (lambda s: s["deals"][0]["stock"].pop(), "stock"),
    (lambda s: s["options"].__setitem__("target", 7), "unknown option"),
    (lambda s: s["options"].__setitem__("follow_rule", "lax"), "follow_rule"),
    (lambda s: s.__setitem__("game", "bridge"), "unknown game"),
    (lambda s: s.__setitem__("start_score", [0, 20]), "start_score"),
])
def test_a_malformed_scenario_is_reported_with_index_null(broken, reason):
    """3.2 input checks; docs/contracts/engine.md: exit status 2."""
    scenario = {"game": "allfours", "options": {}, "dealer": 3, "deals": [deal(*NO_CLUBS, top="5C")],
                "actions": []}
    broken(scenario)
    result, status = replay(scenario)
    assert status == 2 and result["error"]["index"] is None
    assert reason in result["error"]["reason"]


def test_the_command_line_reports_a_malformed_scenario_without_a_traceback():
    run = subprocess.run([sys.executable, "-m", "gameplay.rules", "replay", "-"], input='{"game": "allfours"',
                         capture_output=True, text=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert json.loads(run.stdout)["error"]["index"] is None


def test_a_rejected_action_stops_the_replay_and_keeps_closed_deals():
    """3.2: nothing from the rejected action on is applied; exit status 1."""
    scenario = {"game": "allfours", "dealer": 3, "deals": [deal(*NO_CLUBS, top="6C")],
                "actions": [{"seat": 0, "type": "beg"}, {"seat": 0, "type": "give_one"},
                            {"seat": 3, "type": "give_one"}]}
    result, status = replay(scenario)
    assert status == 1 and result["error"]["index"] == 1
    assert result["score"] == [0, 2] and result["to_act"] == 3


# ----- the options of section 2 ------------------------------------------------------------------

def test_all_twos_deals_two_hands_and_runs_the_pack_at_most_five_times():
    """V1: seat s is team s; a run needs 7 cards; after the first kick 39 remain."""
    fill = ["2S 3S 4S 5S 6S 7S", "8S 9S TS 2D 3D 4D", "5D 6D 7D 8D 9D TD", "2H 3H 4H 5H 6H 7H",
            "8H 9H TH JH QH KH"]
    top = "5C " + " ".join(f"{f} {c}" for f, c in zip(fill, ["7C", "8C", "9C", "TC", "3C"]))
    state = start(deal("AS KS QS JS AH AD", "KD QD JD QC KC AC", top=top, players=2), dealer=1, players=2)
    assert state.to_act == 0
    act(state, "beg")
    act(state, "run_pack")
    record = state.deal_records[0]
    assert record["detail"]["turn_ups"] == ["5C", "7C", "8C", "9C", "TC", "3C"]
    assert record["detail"]["redeal"] and state.to_act is None


def test_all_twos_scenarios_need_two_hands_and_a_stock_of_forty():
    """V1, 3.2 input checks."""
    with pytest.raises(ScenarioError):
        start(deal(*NO_CLUBS, top="5C"), players=2)


def test_target_seven_ends_the_match_at_seven():
    """V2."""
    state = start(deal(*NO_CLUBS, top="JC"), score=[0, 4], target_score=7)
    assert state.winner == 1


def test_tobago_kicks_score_a_two_and_not_a_six():
    """V3."""
    assert start(deal(*NO_CLUBS, top="2C"), kick_scoring="tobago").score == [0, 2]
    assert start(deal(*NO_CLUBS, top="6C"), kick_scoring="tobago").score == [0, 0]


def test_trump_only_lets_a_player_discard_on_a_plain_lead():
    """V6 trump_only: only R11.4a is enforced."""
    state = trick_state(follow_rule="trump_only")
    play(state, "AS")
    assert "4C" in {a["card"] for a in state.legal_actions()}


def test_free_play_lets_a_player_keep_trumps_on_a_trump_lead():
    """V6 free: any card at any time."""
    state = start(deal("AS KS 2H 3C 4D 5D", "QS 3H 4C 5C 6D 7D", "JS TS 8C 9C 8D 9D", "2S 3S 4S 5S 6S 7S",
                       top="5H"), follow_rule="free")
    act(state, "stand")
    play(state, "2H")
    assert len(state.legal_actions()) == 6


UNDERTRUMP_HANDS = ("AS KS 2H 3C 4D 5D", "QH 3S 4C 5C 6D 7D", "JS TS 8C 9C 8D 9D", "3H AH 4S 5S 6S 7S")


def test_undertrumping_is_refused_when_forbidden_but_overtrumping_and_discarding_are_not():
    """V7: a trump below the trick's highest trump after a plain lead is refused."""
    state = start(deal(*UNDERTRUMP_HANDS, top="5H"), undertrump="forbidden")
    act(state, "stand")
    play(state, "AS", "QH", "TS")
    legal = {a["card"] for a in state.legal_actions()}
    assert "3H" not in legal and {"AH", "4S"} <= legal
    assert "undertrump" in refuse(state, {"seat": 3, "type": "play", "card": "3H"})


def test_a_player_holding_only_trumps_may_undertrump_even_when_forbidden():
    """V7: the exception for a player 'down to trump'."""
    hands = ("AS KS 2H 3C 4D 5D", "QH 3S 4C 5C 6D 7D", "JS TS 8C 9C 8D 9D", "3H 4H 6H 7H 8H 9H")
    state = start(deal(*hands, top="5H"), undertrump="forbidden")
    act(state, "stand")
    play(state, "AS", "QH", "TS")
    assert "3H" in {a["card"] for a in state.legal_actions()}


def test_give_one_at_game_can_be_forbidden():
    """V8: the dealer must run the pack when giving one would take the beggars to the target."""
    state = start(deal(*NO_CLUBS, top="5C"), score=[13, 0], give_one_at_game="forbidden")
    act(state, "beg")
    assert state.legal_actions() == [{"seat": 3, "type": "run_pack"}]
    assert "run the pack" in refuse(state, {"seat": 3, "type": "give_one"})


def test_give_one_can_require_a_trump_in_the_dealers_hand():
    """V9: the dealer holds no club, so he may not give one."""
    state = start(deal(*NO_CLUBS, top="5C"), give_one_requires_trump=True)
    act(state, "beg")
    refuse(state, {"seat": 3, "type": "give_one"})
    with_club = start(deal(*NO_CLUBS[:3], "8H 7H 8S 7S 8D 7C", top="5C"), give_one_requires_trump=True)
    act(with_club, "beg")
    act(with_club, "give_one")
    assert with_club.score == [1, 0]


def test_a_timeout_under_auto_action_stands_for_the_pone():
    """docs/contracts/engine.md 'Clocks': the deterministic default move."""
    state = start(deal(*NO_CLUBS, top="5C"), timeout_result="auto_action")
    state.apply({"seat": 0, "type": "timeout"})
    assert state.phase == "play" and state.actions == [{"seat": 0, "type": "timeout"}]


def test_views_show_a_seat_its_own_hand_only():
    """Views: own hand, table, history; never another hand."""
    state = trick_state()
    view = state.view(1)
    assert sorted(view["hand"]) == sorted("QS 3H 4C 5C 6D 7D".split())
    assert view["hand_sizes"] == [6, 6, 6, 6] and view["legal"] == []
    assert state.view(None)["hand"] == []
    assert {a["card"] for a in state.view(0)["legal"]} == set(TRICK_HANDS[0].split())
