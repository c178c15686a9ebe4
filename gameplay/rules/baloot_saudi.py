"""Baloot, classic Saudi mode (`"game_mode": "saudi_classic"`) - exactly as docs/rules/baloot_saudi.md.

Rules S1-S14 and the options of its section 2.1. The trick-taking core (card tables, taking a
legal card, laying it, closing a trick, the clock) is the contract mode's `BalootState`; this
module adds what differs: the face-up card and the two buying rounds with their window, confirm
and "before you" claim steps (S4), the completion of the deal (S5), the doubling ladder and its
lock (S6, S7.3), the Saudi play obligations (S7.4), projects and baloot (S8, S9), the scoring
(S10, S11, in `baloot_saudi_scoring`) and the end of the match (S12).

Decisions where the rules file leaves a choice to the engine:
- A `bid` hokum at the confirm step may repeat the standing trump as `"suit"`; any other suit,
  or a suit on sun / ashkal / a doubling call, is illegal (section 3.1).
- `"closed"` must be a JSON boolean when present; `"closed": false` is accepted on gahwa (S6.4).
- The declared kinds are public at once, the cards of the scoring team's projects from the end
  of trick 1 (S8.3); the other team's cards are never shown.
- The baloot is announced (a public event) when its holder plays the second of K and Q of
  trumps (S9.1); it is counted at the end of the deal unless a scoring hundred blocks it (S9.2).
"""

from __future__ import annotations

from .base import MatchState
from .baloot import (CODES, DECK, NO_TRUMP, PLAY, PLAY_ACTIONS, RANK_OF, SUIT_MASK, SUIT_OF,
                     TABLES, BalootState)
from .baloot_melds import FourRanks, declaration_choices, meld_codes, parse_declaration
from .baloot_saudi_scoring import (FOUR_RANKS, GAHWA, blocks_baloot, deal_outcome, project_kind,
                                   project_raw, scoring_team)
from .errors import IllegalAction
from .options import Option

BUYING, DOUBLING = "buying", "doubling"
OPEN, WINDOW, CONFIRM, CLAIM = "open", "window", "confirm", "claim"
SUITS = "SHDC"
ACE, KING, QUEEN = 7, 6, 5
SAUDI_FOURS = FourRanks(FOUR_RANKS, "Aces, Kings, Queens, Jacks or Tens")
LADDER = ("double", "triple", "four", "gahwa")  # S6.2: the call of each doubling step
LEVEL_NAMES = {1: 1, 2: 2, 3: 3, 4: 4, GAHWA: "gahwa"}

SAUDI_OPTIONS = [
    Option("sun_priority", "round1", ("round1", "both_rounds", "none"),
           help="S4.7: when earlier opponents may claim a Sun call (\"before you\")."),
    Option("round2_hokum_window", "all_others", ("all_others", "later_only"),
           help="S4.5: who may answer a round-2 Hokum with Sun."),
    Option("hokum_confirm", True, (True, False),
           help="S4.6: the Hokum bidder confirms or switches to Sun after the window."),
    Option("ace_sun_switch", "first_seat_only", ("first_seat_only", "never", "always"),
           help="S4.6: switching a Hokum to Sun when the face-up card is an Ace."),
    Option("ashkal_round2", True, (True, False), help="S4.2: Ashkal in the second buying round."),
    Option("sun_double_rule", "behind_100", ("behind_100", "always", "never"),
           help="S6.3: when a Sun contract may be doubled."),
    Option("closed_double", True, (True, False), help="S6.4: a Hokum double may lock the trumps."),
    Option("trump_raise_over_partner", False, (False, True),
           help="S7.4: a trump lead must be raised even when the partner is winning."),
    Option("partner_winning_ruff", "free", ("free", "free_if_certain", "must_ruff"),
           help="S7.4: trumping when the partner is winning the trick."),
    Option("four_hundred_raw", 200, (200, 400), help="S8.1: raw value of four Aces in Sun."),
    Option("baloot_blocked_by_hundred", True, (True, False),
           help="S9.2: a scoring hundred with the trump King and Queen voids the baloot."),
    Option("equal_points_rule", "kammelna", ("kammelna", "split", "buyer_loses"),
           help="S10.4: equal game points in an undoubled deal."),
    Option("loser_projects", "to_winner", ("to_winner", "void"),
           help="S10.5: the failed team's projects go to the taker or vanish."),
    Option("baloot_on_loss", "to_winner", ("to_winner", "kept", "void"),
           help="S10.6 d: the failed team's baloot."),
    Option("kaboot_multiplied", False, (False, True), help="S10.7: the level multiplies a kaboot."),
    Option("equal_final_scores", "continue", ("continue", "buyer_team"),
           help="S12.1: both teams past the target with equal scores."),
]
SAUDI_PRESETS = {
    "saudi_classic": {"game_mode": "saudi_classic"},
    "saudi_arena_sheet": {"game_mode": "saudi_classic", "equal_points_rule": "split",
                          "loser_projects": "void", "baloot_on_loss": "kept"},
    "saudi_majlis": {"game_mode": "saudi_classic", "partner_winning_ruff": "free_if_certain",
                     "must_undertrump": False, "sun_priority": "none", "equal_points_rule": "split",
                     "loser_projects": "void", "baloot_on_loss": "void"},
    "saudi_jawaker": {"game_mode": "saudi_classic", "round2_hokum_window": "later_only",
                      "ashkal_round2": False, "ace_sun_switch": "never"},
}


def _seat_actions(**fields) -> list[dict]:
    return [{"seat": seat, **fields} for seat in range(4)]


PASS = _seat_actions(type="pass")
HOKUM = _seat_actions(type="bid", contract="hokum")
HOKUM_IN = [[{"seat": seat, "type": "bid", "contract": "hokum", "suit": suit} for suit in SUITS]
            for seat in range(4)]
SUN = _seat_actions(type="bid", contract="sun")
ASHKAL = _seat_actions(type="bid", contract="ashkal")
LADDER_CALLS = {call: (_seat_actions(type=call), _seat_actions(type=call, closed=True))
                for call in LADDER}


def _hokum_contract(suit: int) -> int:
    """The contract-table index whose trump is `suit` (the tables list clubs first)."""
    return 3 - suit


class SaudiState(BalootState):
    PHASE_ACTIONS = {
        BUYING: {"pass": "_buying_pass", "bid": "_bid"},
        DOUBLING: {"pass": "_doubling_pass", "double": "_ladder_call", "triple": "_ladder_call",
                   "four": "_ladder_call", "gahwa": "_ladder_call"},
        PLAY: {"play": "_play", "declare": "_declare"},
    }

    def __init__(self, *args):
        options = args[1]
        self.ruff_rule = options["partner_winning_ruff"]
        super().__init__(*args)
        self.raise_exempt = not options["trump_raise_over_partner"]  # S7.4 trump-led rule 1

    # ----- S3: the deal and the face-up card ---------------------------------------------

    def next_deal_cards(self):
        """S3.1: every deal is shuffled (the contract mode's gathered pack does not apply)."""
        return MatchState.next_deal_cards(self)

    def start_deal(self, hands, stock) -> None:
        self.hands = [DECK.mask(hand) for hand in hands]
        self.face_up, self.stock = stock[0], list(stock[1:])
        self.order = [(self.dealer + step) % 4 for step in range(1, 5)]  # p1..p4
        self.contract, self.bidder, self.buyer, self.caller = -1, None, None, None
        self.ashkal, self.bid_round, self.step, self.queue = False, 1, OPEN, list(self.order)
        self.hokum_suit, self.calls = None, []
        self.level, self.closed, self.last_caller, self.doubler = 1, False, None, None
        self.leader = self.order[0]
        self.trick, self.trick_number, self.played, self.last_trick = [], 0, [], None
        self.winning_card = self.winning_seat = None
        self.trump_led = self.declaring = False
        self.won, self.card_points, self.tricks_won = [0, 0], [0, 0], [0, 0]
        self.declared, self.meld_options = [None] * 4, [None] * 4
        self.project_team, self.baloot_holder, self.baloot_shown = None, None, False
        self.detail = {}
        self.events.append({"kind": "deal", "dealer": self.dealer, "deal_number": self.deal_number,
                            "face_up": CODES[self.face_up]})
        self.phase, self.to_act = BUYING, self.queue[0]

    def priority(self, seat: int) -> int:
        """0 for p1 (the dealer's right) ... 3 for the dealer."""
        return (seat - self.dealer - 1) & 3

    # ----- S4: buying ----------------------------------------------------------------------

    def _buying_pass(self, action) -> dict:
        seat = self.to_act
        if self.step == CONFIRM:
            raise IllegalAction("you bought the Hokum: confirm it (hokum) or switch to sun")
        self._call(seat, "pass")
        self.queue.pop(0)
        if self.queue:
            self.to_act = self.queue[0]
        elif self.step == OPEN:
            self._end_round()
        elif self.step == WINDOW:
            self._window_closed()
        else:  # every claimer waived: the Sun call stands (S4.7)
            self._fix_contract(NO_TRUMP, self.buyer)
        return PASS[seat]

    def _end_round(self) -> None:
        if self.bid_round == 2:
            self._annul_deal()
            return
        self.bid_round, self.queue = 2, list(self.order)
        self.to_act = self.queue[0]

    def _window_closed(self) -> None:
        """S4.5: nobody took Sun over the Hokum; its bidder confirms (or it is fixed at once)."""
        if self.options["hokum_confirm"]:
            self.step, self.queue = CONFIRM, [self.bidder]
            self.to_act = self.bidder
        else:
            self._fix_contract(_hokum_contract(self.hokum_suit), self.bidder)

    def _bid(self, action) -> dict:
        seat = self.to_act
        contract = action.get("contract")
        if type(contract) is not str or contract not in ("hokum", "sun", "ashkal"):
            raise IllegalAction(f"{contract!r} is not a call: bid hokum, sun or ashkal, or pass")
        self._check_no_extras(action, ("closed",))
        if contract == "hokum":
            return self._hokum(seat, action)
        if "suit" in action:
            raise IllegalAction(f"a {contract} call names no suit")
        if contract == "ashkal":
            return self._ashkal(seat)
        return self._sun(seat)

    def _hokum(self, seat: int, action) -> dict:
        suit = self._hokum_suit(action)
        if self.step == CONFIRM:
            self._call(seat, "hokum", SUITS[self.hokum_suit])
            self._fix_contract(_hokum_contract(self.hokum_suit), seat)
            return HOKUM[seat]
        self.bidder, self.hokum_suit = seat, suit
        self._call(seat, "hokum", SUITS[suit])
        later = self.queue[1:]
        self.step = WINDOW
        if self.bid_round == 2 and self.options["round2_hokum_window"] == "later_only":
            self.queue = later
        else:
            self.queue = [(seat + step) & 3 for step in (1, 2, 3)]
        if self.queue:
            self.to_act = self.queue[0]
        else:
            self._window_closed()
        return HOKUM[seat] if self.bid_round == 1 else HOKUM_IN[seat][suit]

    def _hokum_suit(self, action) -> int:
        """The trump a hokum call may have: S4.3 the face-up suit, S4.4 another, S4.6 the standing."""
        face_suit = SUIT_OF[self.face_up]
        given = action.get("suit")
        if "suit" in action and (type(given) is not str or given not in SUITS or len(given) != 1):
            raise IllegalAction(f"{given!r} is not a suit: name S, H, D or C")
        if self.step == CONFIRM:
            if "suit" in action and SUITS.index(given) != self.hokum_suit:
                raise IllegalAction(f"you confirm the Hokum in {SUITS[self.hokum_suit]}")
            return self.hokum_suit
        if self.step != OPEN:
            raise IllegalAction("a Hokum cannot be overcalled by another Hokum: pass, sun or ashkal")
        if self.bid_round == 1:
            if "suit" in action and SUITS.index(given) != face_suit:
                raise IllegalAction(f"in the first round the Hokum is in the face-up suit "
                                    f"({SUITS[face_suit]})")
            return face_suit
        if "suit" not in action:
            raise IllegalAction("in the second round a Hokum names its suit")
        if SUITS.index(given) == face_suit:
            raise IllegalAction("in the second round the face-up card's suit cannot be trumps")
        return SUITS.index(given)

    def _sun(self, seat: int) -> dict:
        if self.step == CLAIM:  # S4.7: "before you" - the claimer buys a plain Sun at once
            self._call(seat, "sun")
            self.ashkal, self.caller = False, seat
            self._fix_contract(NO_TRUMP, seat)
            return SUN[seat]
        if self.step == CONFIRM and not self._may_switch(seat):
            raise IllegalAction("with an Ace face up only the first seat may switch a Hokum to Sun"
                                if self.options["ace_sun_switch"] == "first_seat_only"
                                else "with an Ace face up a Hokum cannot switch to Sun")
        self._call(seat, "sun")
        self._sun_call(seat, seat, False)
        return SUN[seat]

    def _ashkal(self, seat: int) -> dict:
        if self.step in (CONFIRM, CLAIM):
            raise IllegalAction("ashkal is not possible at this step: bid sun"
                                + (" or hokum" if self.step == CONFIRM else " or pass"))
        reason = self._ashkal_refusal(seat)
        if reason:
            raise IllegalAction(reason)
        self._call(seat, "ashkal")
        self._sun_call(seat, (seat + 2) & 3, True)
        return ASHKAL[seat]

    def _ashkal_refusal(self, seat: int) -> str:
        """S4.2: only p3 or p4, never on a face-up Ace, in round 2 only with ashkal_round2."""
        if self.priority(seat) < 2:
            return "only the dealer and the player at the dealer's left may call ashkal"
        if RANK_OF[self.face_up] == ACE:
            return "ashkal is not possible when the face-up card is an Ace"
        if self.bid_round == 2 and not self.options["ashkal_round2"]:
            return "ashkal is not possible in the second round at this table"
        return ""

    def _may_switch(self, seat: int) -> bool:
        """S4.6: switching to Sun on a face-up Ace, by option ace_sun_switch."""
        if RANK_OF[self.face_up] != ACE:
            return True
        rule = self.options["ace_sun_switch"]
        return rule == "always" or (rule == "first_seat_only" and self.priority(seat) == 0)

    def _sun_call(self, caller: int, buyer: int, ashkal: bool) -> None:
        """S4.7: a provisional Sun; the caller's earlier opponents may claim it, in priority order."""
        self.caller, self.buyer, self.ashkal = caller, buyer, ashkal
        rule = self.options["sun_priority"]
        asked = rule == "both_rounds" or (rule == "round1" and self.bid_round == 1)
        rank = self.priority(caller)
        claimers = [s for s in self.order if asked and self.priority(s) < rank and (s ^ caller) & 1]
        if not claimers:
            self._fix_contract(NO_TRUMP, buyer)
            return
        self.step, self.queue = CLAIM, claimers
        self.to_act = claimers[0]

    def _call(self, seat: int, call: str, suit=None) -> None:
        self.calls.append((seat, call, suit))
        event = {"kind": "call", "seat": seat, "call": call, "round": self.bid_round, "step": self.step}
        if suit is not None:
            event["suit"] = suit
        self.events.append(event)

    @staticmethod
    def _check_no_extras(action, fields) -> None:
        for field in fields:
            if field in action:
                raise IllegalAction(f"this call takes no {field!r}")

    def _buying_actions(self, seat: int) -> list[dict]:
        """Section 3.2, in its order."""
        step = self.step
        if step == CLAIM:
            return [PASS[seat], SUN[seat]]
        if step == CONFIRM:
            return [HOKUM[seat], SUN[seat]] if self._may_switch(seat) else [HOKUM[seat]]
        ashkal = [] if self._ashkal_refusal(seat) else [ASHKAL[seat]]
        if step == WINDOW:
            return [PASS[seat], SUN[seat]] + ashkal
        if self.bid_round == 1:
            return [PASS[seat], HOKUM[seat], SUN[seat]] + ashkal
        face_suit = SUIT_OF[self.face_up]
        hokums = [HOKUM_IN[seat][suit] for suit in range(4) if suit != face_suit]
        return [PASS[seat]] + hokums + [SUN[seat]] + ashkal

    def _annul_deal(self) -> None:
        """S4.9: eight passes: nothing scores, the next dealer deals (S2.1)."""
        dealer = self.dealer
        self.detail = {"result": "annulled", "dealer": dealer}
        self.events.append({"kind": "annulled", "dealer": dealer})
        self.close_deal()
        if self.options["annulled_deal_dealer"] == "next":
            self.dealer = (dealer + 1) % 4
        self.begin_deal()

    # ----- S5: completing the deal ---------------------------------------------------------

    def _fix_contract(self, contract: int, buyer: int) -> None:
        """S4.8, S5.1: the buyer takes the face-up card and 2 more, the others 3, from p1 on."""
        self.contract, self.buyer, self.bidder = contract, buyer, buyer
        if contract != NO_TRUMP:
            self.caller, self.ashkal = buyer, False
        self.hands[buyer] |= 1 << self.face_up
        position = 0
        for seat in self.order:
            count = 2 if seat == buyer else 3
            for card in self.stock[position:position + count]:
                self.hands[seat] |= 1 << card
            position += count
        self.stock = []
        self.strength, self.points, self.above, self.trump_mask, self.beats = TABLES[contract]
        self.baloot_holder = self._find_baloot_holder()
        self.events.append({"kind": "contract", **self._contract_view()})
        self._open_doubling()

    def _find_baloot_holder(self):
        """S9.1: the seat holding K and Q of trumps in its 8 cards (Hokum only)."""
        if self.contract == NO_TRUMP:
            return None
        shift = (3 - self.contract) * 8
        return next((s for s in range(4) if self.hands[s] >> shift & 0x60 == 0x60), None)

    # ----- S6: doubling --------------------------------------------------------------------

    def _open_doubling(self) -> None:
        """S6.2 step 1 and S6.3: the buyer's opponents in priority order, if doubling is allowed."""
        if self.contract == NO_TRUMP and not self._sun_double_allowed():
            self._start_play()
            return
        self.phase, self.step = DOUBLING, "double"
        self.queue = [s for s in self.order if (s ^ self.buyer) & 1]
        self.to_act = self.queue[0]

    def _sun_double_allowed(self) -> bool:
        rule = self.options["sun_double_rule"]
        if rule != "behind_100":
            return rule == "always"
        buyers = self.buyer & 1
        return self.score[buyers] >= 100 and self.score[1 - buyers] < 100

    def _doubling_pass(self, action) -> dict:
        seat = self.to_act
        self._call(seat, "pass")
        if self.step == "double":
            self.queue.pop(0)
            if self.queue:
                self.to_act = self.queue[0]
                return PASS[seat]
        self._start_play()
        return PASS[seat]

    def _ladder_call(self, action) -> dict:
        seat, call = self.to_act, action["type"]
        if call != self.step:
            raise IllegalAction(f"the doubling is at {self.step}: call {self.step} or pass")
        closed = self._closed_flag(action, call)
        self.level = GAHWA if call == "gahwa" else LADDER.index(call) + 2
        self.closed, self.last_caller = closed, seat
        if call == "double":
            self.doubler = seat
        self._call(seat, call)
        self.events[-1]["closed"] = closed
        if call == "gahwa" or self.contract == NO_TRUMP:
            self._start_play()
        else:
            self.step = LADDER[LADDER.index(call) + 1]
            self.to_act = self.buyer if call != "triple" else self.doubler
        return LADDER_CALLS[call][1 if closed else 0][seat]

    def _closed_flag(self, action, call: str) -> bool:
        """S6.4: "closed" is a boolean, Hokum only, with option closed_double, never on gahwa."""
        if "suit" in action:
            raise IllegalAction(f"{call} names no suit")
        closed = action.get("closed", False)
        if type(closed) is not bool:
            raise IllegalAction(f"'closed' must be true or false; got {closed!r}")
        if closed and (call == "gahwa" or self.contract == NO_TRUMP or not self.options["closed_double"]):
            raise IllegalAction("gahwa always opens the game" if call == "gahwa"
                                else "a Sun double cannot lock the trumps" if self.contract == NO_TRUMP
                                else "this table plays without the closed double")
        return closed

    def _doubling_actions(self, seat: int) -> list[dict]:
        open_call, closed_call = LADDER_CALLS[self.step]
        if self.step == "gahwa" or self.contract == NO_TRUMP or not self.options["closed_double"]:
            return [PASS[seat], open_call[seat]]
        return [PASS[seat], open_call[seat], closed_call[seat]]

    # ----- S7: play ------------------------------------------------------------------------

    def _start_play(self) -> None:
        self.legal_cache = -1
        self.declaring = True  # S8.2: both contracts, both teams
        self.phase, self.to_act = PLAY, self.leader

    def _bidding_actions(self, seat) -> list[dict]:
        if self.phase == BUYING:
            return self._buying_actions(seat)
        if self.phase == DOUBLING:
            return self._doubling_actions(seat)
        return []

    def default_action(self) -> dict:
        """S13: pass (hokum at the confirm step); in play the lowest legal card, no declaring."""
        if self.phase != PLAY:
            return self.legal_actions()[0]
        mask = self._legal_mask(self.to_act)
        return PLAY_ACTIONS[self.to_act][(mask & -mask).bit_length() - 1]

    def _lead_mask(self, hand: int) -> int:
        """S7.3: a closed contract's leader leads no trump while holding another suit."""
        return hand & ~self.trump_mask or hand if self.closed else hand

    def _partner_frees_the_ruff(self) -> bool:
        return self._ruff_is_free(len(self.trick), self.trick[0])

    def _ruff_is_free(self, played: int, led: int) -> bool:
        """S7.4 plain-led rule 3, for a player whose partner is winning the trick."""
        rule = self.ruff_rule
        if rule == "free":
            return True
        return rule == "free_if_certain" and (played == 3 or played == 2 and RANK_OF[led] == ACE)

    def _why_illegal(self, seat: int, card: int) -> str:
        if not self.trick and self.hands[seat] >> card & 1:
            return "the game is closed: you may not lead a trump while you hold another suit"
        if (self.hands[seat] >> card & 1 and not self.trump_led
                and self.hands[seat] & SUIT_MASK[SUIT_OF[self.trick[0]]] == 0
                and not self.trump_mask >> card & 1):
            return "you cannot follow suit and your partner is not sure to win: you must trump"
        return super()._why_illegal(seat, card)

    def _play(self, action) -> dict:
        seat = self.to_act
        card = self.take_card(seat, action)
        if seat == self.baloot_holder and not self.baloot_shown and self._completes_baloot(seat, card):
            self.baloot_shown = True
            self.events.append({"kind": "baloot", "seat": seat})
        return self._lay_card(seat, card)

    def _completes_baloot(self, seat: int, card: int) -> bool:
        king_queen = 0x60 << (SUIT_OF[card] * 8)
        return (self.trump_mask >> card & 1 and RANK_OF[card] in (KING, QUEEN)
                and not self.hands[seat] & king_queen)

    # ----- S8: projects --------------------------------------------------------------------

    def _declare(self, action) -> dict:
        seat = self.to_act
        if self.trick_number != 0:
            raise IllegalAction("projects are declared only in the first trick")
        if self.declared[seat] is not None:
            raise IllegalAction("you have already declared")
        melds = parse_declaration(action.get("melds"), self.hands[seat], SAUDI_FOURS)
        chosen = self._meld_choices(seat)[1][frozenset(melds)]
        self.declared[seat] = melds
        sun = self.contract == NO_TRUMP
        self.events.append({"kind": "declared", "seat": seat,
                            "projects": [project_kind(m, sun) for m in melds]})
        return chosen

    def _meld_choices(self, seat: int):
        cached = self.meld_options[seat]
        if cached is None:
            actions, by_melds = [], {}
            for melds in declaration_choices(self.hands[seat], SAUDI_FOURS):
                action = {"seat": seat, "type": "declare", "melds": [meld_codes(m) for m in melds]}
                actions.append(action)
                by_melds[frozenset(melds)] = action
            cached = self.meld_options[seat] = (actions, by_melds)
        return cached

    def _close_trick(self) -> None:
        first = self.trick_number == 0
        if first:
            self._compare_projects()  # S8.3: before trick 2 (and before any scoring)
        super()._close_trick()

    def _compare_projects(self) -> None:
        declared = self._declared_list()
        self.project_team = scoring_team(declared, self.contract == NO_TRUMP, self.priority)
        if self.project_team is not None:
            self.events.append({"kind": "projects", "team": self.project_team,
                                "projects": self._scoring_projects()})

    def _declared_list(self) -> list[tuple[int, int]]:
        return [(seat, mask) for seat in self.order for mask in self.declared[seat] or ()]

    def _scoring_projects(self) -> list[dict]:
        sun, raw400 = self.contract == NO_TRUMP, self.options["four_hundred_raw"]
        return [{"seat": seat, "cards": meld_codes(mask), "kind": project_kind(mask, sun),
                 "points": project_raw(mask, sun, raw400)}
                for seat, mask in self._declared_list() if seat & 1 == self.project_team]

    # ----- S9, S10: scoring ----------------------------------------------------------------

    def _counted_baloots(self) -> list[int]:
        holder = self.baloot_holder
        baloots = [0, 0]
        if holder is None:
            return baloots
        if self.options["baloot_blocked_by_hundred"] and holder & 1 == self.project_team:
            trump = 3 - self.contract
            if any(blocks_baloot(mask, trump) for mask in self.declared[holder] or ()):
                return baloots
        baloots[holder & 1] = 1
        return baloots

    def _score_deal(self, last_trick_team: int) -> None:
        projects = self._scoring_projects() if self.project_team is not None else []
        project_raw_points = [0, 0]
        for project in projects:
            project_raw_points[project["seat"] & 1] += project["points"]
        baloots = self._counted_baloots()
        sun, buyers = self.contract == NO_TRUMP, self.buyer & 1
        outcome = deal_outcome({
            "sun": sun, "level": self.level, "buyers": buyers,
            "last_caller_team": None if self.last_caller is None else self.last_caller & 1,
            "card_points": self.card_points, "last_trick_team": last_trick_team,
            "tricks_won": self.tricks_won, "project_raw": project_raw_points, "baloots": baloots,
        }, self.options)
        self.detail = {
            "result": outcome["result"], "dealer": self.dealer, **self._contract_view(),
            "round": self.bid_round, "face_up": CODES[self.face_up],
            "level": LEVEL_NAMES[self.level], "closed": self.closed, "last_caller": self.last_caller,
            "card_points": list(self.card_points), "last_trick_team": last_trick_team,
            "kaboot_team": outcome["kaboot_team"], "projects": projects,
            "baloot": [{"seat": self.baloot_holder}] if any(baloots) else [],
            "raw": outcome["raw"], "card_gp": outcome.get("card_gp"),
            "project_gp": outcome["project_gp"], "gp": outcome.get("gp"),
            "khasara_team": outcome["khasara_team"], "gahwa": outcome["gahwa"],
        }
        self._finish_saudi_deal(outcome["delta"], outcome, buyers)

    def _contract_view(self) -> dict:
        sun = self.contract == NO_TRUMP
        return {"contract": "sun" if sun else "hokum",
                "trump": None if sun else SUITS[3 - self.contract],
                "buyer": self.buyer, "caller": self.caller, "ashkal": self.ashkal}

    def _finish_saudi_deal(self, delta: list[int], outcome: dict, buyers: int) -> None:
        """S10.8 the delta; S12 the end of the match; else the deal passes to d+1."""
        self.score[0] += delta[0]
        self.score[1] += delta[1]
        self.delta = delta
        self.phase, self.to_act = "scoring", None
        self.close_deal()
        if outcome["gahwa"]:  # S12.2: the taker wins whatever the scores
            winner = 0 if delta[0] else 1
        else:
            winner = self._match_winner(buyers)
        if winner is not None:
            self.end_match(winner)
            return
        self.dealer = (self.dealer + 1) % 4
        self.begin_deal()

    def _match_winner(self, buyers: int):
        """S12.1: a team past the target, and ahead; equal scores past it by equal_final_scores."""
        target, (first, second) = self.options["target_score"], self.score
        if self.options["target_rule"] == "at_least":
            over = first >= target or second >= target
        else:
            over = first > target or second > target
        if not over:
            return None
        if first != second:
            return 0 if first > second else 1
        return buyers if self.options["equal_final_scores"] == "buyer_team" else None

    # ----- S3.3 views ----------------------------------------------------------------------

    def add_view_details(self, view: dict, seat) -> None:
        view["mode"] = "saudi_classic"
        view["hand"] = DECK.codes_of_mask(self.hands[seat]) if seat is not None else []
        view["hand_sizes"] = [mask.bit_count() for mask in self.hands]
        view["face_up"] = CODES[self.face_up]  # public from the deal on (S3.4)
        view["buying"] = {"round": self.bid_round, "step": self.step if self.phase == BUYING else None,
                          "hokum_bidder": self.bidder if self.contract < 0 else None,
                          "hokum_suit": None if self.hokum_suit is None else SUITS[self.hokum_suit],
                          "provisional_buyer": self.buyer if self.contract < 0 else None,
                          "sun_caller": self.caller if self.contract < 0 else None}
        view["calls"] = [{"seat": s, "call": call, "suit": suit} for s, call, suit in self.calls]
        fixed = self.contract >= 0
        view.update(self._contract_view() if fixed else
                    {"contract": None, "trump": None, "buyer": None, "caller": None, "ashkal": False})
        view["level"] = LEVEL_NAMES[self.level]
        view["closed"] = self.closed
        view["doubling_step"] = self.step if self.phase == DOUBLING else None
        sun = self.contract == NO_TRUMP
        view["declarations"] = [{"seat": s, "projects": [project_kind(m, sun) for m in melds]}
                                for s, melds in enumerate(self.declared) if melds]
        view["projects"] = (self._scoring_projects() if self.project_team is not None else [])
        view["project_team"] = self.project_team
        view["baloot"] = self.baloot_holder if self.baloot_shown else None
        self._add_trick_view(view)

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "dealer": self.dealer, "to_act": self.to_act,
            "score": list(self.score), "winner": self.winner, "deal_number": self.deal_number,
            "hands": [DECK.codes_of_mask(m) for m in self.hands],
            "stock": [CODES[c] for c in self.stock], "contract": self.contract,
            "calls": [list(c) for c in self.calls], "leader": self.leader,
            "trick_number": self.trick_number, "trick": [CODES[c] for c in self.trick],
            "winning_seat": self.winning_seat, "trump_led": self.trump_led,
            "played": [[s, CODES[c]] for s, c in self.played],
            "won": [DECK.codes_of_mask(m) for m in self.won],
            "card_points": list(self.card_points), "tricks_won": list(self.tricks_won),
            "declared": [None if d is None else [meld_codes(m) for m in d] for d in self.declared],
            "delta": list(self.delta), "records": [dict(r) for r in self.deal_records],
            "face_up": CODES[self.face_up],
            "bidder": self.bidder, "buyer": self.buyer, "caller": self.caller, "ashkal": self.ashkal,
            "bid_round": self.bid_round, "step": self.step, "queue": list(self.queue),
            "hokum_suit": self.hokum_suit, "level": self.level, "closed": self.closed,
            "last_caller": self.last_caller, "doubler": self.doubler,
            "project_team": self.project_team, "baloot_holder": self.baloot_holder,
            "baloot_shown": self.baloot_shown,
        }

    def revealed_cards(self) -> int:
        """The face-up card in the buyer's hand (everyone saw it), and from the end of trick 1
        the cards of the scoring team's projects (S8.3)."""
        shown = 0
        if self.contract >= 0:
            shown |= 1 << self.face_up
        if self.project_team is not None:
            for seat in range(4):
                if seat & 1 == self.project_team:
                    for mask in self.declared[seat] or ():
                        shown |= mask
        return shown & (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3])

    def card_places(self) -> dict[str, int]:
        places = super().card_places()
        if self.contract < 0:  # still on the table, seen by all (S3.4)
            places["face_up"] = 1 << self.face_up
        return places
