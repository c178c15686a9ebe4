"""The Saudi-mode Baloot player's named heuristics (gameplay/bots/baloot_saudi_bot.py), each in a
position where it must decide. Deals follow S3.3: five cards a seat, then the face-up card and
the eleven cards dealt after the buying (to p1..p4: the buyer two, the others three)."""

from gameplay.bots.rule_bot import rule_choice, table_options
from gameplay.rules import get_game

OPTIONS = table_options("baloot", {"game_mode": "saudi_classic"})
DEALER = 3  # p1 = seat 0, p2 = seat 1, p3 = seat 2, p4 = seat 3


def saudi_position(hands5, face_up, actions=(), rest=None, score=None):
    """`rest`: the eleven cards after the face-up one, else the unused cards in deck order."""
    game = get_game("baloot")
    used = {c for hand in hands5 for c in hand} | {face_up}
    rest = rest or [c for c in game.deck.codes if c not in used][:11]
    state = game.start(options=OPTIONS, dealer=DEALER, start_score=score,
                       deals=[{"hands": hands5, "stock": [face_up] + list(rest)}])
    for action in actions:
        state.apply(dict(action, seat=action.get("seat", state.to_act)))
    return state


def decide(state):
    return rule_choice(state.view(state.to_act), state.legal_actions(), OPTIONS)


PASS = {"type": "pass"}
HOKUM = {"type": "bid", "contract": "hokum"}
WEAK = [["7S", "8S", "7D", "8D", "QC"], ["7H", "8H", "9D", "KD", "8C"],
        ["QS", "KS", "TD", "JD", "7C"], ["QH", "KH", "QD", "9C", "JC"]]


def test_buys_the_hokum_in_the_face_up_suit_with_its_jack_and_nine():
    hands = [["JH", "9H", "AS", "7D", "8D"]] + WEAK[1:]
    hands[1] = ["7S", "8S", "9D", "KD", "8C"]
    assert decide(saudi_position(hands, "TH")) == {"seat": 0, "type": "bid", "contract": "hokum"}


def test_passes_a_hand_that_takes_no_tricks():
    assert decide(saudi_position(WEAK, "TH")) == {"seat": 0, "type": "pass"}


def test_buys_sun_with_aces_and_guarded_tens():
    hands = [["AS", "TS", "AD", "TD", "AC"]] + WEAK[1:]
    hands[1], hands[2] = ["9H", "8H", "9D", "KD", "8C"], ["QS", "KS", "JD", "7C", "9C"]
    hands[3] = ["QH", "KH", "QD", "JC", "JS"]
    assert decide(saudi_position(hands, "7H"))["contract"] == "sun"


def test_calls_ashkal_when_the_sun_hand_gains_nothing_from_a_low_face_up_card():
    hands = [["7S", "8S", "7D", "8D", "QC"], ["7H", "8H", "9D", "KD", "8C"],
             ["AS", "TS", "AD", "TD", "AC"], ["QH", "KH", "QD", "9C", "JC"]]
    state = saudi_position(hands, "9H", [PASS, PASS])  # p1 and p2 pass; seat 2 is p3
    assert decide(state) == {"seat": 2, "type": "bid", "contract": "ashkal"}


def test_names_its_best_suit_in_the_second_round():
    hands = [["JS", "9S", "AS", "7D", "8D"], ["7H", "8H", "9D", "KD", "8C"],
             ["QS", "KS", "TD", "JD", "7C"], ["QH", "KH", "QD", "9C", "JC"]]
    state = saudi_position(hands, "TH", [PASS] * 4)
    assert decide(state) == {"seat": 0, "type": "bid", "contract": "hokum", "suit": "S"}


def test_takes_an_opponents_hokum_with_sun_when_its_hand_makes_sun():
    hands = [["JH", "9H", "7S", "7D", "8D"], ["AS", "TS", "AD", "TD", "AC"],
             ["QS", "KS", "JD", "7C", "9C"], ["QH", "KH", "QD", "JC", "JS"]]
    state = saudi_position(hands, "7H", [HOKUM])  # seat 0 buys Hokum; seat 1 has a window turn
    assert decide(state) == {"seat": 1, "type": "bid", "contract": "sun"}


def test_leaves_the_partners_hokum_alone_with_a_middling_sun_hand():
    hands = [["JH", "9H", "7S", "7D", "8D"], ["7C", "8C", "9D", "KD", "QH"],
             ["AS", "TS", "AD", "JD", "9C"], ["KH", "QS", "QD", "JC", "JS"]]
    state = saudi_position(hands, "7H", [HOKUM, PASS])  # seat 2's window turn over its partner
    assert decide(state) == {"seat": 2, "type": "pass"}


def test_confirms_its_hokum_rather_than_switching_to_a_weaker_sun():
    hands = [["JH", "9H", "AH", "7D", "8D"]] + WEAK[1:]
    hands[1] = ["7S", "8S", "9D", "KD", "8C"]
    state = saudi_position(hands, "TH", [HOKUM, PASS, PASS, PASS])
    assert decide(state) == {"seat": 0, "type": "bid", "contract": "hokum"}


def test_claims_before_you_when_its_own_hand_makes_the_sun():
    hands = [["AS", "TS", "AD", "TD", "AC"], ["9H", "8H", "9D", "KD", "8C"],
             ["QS", "KS", "JD", "7C", "9C"], ["QH", "KH", "QD", "JC", "JS"]]
    state = saudi_position(hands, "7H", [PASS, {"type": "bid", "contract": "sun"}])
    assert decide(state) == {"seat": 0, "type": "bid", "contract": "sun"}  # seat 0 is p1


def test_lets_an_opponents_sun_stand_without_the_hand_to_claim_it():
    hands = [["7S", "8S", "7D", "8D", "QC"], ["AS", "TS", "AD", "TD", "AC"],
             ["QS", "KS", "JD", "7C", "9C"], ["QH", "KH", "QD", "JC", "JS"]]
    state = saudi_position(hands, "7H", [PASS, {"type": "bid", "contract": "sun"}])
    assert decide(state) == {"seat": 0, "type": "pass"}


def test_doubles_and_locks_a_hokum_in_the_suit_it_holds_the_jack_and_nine_of():
    # seat 0 buys Hokum in hearts with a poor hand; seat 1 holds J 9 A 8 of hearts behind it
    hands = [["KH", "QS", "7D", "8D", "QC"], ["JH", "9H", "AH", "8H", "AC"],
             ["QH", "KS", "TD", "JD", "7C"], ["7S", "8S", "9D", "KD", "8C"]]
    rest = ["AS", "TS", "AD", "TC", "KC", "9C", "JS", "9S", "QD", "JC", "TH"]
    state = saudi_position(hands, "7H", [HOKUM, PASS, PASS, PASS, HOKUM], rest=rest)
    assert decide(state) == {"seat": 1, "type": "double", "closed": True}


def test_the_buyer_passes_the_triple_without_an_overwhelming_hand():
    hands = [["KH", "QS", "7D", "8D", "QC"], ["JH", "9H", "AH", "8H", "AC"],
             ["QH", "KS", "TD", "JD", "7C"], ["7S", "8S", "9D", "KD", "8C"]]
    rest = ["AS", "TS", "AD", "TC", "KC", "9C", "JS", "9S", "QD", "JC", "TH"]
    state = saudi_position(hands, "7H", [HOKUM, PASS, PASS, PASS, HOKUM, {"type": "double"}], rest=rest)
    assert decide(state) == {"seat": 0, "type": "pass"}


def test_declares_its_project_before_its_first_card():
    hands = [["JH", "9H", "AS", "KS", "QS"], ["7H", "8H", "9D", "KD", "8C"],
             ["7S", "8S", "TD", "JD", "7C"], ["QH", "KH", "QD", "9C", "JC"]]
    state = saudi_position(hands, "TH", [HOKUM, PASS, PASS, PASS, HOKUM, PASS, PASS])
    action = decide(state)
    assert action["type"] == "declare" and ["AS", "KS", "QS"] in action["melds"]


def test_keeps_its_sira_quiet_after_an_opponent_declared_a_fifty():
    hands = [["JH", "9H", "7S", "8S", "AD"], ["AS", "KS", "QS", "JS", "8C"],
             ["KH", "QD", "TD", "JD", "7C"], ["QH", "7D", "8D", "9C", "JC"]]
    rest = ["TH", "AC", "9D", "KD", "9S", "KC", "TS", "7H", "8H", "TC", "QC"]
    state = saudi_position(hands, "AH", [HOKUM, PASS, PASS, PASS, HOKUM, PASS, PASS], rest=rest)
    state.apply({"seat": 0, "type": "play", "card": "JH"})
    state.apply({"seat": 1, "type": "declare", "melds": [["AS", "KS", "QS", "JS"]]})
    state.apply({"seat": 1, "type": "play", "card": "8C"})
    assert "declare" in {a["type"] for a in state.legal_actions()}  # seat 2's sira Q J T of diamonds
    assert decide(state)["type"] == "play"


def test_the_buyer_draws_trumps_with_its_top_trump():
    hands = [["JH", "9H", "AS", "7D", "8D"], ["7S", "8S", "9D", "KD", "8C"],
             ["QS", "KS", "TD", "JD", "7C"], ["QH", "KH", "QD", "9C", "JC"]]
    state = saudi_position(hands, "AH", [HOKUM, PASS, PASS, PASS, HOKUM, PASS, PASS])
    assert decide(state) == {"seat": 0, "type": "play", "card": "JH"}
