"""Baloot, contract variant (Bulgarian bridge-belot ladder) - exactly as docs/rules/baloot.md.

Rules R1-R10 and the options of section 2.1. Decisions the rules file takes where its sources
disagree (its section 4), as implemented here:
- Trump order J 9 A T K Q 8 7, plain order A T K Q J 9 8 7; sequences use A K Q J T 9 8 7 (A1).
- Deal 3 + 2 before the auction, 3 more each from the stock once a contract stands (A2).
- The 10-point bonus goes to the last trick; option bonus_trick = "first" (A3).
- Auction from d+1, ends after three passes following the last bid / double / redouble, annulled
  after four opening passes; the next dealer then deals (A4, A5, A7, A23). Either opponent of the
  bidder may double, either member of the bidding team redouble; a new bid clears them (A6).
- d+1 leads the first trick whoever bid (A8).
- A void player who cannot overtrump must undertrump (literal source; option must_undertrump);
  a trump lead must be raised even over the partner (option partner_exempts_trump_raise) (A9, A10).
- No-trump card points (and the bonus trick) are doubled; melds, belote and capot never (A11).
- Rounding thresholds 6 / 5 / 4 with the lower team rounding up on the threshold digit (A12).
- Fewer points = inside; equal points hang for the next deal's winner (A13); a doubled deal
  gives everything to the team with more points (A14); capot +90 after doubling (A15).
- One optional `declare` per seat just before its first card; runs are declared whole; the team
  with the single best meld scores all its melds, equal bests cancel (A16-A18).
- Belote is automatic and stays out of the meld comparison; it goes with the points when the
  contracting team is inside (A19).
- The match ends when a team has more than 151 and more than the other team (A20).
- A timeout forfeits the match (A21). Seeded matches are never shuffled, only cut (A22): the next
  pack is the previous deal's cards gathered in order and cut at a seeded point.

Cards are ints of the 32-card deck (suit * 8 + rank, suits S H D C, rank 0 = Seven ... 7 = Ace);
hands and piles are masks; per-contract tables give strength, points and "higher in suit" masks.
"""

from __future__ import annotations

from .base import MatchState
from .baloot_melds import (declaration_choices, deal_outcome, meld_codes, meld_points,
                           parse_declaration, scoring_melds)
from .cards import FRENCH_32
from .errors import IllegalAction
from .options import TIMEOUT_RESULT, Option, positive_int

DECK = FRENCH_32
CODES = DECK.codes
CARD_INDEX = DECK.index
SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
SUIT_MASK = DECK.suit_mask
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
QUEEN, KING = 5, 6

# R1.3: the contract ladder, lowest first; a suit contract's index names its trump suit here.
CONTRACTS = ["clubs", "diamonds", "hearts", "spades", "no_trump", "all_trump"]
CONTRACT_INDEX = {name: i for i, name in enumerate(CONTRACTS)}
NO_TRUMP, ALL_TRUMP = 4, 5
TRUMP_SUIT = [CLUBS, DIAMONDS, HEARTS, SPADES, None, None]
THRESHOLD = [6, 6, 6, 6, 5, 4]  # R9.1 rounding threshold per contract

# R1.4, R1.5, by natural rank 7 8 9 T J Q K A
TRUMP_STRENGTH = [0, 1, 6, 4, 7, 2, 3, 5]
PLAIN_STRENGTH = [0, 1, 2, 6, 3, 4, 5, 7]
TRUMP_POINTS = [0, 0, 14, 10, 20, 3, 4, 11]
PLAIN_POINTS = [0, 0, 0, 10, 2, 3, 4, 11]


def _uses_trump_order(contract: int, card: int) -> bool:
    return contract == ALL_TRUMP or SUIT_OF[card] == TRUMP_SUIT[contract]


def _contract_tables(contract: int):
    """Strength, points, 'higher cards of the same suit' masks and the 'beats' table."""
    strength, points = [], []
    for card in range(32):
        trump_order = _uses_trump_order(contract, card)
        strength.append((TRUMP_STRENGTH if trump_order else PLAIN_STRENGTH)[RANK_OF[card]])
        points.append((TRUMP_POINTS if trump_order else PLAIN_POINTS)[RANK_OF[card]])
    above = [sum(1 << other for other in range(32)
                 if SUIT_OF[other] == SUIT_OF[card] and strength[other] > strength[card])
             for card in range(32)]
    trump = TRUMP_SUIT[contract]
    trump_mask = SUIT_MASK[trump] if trump is not None else 0
    # beats[winner * 32 + card]: does card take the trick from the card now winning it (R6.4)
    beats = [(SUIT_OF[c] == SUIT_OF[w] and strength[c] > strength[w])
             or (trump is not None and SUIT_OF[c] == trump and SUIT_OF[w] != trump)
             for w in range(32) for c in range(32)]
    return strength, points, above, trump_mask, beats


TABLES = [_contract_tables(contract) for contract in range(len(CONTRACTS))]

AUCTION, PLAY = "auction", "play"

OPTIONS = [
    Option("target_score", 151, check=positive_int, expects="a positive whole number",
           help="R10.1: the match target."),
    Option("target_rule", "greater", ("greater", "at_least"),
           help="greater: a team must pass the target; at_least: reaching it is enough."),
    Option("turn_timer_seconds", 30, check=lambda v: type(v) is int and v >= 0,
           expects="a whole number of seconds (0 = no clock)", help="R10.3: the per-decision clock."),
    TIMEOUT_RESULT,
    Option("bonus_trick", "last", ("last", "first"), help="Which trick earns the 10-point bonus."),
    Option("no_trump_double", True, (True, False), help="Double card points in no-trump (R9.3)."),
    Option("must_undertrump", True, (True, False),
           help="R6.3: a void player who cannot overtrump must still play a trump."),
    Option("partner_exempts_trump_raise", False, (False, True),
           help="R6.3: a player whose partner is winning need not raise a trump lead."),
    Option("meld_comparison", "best_overall", ("best_overall", "by_category"), help="R7.6."),
    Option("tie_rule", "hanging", ("hanging", "contract_made", "contract_fails"),
           help="R9.5: what equal raw points do."),
    Option("belote_kept_by_holder", False, (False, True),
           help="An inside contracting team keeps 2 match points per belote it held."),
    Option("no_win_on_capot", False, (False, True), help="R10.2: a capot deal cannot end the match."),
    Option("annulled_deal_dealer", "next", ("next", "same"), help="R2.1: who deals after an all-pass."),
    Option("shuffle_each_deal", False, (False, True),
           help="R3.1 live play: shuffle every deal instead of gathering and cutting."),
    Option("game_mode", "contract", ("contract", "saudi_classic"),
           help="contract = this rules file; saudi_classic = classic Saudi Baloot (baloot_saudi.py)."),
]
# Options that only the contract mode varies (the Saudi mode accepts them at their defaults).
CONTRACT_ONLY = ("bonus_trick", "no_trump_double", "partner_exempts_trump_raise", "meld_comparison",
                 "tie_rule", "belote_kept_by_holder", "no_win_on_capot")

PRESETS = {
    "source": {},
    "bulgarian_written_rules": {"target_rule": "at_least", "must_undertrump": False,
                                "meld_comparison": "by_category", "no_win_on_capot": True},
    "literal_source": {"bonus_trick": "first"},
}


def _seat_actions(kind: str) -> list[dict]:
    return [{"seat": seat, "type": kind} for seat in range(4)]


PASS = _seat_actions("pass")
DOUBLE = _seat_actions("double")
REDOUBLE = _seat_actions("redouble")
BID = [[{"seat": seat, "type": "bid", "contract": name} for name in CONTRACTS] for seat in range(4)]
# PASS_AND_BIDS[seat][c]: pass plus every bid strictly above contract index c - 1
PASS_AND_BIDS = [[[PASS[seat]] + BID[seat][lowest:] for lowest in range(len(CONTRACTS) + 1)]
                 for seat in range(4)]
PLAY_ACTIONS = [[{"seat": seat, "type": "play", "card": code} for code in CODES] for seat in range(4)]
# SUIT_PLAYS[seat][suit][byte]: the play actions of the cards of one suit whose rank bits are byte,
# so a legal mask turns into its action list with four lookups instead of a loop over bits
SUIT_PLAYS = [[[[PLAY_ACTIONS[seat][suit * 8 + rank] for rank in range(8) if byte >> rank & 1]
                for byte in range(256)] for suit in range(4)] for seat in range(4)]


def _match_winner(score, options):
    """R10.1: a team above the target (or on it, with at_least) and ahead wins."""
    target = options["target_score"]
    first, second = score
    if options["target_rule"] == "at_least":
        over = first >= target or second >= target
    else:
        over = first > target or second > target
    if over and first != second:
        return 0 if first > second else 1
    return None


def _seeded_cut(seed: int, deal_number: int) -> int:
    """R3.1: where d+3 cuts (3..29 cards), drawn from (seed, deal) by a fixed integer mix
    (splitmix64), so it is the same on every machine and costs no Random object per deal."""
    mask = (1 << 64) - 1
    mixed = (seed * 0x9E3779B97F4A7C15 + (deal_number + 1) * 0xBF58476D1CE4E5B9) & mask
    mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & mask
    mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & mask
    return 3 + (mixed ^ (mixed >> 31)) % 27


class BalootState(MatchState):
    PHASE_ACTIONS = {
        AUCTION: {"pass": "_pass", "bid": "_bid", "double": "_double", "redouble": "_redouble"},
        PLAY: {"play": "_play", "declare": "_declare"},
    }
    # the contract's read-only tables (R1.4, R1.5) are shared, never copied, by clone()
    SHARED_WHEN_CLONED = MatchState.SHARED_WHEN_CLONED | {"strength", "points", "above", "beats"}

    def __init__(self, *args):
        options = args[1]
        self.raise_exempt = options["partner_exempts_trump_raise"]
        self.must_undertrump = options["must_undertrump"]
        self.pool = 0  # R9.6 hanging pool
        self.gathered = None  # R3.1: the previous deal's cards, in gathering order
        super().__init__(*args)

    # ----- R3: the pack and the deal -------------------------------------------------------

    def next_deal_cards(self):
        """Given deals, a fresh shuffle, or (R3.1, seeded play) the gathered pack cut by d+3."""
        if self.given_deals is not None or self.options["shuffle_each_deal"] or self.gathered is None:
            return super().next_deal_cards()
        pack = self.gathered
        cut = _seeded_cut(self.seed, self.deal_number)
        hands, stock = self.split_shuffled(pack[cut:] + pack[:cut])
        self.deal_number += 1
        self.dealt.append(([list(h) for h in hands], list(stock)))
        return hands, stock

    def split_shuffled(self, cards: list[int]):
        """R3.2: 3 each from d+1 round to the dealer, then 2 each; the other 12 are the stock."""
        hands = [None] * 4
        for step in range(4):
            seat = (self.dealer + 1 + step) % 4
            hands[seat] = cards[3 * step:3 * step + 3] + cards[12 + 2 * step:14 + 2 * step]
        return hands, cards[20:]

    def start_deal(self, hands, stock) -> None:
        self.hands = [DECK.mask(hand) for hand in hands]
        self.stock = stock
        self.contract, self.bidder, self.multiplier, self.passes = -1, None, 1, 0
        self.calls = []
        self.leader = (self.dealer + 1) % 4
        self.trick, self.trick_number, self.played, self.last_trick = [], 0, [], None
        self.winning_card = self.winning_seat = None
        self.trump_led = False
        self.declaring = False  # R7.2: trick 1 of a contract that has declarations
        self.won, self.card_points, self.tricks_won = [0, 0], [0, 0], [0, 0]
        self.first_trick_team = None
        self.declared = [None] * 4  # seat -> tuple of meld masks
        self.meld_options = [None] * 4  # seat -> (legal declare actions, {melds: action})
        self.belotes = []
        self.detail = {}
        self.events.append({"kind": "deal", "dealer": self.dealer, "deal_number": self.deal_number})
        self.phase, self.to_act = AUCTION, self.leader

    # ----- R4: the auction -----------------------------------------------------------------

    def _pass(self, action) -> dict:
        seat = self.to_act
        self.passes += 1
        self.calls.append((seat, "pass", None))
        self.events.append({"kind": "call", "seat": seat, "call": "pass"})
        if self.contract < 0 and self.passes == 4:
            self._annul_deal()
        elif self.contract >= 0 and self.passes == 3:
            self._complete_deal()
        else:
            self.to_act = (seat + 1) % 4
        return PASS[seat]

    def _bid(self, action) -> dict:
        seat = self.to_act
        named = action.get("contract")
        contract = CONTRACT_INDEX.get(named, -1) if type(named) is str else -1
        if contract < 0:
            raise IllegalAction(f"{action.get('contract')!r} is not a contract; bid one of "
                                + ", ".join(CONTRACTS))
        if contract <= self.contract:
            raise IllegalAction(f"a bid must be higher than {CONTRACTS[self.contract]}")
        self.contract, self.bidder, self.multiplier, self.passes = contract, seat, 1, 0
        self._call(seat, "bid", CONTRACTS[contract])
        return BID[seat][contract]

    def _double(self, action) -> dict:
        seat = self.to_act
        if self.contract < 0:
            raise IllegalAction("there is no contract to double")
        if self.bidder % 2 == seat % 2:
            raise IllegalAction("you may double only a contract bid by the other team")
        if self.multiplier != 1:
            raise IllegalAction("this contract is already doubled")
        self.multiplier, self.passes = 2, 0
        self._call(seat, "double", None)
        return DOUBLE[seat]

    def _redouble(self, action) -> dict:
        seat = self.to_act
        if self.contract < 0 or self.multiplier != 2:
            raise IllegalAction("you may redouble only a contract the other team has doubled")
        if self.bidder % 2 != seat % 2:
            raise IllegalAction("only the team that bid the contract may redouble it")
        self.multiplier, self.passes = 4, 0
        self._call(seat, "redouble", None)
        return REDOUBLE[seat]

    def _call(self, seat: int, call: str, contract) -> None:
        self.calls.append((seat, call, contract))
        self.events.append({"kind": "call", "seat": seat, "call": call, "contract": contract})
        self.to_act = (seat + 1) % 4

    def _auction_actions(self, seat: int) -> list[dict]:
        contract = self.contract
        legal = PASS_AND_BIDS[seat][contract + 1]
        if contract >= 0:
            same_team = self.bidder % 2 == seat % 2
            if self.multiplier == 1 and not same_team:
                return legal + [DOUBLE[seat]]
            if self.multiplier == 2 and same_team:
                return legal + [REDOUBLE[seat]]
        return list(legal)

    def _annul_deal(self) -> None:
        """R4.5: four opening passes: no score, the pool untouched, the next dealer deals."""
        dealer = self.dealer
        self.detail = {"result": "annulled", "dealer": dealer}
        self.events.append({"kind": "annulled", "dealer": dealer})
        hands, stock = self.dealt[-1]
        self.gathered = [card for step in range(1, 5) for card in hands[(dealer + step) % 4]] + stock
        self.close_deal()
        if self.options["annulled_deal_dealer"] == "next":
            self.dealer = (dealer + 1) % 4
        self.begin_deal()

    def _complete_deal(self) -> None:
        """R5.1, R3.3: 3 stock cards each from d+1; belote is fixed by the 8-card hands (R8)."""
        stock = self.stock
        for step in range(4):
            seat = (self.dealer + 1 + step) % 4
            for card in stock[3 * step:3 * step + 3]:
                self.hands[seat] |= 1 << card
        self.stock = []
        contract = self.contract
        self.strength, self.points, self.above, self.trump_mask, self.beats = TABLES[contract]
        self.belotes = self._find_belotes()
        self.legal_cache = -1  # legal cards of the seat to act, kept from legal_actions to apply
        self.declaring = contract != NO_TRUMP
        self.events.append({"kind": "contract", "contract": CONTRACTS[contract], "bidder": self.bidder,
                            "multiplier": self.multiplier})
        self.phase, self.to_act = PLAY, self.leader

    def _find_belotes(self) -> list[tuple[int, int]]:
        contract = self.contract
        if contract == NO_TRUMP:
            return []
        suits = range(4) if contract == ALL_TRUMP else [TRUMP_SUIT[contract]]
        pairs = [(seat, suit) for suit in suits for seat in range(4)
                 if self.hands[seat] >> (suit * 8) & 0x60 == 0x60]  # bits of Q and K
        return pairs

    # ----- R7.2: declarations in trick 1 ---------------------------------------------------

    def _declare(self, action) -> dict:
        seat = self.to_act
        if self.contract == NO_TRUMP:
            raise IllegalAction("there are no declarations in a no-trump contract")
        if self.trick_number != 0:
            raise IllegalAction("declarations are made only in the first trick")
        if self.declared[seat] is not None:
            raise IllegalAction("you have already declared")
        melds = parse_declaration(action.get("melds"), self.hands[seat])
        chosen = self._meld_choices(seat)[1][frozenset(melds)]
        self.declared[seat] = melds
        self.events.append({"kind": "declared", "seat": seat, "melds": chosen["melds"]})
        return chosen

    def _meld_choices(self, seat: int):
        """The seat's legal declare actions (shared dicts) and a lookup by set of meld masks."""
        cached = self.meld_options[seat]
        if cached is None:
            actions, by_melds = [], {}
            for melds in declaration_choices(self.hands[seat]):
                action = {"seat": seat, "type": "declare", "melds": [meld_codes(m) for m in melds]}
                actions.append(action)
                by_melds[frozenset(melds)] = action
            cached = self.meld_options[seat] = (actions, by_melds)
        return cached

    # ----- R6: playing to tricks -----------------------------------------------------------

    def legal_actions(self, seat=None) -> list[dict]:
        if seat is not None and seat != self.to_act:
            return []
        seat = self.to_act
        if self.phase == PLAY:
            mask = self.legal_cache
            if mask < 0:
                mask = self.legal_cache = self._legal_mask(seat)
            plays = SUIT_PLAYS[seat]
            legal = (plays[0][mask & 255] + plays[1][mask >> 8 & 255] + plays[2][mask >> 16 & 255]
                     + plays[3][mask >> 24])
            if self.declaring and self.declared[seat] is None:
                return self._meld_choices(seat)[0] + legal
            return legal
        return self._bidding_actions(seat)

    def _bidding_actions(self, seat) -> list[dict]:
        """The legal calls of the phases before the play (none once the deal is over)."""
        return self._auction_actions(seat) if self.phase == AUCTION else []

    def default_action(self) -> dict:
        """R10.3: pass; in play the lowest legal card in S H D C order, 7 up to A (no declaring)."""
        if self.phase == AUCTION:
            return PASS[self.to_act]
        mask = self._legal_mask(self.to_act)
        return PLAY_ACTIONS[self.to_act][(mask & -mask).bit_length() - 1]

    def _legal_mask(self, seat: int) -> int:
        """R6.3 (S7.3, S7.4 in the Saudi mode, through the two hooks below), applied literally:
        the first rule that matches gives the legal cards."""
        hand = self.hands[seat]
        if not self.trick:
            return self._lead_mask(hand)
        follow = hand & SUIT_MASK[SUIT_OF[self.trick[0]]]
        partner_winning = self.winning_seat == (seat + 2) % 4
        if self.trump_led:
            if not follow:
                return hand
            if partner_winning and self.raise_exempt:
                return follow
            return follow & self.above[self.winning_card] or follow
        if follow:
            return follow
        trumps = hand & self.trump_mask
        if not trumps or partner_winning and self._partner_frees_the_ruff():
            return hand
        if self.trump_mask >> self.winning_card & 1:
            over = trumps & self.above[self.winning_card]
            if over:
                return over
            return trumps if self.must_undertrump else hand
        return trumps

    def _lead_mask(self, hand: int) -> int:
        """The cards a leader may lead: any (the Saudi mode restricts a closed contract's lead)."""
        return hand

    def _partner_frees_the_ruff(self) -> bool:
        """Whether a partner winning a plain-led trick frees a player from ruffing: always (R6.3)."""
        return True

    def _play(self, action) -> dict:
        seat = self.to_act
        return self._lay_card(seat, self.take_card(seat, action))

    def _lay_card(self, seat: int, card: int) -> dict:
        """R6.4: the card joins the trick; a full trick is closed. Returns the logged action."""
        bit = 1 << card
        code = CODES[card]
        trick = self.trick
        if not trick:
            self.trump_led = self.contract == ALL_TRUMP or bool(self.trump_mask & bit)
            self.winning_card, self.winning_seat = card, seat
        elif self.beats[self.winning_card << 5 | card]:
            self.winning_card, self.winning_seat = card, seat
        trick.append(card)
        self.played.append((seat, card))
        self.events.append({"kind": "played", "seat": seat, "card": code})
        if len(trick) == 4:
            self._close_trick()
        else:
            self.to_act = (seat + 1) & 3
        return PLAY_ACTIONS[seat][card]

    def _why_illegal(self, seat: int, card: int) -> str:
        hand = self.hands[seat]
        if not hand >> card & 1:
            return f"{CODES[card]} is not in your hand"
        led = SUIT_OF[self.trick[0]]
        led_name = DECK.suit_name(led)
        if hand & SUIT_MASK[led] and SUIT_OF[card] != led:
            return f"you must follow suit ({led_name})"
        if self.trump_led:
            return f"you must play a higher {led_name[:-1]} than {CODES[self.winning_card]}"
        trump_name = DECK.suit_name(TRUMP_SUIT[self.contract])
        if SUIT_OF[card] == TRUMP_SUIT[self.contract]:
            return f"you must overtrump {CODES[self.winning_card]} with a higher {trump_name[:-1]}"
        return f"you cannot follow {led_name}: you must play a trump ({trump_name})"

    def _close_trick(self) -> None:
        """R6.4: the winning card takes the trick; its seat leads next (R5.2)."""
        winner = self.winning_seat
        team = winner & 1
        points = self.points
        first, second, third, fourth = trick = self.trick
        self.card_points[team] += points[first] + points[second] + points[third] + points[fourth]
        self.won[team] |= 1 << first | 1 << second | 1 << third | 1 << fourth
        self.tricks_won[team] += 1
        if self.trick_number == 0:
            self.first_trick_team = team
            self.declaring = False
        self.trick_number += 1
        self.last_trick = (self.leader, tuple(trick), winner)
        self.events.append({"kind": "trick_won", "seat": winner, "team": team})
        self.trick = []
        self.leader = self.to_act = winner
        if self.trick_number == 8:
            self._score_deal(team)

    # ----- R9, R10: scoring a played deal --------------------------------------------------

    def _score_deal(self, last_trick_team: int) -> None:
        contract, contractors, options = self.contract, self.bidder % 2, self.options
        bonus_team = last_trick_team if options["bonus_trick"] == "last" else self.first_trick_team
        with_bonus = list(self.card_points)
        with_bonus[bonus_team] += 10
        doubled = contract == NO_TRUMP and options["no_trump_double"]
        base = [2 * p for p in with_bonus] if doubled else list(with_bonus)
        raw = list(base)
        melds = self._scoring_melds()
        for seat, mask in melds:
            raw[seat % 2] += meld_points(mask)
        for seat, _ in self.belotes:
            raw[seat % 2] += 20
        capot_team = next((t for t in (0, 1) if self.tricks_won[t] == 8), None)
        if capot_team is not None:
            raw[capot_team] += 90
        contractor_belotes = sum(1 for seat, _ in self.belotes if seat % 2 == contractors)
        delta, result, awarded, self.pool = deal_outcome(
            raw, contractors, self.multiplier, THRESHOLD[contract], options, self.pool,
            contractor_belotes)
        self.detail = {
            "result": result, "dealer": self.dealer, "contract": CONTRACTS[contract],
            "bidder": self.bidder, "multiplier": self.multiplier,
            "card_points": list(self.card_points), "card_points_with_bonus": with_bonus,
            "base": base, "bonus_trick_team": bonus_team,
            "melds": [{"seat": seat, "cards": meld_codes(mask), "points": meld_points(mask)}
                      for seat, mask in melds],
            "belote": [{"seat": seat, "suit": DECK.suits[suit]} for seat, suit in self.belotes],
            "capot_team": capot_team, "raw": raw,
            "hanging_awarded": awarded, "hanging_pool": self.pool,
        }
        self._finish_deal(delta, capot_team is not None)

    def _scoring_melds(self) -> list[tuple[int, int]]:
        declared = [(seat, mask) for seat in range(4) for mask in self.declared[seat] or ()]
        if not declared:
            return []
        return scoring_melds(declared, self.options["meld_comparison"] == "by_category")

    def _finish_deal(self, delta: list[int], capot: bool) -> None:
        """R9.7 add the delta; R10.1 / R10.2 the match end; else the deal passes to d+1."""
        self.score[0] += delta[0]
        self.score[1] += delta[1]
        self.delta = delta
        self.phase, self.to_act = "scoring", None
        self.gathered = [card for _, card in self.played]
        self.close_deal()
        winner = None if capot and self.options["no_win_on_capot"] else _match_winner(
            self.score, self.options)
        if winner is not None:
            self.end_match(winner)
            return
        self.dealer = (self.dealer + 1) % 4
        self.begin_deal()

    # ----- R10.3: the clock ----------------------------------------------------------------

    def _timeout(self, action):
        if self.options["turn_timer_seconds"] == 0:
            raise IllegalAction("this match has no turn clock, so there is no timeout")
        seat = action.get("seat", self.to_act)
        forfeit = self.options["timeout_result"] == "forfeit_match"
        if forfeit and self.to_act is not None and seat == self.to_act:
            self.detail = {"result": "timeout", "seat": seat}
        super()._timeout(action)

    # ----- views, snapshots, conformance ---------------------------------------------------

    def add_view_details(self, view: dict, seat) -> None:
        view["hand"] = DECK.codes_of_mask(self.hands[seat]) if seat is not None else []
        view["hand_sizes"] = [mask.bit_count() for mask in self.hands]
        view["auction"] = [{"seat": s, "call": call, "contract": contract}
                           for s, call, contract in self.calls]
        view["contract"] = CONTRACTS[self.contract] if self.contract >= 0 else None
        view["bidder"] = self.bidder
        view["multiplier"] = self.multiplier
        view["declarations"] = [{"seat": s, "melds": [meld_codes(m) for m in melds]}
                                for s, melds in enumerate(self.declared) if melds]
        self._add_trick_view(view)
        view["hanging_pool"] = self.pool

    def _add_trick_view(self, view: dict) -> None:
        """The trick-play part of a view, the same in both modes (the Saudi mode calls it too)."""
        view["leader"] = self.leader
        view["trick_number"] = self.trick_number
        view["trick"] = [{"seat": (self.leader + i) % 4, "card": CODES[c]}
                         for i, c in enumerate(self.trick)]
        view["played"] = [{"seat": s, "card": CODES[c]} for s, c in self.played]
        view["last_trick"] = None if self.last_trick is None else {
            "leader": self.last_trick[0], "cards": [CODES[c] for c in self.last_trick[1]],
            "winner": self.last_trick[2]}
        view["tricks_won"] = list(self.tricks_won)
        view["card_points"] = list(self.card_points)
        view["stock_size"] = len(self.stock)

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "dealer": self.dealer, "to_act": self.to_act,
            "score": list(self.score), "winner": self.winner, "deal_number": self.deal_number,
            "hands": [DECK.codes_of_mask(m) for m in self.hands],
            "stock": [CODES[c] for c in self.stock],
            "contract": self.contract, "bidder": self.bidder, "multiplier": self.multiplier,
            "passes": self.passes, "calls": [list(c) for c in self.calls],
            "leader": self.leader, "trick_number": self.trick_number,
            "trick": [CODES[c] for c in self.trick],
            "winning_seat": self.winning_seat, "trump_led": self.trump_led,
            "played": [[s, CODES[c]] for s, c in self.played],
            "won": [DECK.codes_of_mask(m) for m in self.won],
            "card_points": list(self.card_points), "tricks_won": list(self.tricks_won),
            "declared": [None if d is None else [meld_codes(m) for m in d] for d in self.declared],
            "belotes": [list(b) for b in self.belotes], "pool": self.pool,
            "gathered": None if self.gathered is None else [CODES[c] for c in self.gathered],
            "delta": list(self.delta), "records": [dict(r) for r in self.deal_records],
        }

    def revealed_cards(self) -> int:
        """Declared meld cards are shown to the table (R7.2) while still in their holder's hand."""
        shown = 0
        for melds in self.declared:
            for mask in melds or ():
                shown |= mask
        return shown & (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3])

    def card_places(self) -> dict[str, int]:
        places = {f"hand{seat}": mask for seat, mask in enumerate(self.hands)}
        places["stock"] = DECK.mask(self.stock)
        places["trick"] = DECK.mask(self.trick)
        places["won0"], places["won1"] = self.won
        return places

