"""The La Cuatrola player's named heuristics, each in a position where it must decide."""

from gameplay.bots.rule_bot import rule_choice, table_options

from .positions import passes, plays, position

OPTIONS = table_options("cuatrola", {})


def decide(state):
    return rule_choice(state.view(state.to_act), state.legal_actions(), OPTIONS)


def deal(first_hand):
    """Seat 0 (the mano; the dealer is seat 3, whose fifth card, 10O, makes oros trumps)."""
    rest = [c for c in ["1O", "3O", "12O", "11O", "1C", "3C", "12C", "11C", "10C", "1E", "3E", "12E",
                        "11E", "10E", "1B", "3B", "12B", "11B", "10B"] if c not in first_hand]
    return [first_hand, rest[0:5], rest[5:10], rest[10:14] + ["10O"]]


def test_announces_a_cuatrola_with_the_top_trumps_and_two_aces():
    state = position("cuatrola", deal(["1O", "3O", "1C", "1E", "10B"]))
    assert decide(state) == {"seat": 0, "type": "announce", "contract": "cuatrola"}


def test_announces_a_quintola_with_three_top_trumps_and_two_aces():
    state = position("cuatrola", deal(["1O", "3O", "12O", "1C", "1E"]))
    assert decide(state)["contract"] == "quintola"


def test_passes_a_hand_without_aces_or_top_trumps():
    state = position("cuatrola", deal(["11O", "12C", "10E", "11B", "12B"]))
    assert decide(state)["type"] == "pass"


def test_takes_a_thinner_solo_that_lands_exactly_on_the_eleven():
    hand = ["1O", "12O", "1C", "10B", "11E"]
    assert decide(position("cuatrola", deal(hand), score=[9, 0]))["contract"] == "solo"
    assert decide(position("cuatrola", deal(hand), score=[0, 0]))["type"] == "pass"


def test_sings_the_forty_in_trumps_before_a_twenty():
    hands = [["1E", "11O", "12O", "11C", "12C"], ["10E", "1O", "3O", "1C", "3C"],
             ["11E", "10C", "1B", "3B", "12B"], ["12E", "3E", "11B", "10B", "10O"]]
    state = position("cuatrola", hands, passes(4) + plays("1E", "10E", "11E", "12E"))
    assert state.to_act == 0
    assert decide(state) == {"seat": 0, "type": "sing", "suit": "O"}


def test_heads_the_trick_cheaply_when_last_to_play():
    hands = [["10C", "11O", "12O", "11E", "12E"], ["11C", "1O", "3O", "1E", "3B"],
             ["12C", "10E", "1B", "3E", "12B"], ["3C", "1C", "11B", "10B", "10O"]]
    state = position("cuatrola", hands, passes(4) + plays("10C", "11C", "12C"))
    # seat 3 must head the 12C and may with 3C or 1C: the tres wins as surely and costs less
    assert decide(state)["card"] == "3C"
