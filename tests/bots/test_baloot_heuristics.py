"""The Baloot player's named heuristics, each in a position where it must decide."""

from gameplay.bots.rule_bot import rule_choice, table_options

from .positions import baloot_position, passes, plays

OPTIONS = table_options("baloot", {})
# Eight-card hands without melds (no three in sequence, no four of a kind) unless a test adds them.
QUIET = [["JH", "9H", "AH", "AS", "7C", "8D", "TS", "QC"],
         ["7H", "8H", "KS", "9S", "9C", "JD", "AD", "KC"],
         ["QH", "7S", "8S", "TC", "AC", "7D", "9D", "KD"],
         ["TH", "KH", "QS", "JS", "8C", "JC", "TD", "QD"]]


def decide(state):
    return rule_choice(state.view(state.to_act), state.legal_actions(), OPTIONS)


def test_bids_the_suit_where_it_holds_the_jack_and_the_nine():
    state = baloot_position(QUIET)
    assert decide(state) == {"seat": 0, "type": "bid", "contract": "hearts"}


def test_passes_a_hand_without_jacks_nines_or_aces():
    hands = [["JH", "9H", "AH", "AS", "7C", "8D", "TS", "QC"],
             ["7H", "8H", "QS", "8S", "8C", "JD", "AD", "KC"],
             ["QH", "7S", "KS", "TC", "AC", "7D", "9D", "KD"],
             ["TH", "KH", "9S", "JS", "9C", "JC", "TD", "QD"]]
    state = baloot_position(hands, [{"type": "pass"}])
    assert decide(state)["type"] == "pass"


def test_doubles_a_contract_in_the_suit_it_holds_the_jack_and_nine_of():
    hands = [["7H", "8H", "KS", "7S", "7C", "8D", "TS", "QC"],
             ["JH", "9H", "AH", "AS", "9C", "JD", "AD", "KC"],
             ["QH", "8S", "QS", "TC", "AC", "7D", "9D", "KD"],
             ["TH", "KH", "9S", "JS", "8C", "JC", "TD", "QD"]]
    state = baloot_position(hands, [{"type": "bid", "contract": "hearts"}])
    assert decide(state)["type"] == "double"


def test_the_bidder_draws_trumps_with_its_master_jack():
    state = baloot_position(QUIET, [{"type": "bid", "contract": "hearts"}] + passes(3))
    assert state.to_act == 0 and state.phase == "play"
    assert decide(state)["card"] == "JH"


def test_declares_its_run_when_no_stronger_meld_is_shown():
    hands = [["AS", "KS", "QS", "JH", "9H", "7C", "8D", "TC"],
             ["7H", "8H", "TS", "9S", "9C", "JD", "AD", "KC"],
             ["QH", "7S", "8S", "QC", "AC", "7D", "9D", "KD"],
             ["TH", "KH", "AH", "JS", "8C", "JC", "TD", "QD"]]
    state = baloot_position(hands, [{"type": "bid", "contract": "hearts"}] + passes(3))
    action = decide(state)
    assert action["type"] == "declare" and action["melds"] == [["AS", "KS", "QS"]]


def test_keeps_quiet_about_a_run_the_opponents_declaration_already_beats():
    hands = [["7H", "8H", "TS", "9S", "9C", "JD", "AD", "QC"],
             ["AS", "KS", "QS", "JS", "7C", "8D", "TC", "JH"],
             ["QH", "KH", "AH", "7S", "8S", "AC", "7D", "KC"],
             ["TH", "9H", "8C", "JC", "TD", "QD", "KD", "9D"]]
    state = baloot_position(hands, [{"type": "bid", "contract": "clubs"}] + passes(3)
                            + plays("9C")
                            + [{"type": "declare", "melds": [["AS", "KS", "QS", "JS"]]}] + plays("7C"))
    assert state.to_act == 2
    assert decide(state)["type"] == "play"


def test_throws_its_cheapest_card_on_a_trick_the_opponents_hold():
    state = baloot_position(QUIET, [{"type": "bid", "contract": "hearts"}] + passes(3) + plays("AS"))
    # seat 1 holds KS and 9S and must follow: the ace wins anyway, so it plays the nine (0 points)
    assert decide(state)["card"] == "9S"
