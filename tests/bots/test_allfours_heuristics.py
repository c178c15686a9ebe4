"""The All Fours player's named heuristics, each in a position where it must decide the play."""

from gameplay.bots.rule_bot import rule_choice, table_options

from .positions import plays, position

OPTIONS = table_options("allfours", {})


def decide(state):
    return rule_choice(state.view(state.to_act), state.legal_actions(), OPTIONS)


def test_catches_the_opponents_jack_with_the_lowest_higher_trump():
    # trump spades (5S turned); seat 1 ruffs a heart with the jack; seat 2 can take it with QS
    state = position("allfours", [["2H", "3C"], ["JS", "4H"], ["QS", "KS", "3H"], ["9D"]],
                     [{"type": "stand"}] + plays("2H", "JS"), stock_top=["5S"], avoid="S")
    assert decide(state)["card"] == "QS"


def test_leads_the_jack_to_save_it_when_the_ace_king_and_queen_are_out():
    # the ace was turned up; KS and QS fall in trick 1; seat 0 now leads with the jack on top
    state = position("allfours", [["KS", "JS", "4D", "5D"], ["QS", "4C"], ["2S", "4H"], ["3S", "5H"]],
                     [{"type": "stand"}] + plays("KS", "QS", "2S", "3S"), stock_top=["AS"], avoid="S")
    assert state.to_act == 0
    assert decide(state)["card"] == "JS"


def test_holds_the_jack_back_while_a_higher_trump_is_out():
    state = position("allfours", [["2H"], ["JS", "4H", "5H", "7C"], ["8D"], ["9D"]],
                     [{"type": "stand"}] + plays("2H"), stock_top=["5S"], avoid="S")
    assert decide(state)["card"] != "JS"


def test_drops_the_jack_on_the_partners_sure_trick():
    # the pone (seat 1) leads a club, the partner ruffs with the ace of trumps, seat 0 plays last
    state = position("allfours", [["JS", "4H", "5H"], ["6C"], ["AS"], ["8C"]],
                     [{"type": "stand"}] + plays("6C", "AS", "8C"), dealer=0, stock_top=["5S"], avoid="S")
    assert decide(state)["card"] == "JS"


def test_keeps_its_ten_on_a_trick_it_cannot_win():
    # seat 1 leads the ace of hearts; seat 2 holds TH and 2H and no trump: it plays the two
    state = position("allfours", [["9C"], ["AH", "4D"], ["TH", "2H", "3D"], ["KC"]],
                     [{"type": "stand"}] + plays("9C", "AH"), stock_top=["5S"], avoid="S")
    assert decide(state)["card"] == "2H"


def test_gives_its_ten_to_the_partners_trick_when_it_plays_last():
    # seat 1 wins with the ace of hearts so far; seat 3 (its partner) plays last: the ten goes on
    state = position("allfours", [["4H"], ["AH", "4D"], ["5H", "3D"], ["TH", "2H", "3C"]],
                     [{"type": "stand"}] + plays("4H", "AH", "5H"), stock_top=["5S"], avoid="S")
    assert decide(state)["card"] == "TH"


def test_does_not_trump_a_worthless_trick_it_plays_last_to():
    state = position("allfours", [["2H"], ["3H", "KC"], ["4H", "QC"], ["2S", "7C", "8C"]],
                     [{"type": "stand"}] + plays("2H", "3H", "4H"), stock_top=["5S"], avoid="S")
    assert decide(state)["card"] != "2S"


def test_trumps_a_trick_that_holds_the_ten():
    state = position("allfours", [["TH"], ["3H", "KC"], ["4H", "QC"], ["2S", "7C", "8C"]],
                     [{"type": "stand"}] + plays("TH", "3H", "4H"), stock_top=["5S"], avoid="S")
    assert decide(state)["card"] == "2S"


def test_stands_with_the_ace_and_a_guarded_jack_of_the_turned_suit():
    state = position("allfours", [["AS", "JS", "7S", "4D", "5C", "9H"]], stock_top=["5S"], avoid="S")
    assert decide(state)["type"] == "stand"


def test_begs_with_no_trump_and_no_tens():
    state = position("allfours", [["2D", "3D", "4C", "5C", "7H", "8H"]], stock_top=["5S"], avoid="S")
    assert decide(state)["type"] == "beg"


def test_begs_at_one_point_from_the_target_whatever_the_hand():
    state = position("allfours", [["AS", "JS", "7S", "KS", "5C", "9H"]], stock_top=["5S"], avoid="S", score=[13, 0])
    assert decide(state)["type"] == "beg"


def test_dealer_runs_the_pack_when_giving_one_would_give_the_beggars_the_match():
    state = position("allfours", [["2D"], ["2C"], ["3D"], ["AS", "JS", "KS", "QS"]],
                     [{"type": "beg"}], stock_top=["5S"], avoid="S", score=[13, 0])
    assert decide(state)["type"] == "run_pack"


def test_dealer_gives_one_when_the_turned_suit_suits_his_hand():
    state = position("allfours", [["2D"], ["2C"], ["3D"], ["AS", "JS", "KS", "QS"]],
                     [{"type": "beg"}], stock_top=["5S"], avoid="S")
    assert decide(state)["type"] == "give_one"
