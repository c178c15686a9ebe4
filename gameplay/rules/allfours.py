"""All Fours, Trinidad rules — exactly as docs/rules/allfours.md (R1-R14, options V1-V10).

Decisions the rules file takes where the sources disagree (its section 4), as implemented here:
- Anticlockwise = play order: the pone is seat d+1; he stands or begs and leads; the deal passes
  to d+1 after a played-out deal and stays with d after the pack runs out (A1, A7, A8).
- Every card turned up scores kick points for the dealer's team at once and is out of play (A4, A5).
- Give one is allowed even when it ends the match, unless V8 forbids it (A9).
- The match ends the instant a team reaches the target; later items are not applied (A10, A17).
- High and Low go to the team the trump was dealt to; one trump in play is both (A13).
- The jack captured by the opponents is hang jack for the capturers; a jack not dealt scores
  nothing (A14). A tied Game scores nothing unless V10 gives it to the pone's team (A15).
- Illegal plays are refused rather than penalised as renege (A19).

Cards are ints of the 52-card deck (suit * 13 + rank, rank 0 = Two ... 12 = Ace); hands are masks.
"""

from __future__ import annotations

from .base import Game, MatchState
from .cards import FRENCH_52, highest_bit, lowest_bit
from .errors import IllegalAction
from .options import TIMEOUT_RESULT, Option, positive_int

DECK = FRENCH_52
CODES = DECK.codes
CARD_INDEX = DECK.index
SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
SUIT_MASK = DECK.suit_mask
TWO, SIX, JACK, ACE = 0, 4, 9, 12
COUNTERS = [{12: 4, 11: 3, 10: 2, 9: 1, 8: 10}.get(RANK_OF[c], 0) for c in range(52)]  # R2.3
KICK_POINTS = {  # R6.2 and V3: points of a turned-up card, by rank
    "trinidad": {ACE: 1, SIX: 2, JACK: 3},
    "tobago": {ACE: 1, TWO: 2, JACK: 3},
}

STAND_OR_BEG, DEALER_CHOICE, PLAY = "stand_or_beg", "dealer_choice", "play"

OPTIONS = [
    Option("players", 4, (4, 2), help="V1: 2 = All Twos for two players."),
    Option("target_score", 14, check=positive_int, expects="a positive whole number",
           help="V2: the winning score."),
    Option("kick_scoring", "trinidad", ("trinidad", "tobago"),
           help="V3: tobago scores a turned-up Two 2 points instead of a Six."),
    Option("game_points", 1, (1, 2), help="V4: the value of Game."),
    Option("hang_jack_points", 3, check=positive_int, expects="a positive whole number",
           help="V5: the value of hang jack."),
    Option("follow_rule", "follow_or_trump", ("follow_or_trump", "trump_only", "free"),
           help="V6: how strictly following suit is enforced."),
    Option("undertrump", "allowed", ("allowed", "forbidden"),
           help="V7: forbidden = no trump below the trick's highest trump after a plain lead."),
    Option("give_one_at_game", "allowed", ("allowed", "forbidden"),
           help="V8: forbidden = no give one when it would make the beggars reach the target."),
    Option("give_one_requires_trump", False, (False, True),
           help="V9: the dealer may give one only when he holds a card of the turned suit."),
    Option("game_tie", "none", ("none", "non_dealer"),
           help="V10: who scores Game when the totals are equal."),
    TIMEOUT_RESULT,
]

PRESETS = {
    "trinidad_standard": {},
    "tobago": {"kick_scoring": "tobago"},
    "tournament_game_two": {"game_points": 2},
    "stag_jack": {"game_points": 2, "hang_jack_points": 6},
    "short_seven": {"target_score": 7},
    "all_twos": {"players": 2},
}


def _seat_actions(kind: str, players: int = 4) -> list[dict]:
    return [{"seat": seat, "type": kind} for seat in range(players)]


STAND = _seat_actions("stand")
BEG = _seat_actions("beg")
GIVE_ONE = _seat_actions("give_one")
RUN_PACK = _seat_actions("run_pack")
PLAY_ACTIONS = [[{"seat": seat, "type": "play", "card": code} for code in CODES] for seat in range(4)]


class AllFoursGame(Game):
    name = "allfours"
    title = "All Fours"
    deck = DECK
    options_spec = OPTIONS
    presets = PRESETS

    def players(self, options: dict) -> int:
        return options["players"]

    def deal_sizes(self, options: dict) -> tuple[list[int], int]:
        players = options["players"]
        return [6] * players, 52 - 6 * players

    def target(self, options: dict) -> int:
        return options["target_score"]


class AllFoursState(MatchState):
    PHASE_ACTIONS = {
        STAND_OR_BEG: {"stand": "_stand", "beg": "_beg"},
        DEALER_CHOICE: {"give_one": "_give_one", "run_pack": "_run_pack"},
        PLAY: {"play": "_play"},
    }

    def __init__(self, *args):
        self.follow_rule = args[1]["follow_rule"]
        self.no_undertrump = args[1]["undertrump"] == "forbidden"
        self.kick_points = KICK_POINTS[args[1]["kick_scoring"]]
        super().__init__(*args)

    # ----- R5, R6: dealing and the kick ----------------------------------------------------

    def start_deal(self, hands, stock) -> None:
        self.hands = [DECK.mask(hand) for hand in hands]
        self.in_play = [0] * self.players
        self.stock, self.stock_pos = stock, 0
        self.turn_ups, self.trump, self.decision = [], None, None
        self.trick, self.played, self.last_trick = [], [], None
        self.leader = (self.dealer + 1) % self.players
        self.won = [0, 0]  # masks of the cards each team took in tricks
        self.counters = [0, 0]
        self.jack_won_by = None
        self.detail = {"dealer": self.dealer, "turn_ups": [], "trump": None, "decision": None,
                       "redeal": False, "tricks": 0, "high": None, "low": None, "jack": None,
                       "game_totals": None, "points": []}
        self.events.append({"kind": "deal", "dealer": self.dealer, "deal_number": self.deal_number})
        if self._turn_up():
            return
        self.phase, self.to_act = STAND_OR_BEG, self.leader

    def _turn_up(self) -> bool:
        """R6.1/R9.1d: turn up the next stock card; its kick points may end the match (R6.4)."""
        card = self.stock[self.stock_pos]
        self.stock_pos += 1
        self.turn_ups.append(card)
        self.detail["turn_ups"].append(CODES[card])
        points = self.kick_points.get(RANK_OF[card], 0)
        self.events.append({"kind": "turn_up", "card": CODES[card], "kick_points": points})
        if points:
            return self._score(self.dealer % 2, points, "kick")
        return False

    def _score(self, team: int, points: int, item: str) -> bool:
        """Apply one item, then the target check of R13.2. True when the match just ended."""
        self.award(team, points, item)
        self.events.append({"kind": "points", "team": team, "points": points, "item": item})
        if self.score[team] >= self.target:
            self.end_match(team)
            self.close_deal()
            return True
        return False

    # ----- R7, R8, R9: stand, beg, give one, run the pack ----------------------------------

    def _stand(self, action) -> dict:
        seat = self.to_act
        self.decision = self.detail["decision"] = "stand"
        self.events.append({"kind": "stand", "seat": seat})
        self._start_play()
        return STAND[seat]

    def _beg(self, action) -> dict:
        seat = self.to_act
        self.events.append({"kind": "beg", "seat": seat})
        self.phase, self.to_act = DEALER_CHOICE, self.dealer
        return BEG[seat]

    def _give_one(self, action) -> dict:
        reason = self._give_one_forbidden()
        if reason:
            raise IllegalAction(reason)
        seat = self.to_act
        self.decision = self.detail["decision"] = "give_one"
        self.events.append({"kind": "give_one", "seat": seat})
        if not self._score((self.dealer + 1) % 2, 1, "beg"):
            self._start_play()
        return GIVE_ONE[seat]

    def _give_one_forbidden(self) -> str | None:
        beggars = (self.dealer + 1) % 2
        if self.options["give_one_at_game"] == "forbidden" and self.score[beggars] + 1 >= self.target:
            return "you may not give one when it would take the beggars to the target; run the pack"
        turned = SUIT_OF[self.turn_ups[-1]]
        if self.options["give_one_requires_trump"] and not self.hands[self.dealer] & SUIT_MASK[turned]:
            return f"you may give one only when you hold a {DECK.suit_name(turned)[:-1]}; run the pack"
        return None

    def _run_pack(self, action) -> dict:
        seat = self.to_act
        self.decision = self.detail["decision"] = "run_pack"
        self.events.append({"kind": "run_pack", "seat": seat})
        refused = SUIT_OF[self.turn_ups[0]]
        players = self.players
        while True:
            if len(self.stock) - self.stock_pos < 3 * players + 1:  # R9.1b, R9.6
                self._pack_ran_out()
                return RUN_PACK[seat]
            for step in range(players):  # R9.1c / R5.3
                receiver = (self.dealer + 1 + step) % players
                for card in self.stock[self.stock_pos:self.stock_pos + 3]:
                    self.hands[receiver] |= 1 << card
                self.stock_pos += 3
            if self._turn_up():
                return RUN_PACK[seat]
            if SUIT_OF[self.turn_ups[-1]] != refused:
                self._start_play()
                return RUN_PACK[seat]

    def _pack_ran_out(self) -> None:
        """R9.6: abandon the deal, keep the kick points; the same dealer deals again."""
        self.detail["redeal"] = True
        self.events.append({"kind": "pack_ran_out", "dealer": self.dealer})
        self.close_deal()
        self.begin_deal()

    # ----- R10, R11: trick play ------------------------------------------------------------

    def _start_play(self) -> None:
        self.trump = SUIT_OF[self.turn_ups[-1]]
        self.detail["trump"] = DECK.suits[self.trump]
        self.in_play = list(self.hands)
        self.legal_cache = -1  # the legal cards of the seat to act; -1 = not computed yet
        self.events.append({"kind": "trump", "suit": DECK.suits[self.trump]})
        self.phase, self.to_act = PLAY, self.leader

    def legal_actions(self, seat=None) -> list[dict]:
        if seat is not None and seat != self.to_act:
            return []
        seat = self.to_act
        phase = self.phase
        if phase == PLAY:
            actions = PLAY_ACTIONS[seat]
            mask = self.legal_cache
            if mask < 0:
                mask = self.legal_cache = self._legal_mask(seat)
            legal = []
            while mask:
                low = mask & -mask
                legal.append(actions[low.bit_length() - 1])
                mask ^= low
            return legal
        if phase == STAND_OR_BEG:
            return [STAND[seat], BEG[seat]]
        if phase == DEALER_CHOICE:
            if self._give_one_forbidden():
                return [RUN_PACK[seat]]
            return [GIVE_ONE[seat], RUN_PACK[seat]]
        return []

    def _legal_mask(self, seat: int) -> int:
        """R11.4 as changed by V6, then V7."""
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            return hand
        led = SUIT_OF[trick[0]]
        trump = self.trump
        trumps = SUIT_MASK[trump]
        rule = self.follow_rule
        if rule == "free":
            allowed = hand
        elif led == trump:
            allowed = hand & trumps or hand
        elif rule == "trump_only":
            allowed = hand
        else:
            follow = hand & SUIT_MASK[led]
            allowed = follow | (hand & trumps) if follow else hand
        if self.no_undertrump and led != trump and allowed & trumps and hand & ~trumps:
            top = max((c for c in trick if SUIT_OF[c] == trump), default=None)
            if top is not None:
                allowed &= ~(trumps & ((1 << top) - 1))
        return allowed

    def _play(self, action) -> dict:
        seat = self.to_act
        card = self.take_card(seat, action)
        code = CODES[card]
        trick = self.trick
        trick.append(card)
        self.played.append((seat, card))
        self.events.append({"kind": "played", "seat": seat, "card": code})
        if len(trick) == self.players:
            self._close_trick()
        else:
            self.to_act = (seat + 1) % self.players
        return PLAY_ACTIONS[seat][card]

    def _why_illegal(self, seat: int, card: int) -> str:
        led = SUIT_OF[self.trick[0]]
        trump_name = DECK.suit_name(self.trump)
        if led == self.trump and SUIT_OF[card] != self.trump:
            return f"trumps were led: you must play a trump ({trump_name})"
        if SUIT_OF[card] == self.trump:
            return "you may not undertrump: play a higher trump or another card"
        return f"you must follow suit ({DECK.suit_name(led)}) or play a trump ({trump_name})"

    def _close_trick(self) -> None:
        """R11.5: the highest trump wins, else the highest card of the suit led."""
        trick, trump = self.trick, self.trump
        best, best_at = trick[0], 0
        for at in range(1, len(trick)):
            card = trick[at]
            if SUIT_OF[card] == SUIT_OF[best]:
                if card > best:
                    best, best_at = card, at
            elif SUIT_OF[card] == trump:
                best, best_at = card, at
        winner = (self.leader + best_at) % self.players
        team = winner % 2
        taken = counters = 0
        for card in trick:
            taken |= 1 << card
            counters += COUNTERS[card]
        self.counters[team] += counters
        self.won[team] |= taken
        if taken & (1 << (trump * 13 + JACK)):
            self.jack_won_by = team
        self.last_trick = (self.leader, trick, winner)
        self.detail["tricks"] += 1
        self.events.append({"kind": "trick_won", "seat": winner, "team": team,
                            "cards": list(map(CODES.__getitem__, trick))})
        self.trick = []
        self.leader = self.to_act = winner
        if not self.hands[winner]:
            self._score_deal()

    # ----- R12, R13: scoring a played-out deal ---------------------------------------------

    def _holder_team(self, card: int) -> int:
        bit = 1 << card
        return next(seat for seat in range(self.players) if self.in_play[seat] & bit) % 2

    def _score_deal(self) -> None:
        """High, Low, Jack (or hang jack), Game, each followed by the target check (R13)."""
        self.phase, self.to_act = "scoring", None
        for item, team, points in self._deal_items():
            if points and self._score(team, points, item):
                return
        self.close_deal()
        self.dealer = (self.dealer + 1) % self.players  # R4.2
        self.begin_deal()

    def _deal_items(self):
        trump = self.trump
        in_play = 0
        for mask in self.in_play:
            in_play |= mask
        trumps = in_play & SUIT_MASK[trump]
        detail = self.detail
        if trumps:
            high, low = highest_bit(trumps), lowest_bit(trumps)
            detail["high"] = {"card": CODES[high], "team": self._holder_team(high)}
            detail["low"] = {"card": CODES[low], "team": self._holder_team(low)}
            yield "high", detail["high"]["team"], 1
            yield "low", detail["low"]["team"], 1
        jack = trump * 13 + JACK
        if in_play & (1 << jack):
            holder, won_by = self._holder_team(jack), self.jack_won_by
            kind = "jack" if won_by == holder else "hang_jack"
            detail["jack"] = {"card": CODES[jack], "holder_team": holder, "won_by_team": won_by,
                              "kind": kind}
            yield kind, won_by, 1 if kind == "jack" else self.options["hang_jack_points"]
        detail["game_totals"] = list(self.counters)
        game_team = self._game_winner()
        if game_team is not None:
            yield "game", game_team, self.options["game_points"]

    def _game_winner(self):
        first, second = self.counters
        if first != second:
            return 0 if first > second else 1
        if self.options["game_tie"] == "non_dealer":
            return (self.dealer + 1) % 2
        return None

    # ----- views, snapshots, conformance ---------------------------------------------------

    def add_view_details(self, view: dict, seat) -> None:
        view["players"] = self.players
        view["hand"] = DECK.codes_of_mask(self.hands[seat]) if seat is not None else []
        view["hand_sizes"] = [mask.bit_count() for mask in self.hands]
        view["trump"] = DECK.suits[self.trump] if self.trump is not None else None
        view["turn_ups"] = [CODES[c] for c in self.turn_ups]
        view["decision"] = self.decision
        view["leader"] = self.leader
        view["trick"] = [{"seat": (self.leader + i) % self.players, "card": CODES[c]}
                         for i, c in enumerate(self.trick)]
        view["played"] = [{"seat": s, "card": CODES[c]} for s, c in self.played]
        view["last_trick"] = None if self.last_trick is None else {
            "leader": self.last_trick[0], "cards": [CODES[c] for c in self.last_trick[1]],
            "winner": self.last_trick[2]}
        view["game_totals"] = list(self.counters)
        view["stock_size"] = len(self.stock) - self.stock_pos

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "dealer": self.dealer, "to_act": self.to_act,
            "score": list(self.score), "winner": self.winner, "deal_number": self.deal_number,
            "hands": [DECK.codes_of_mask(m) for m in self.hands],
            "in_play": [DECK.codes_of_mask(m) for m in self.in_play],
            "stock": [CODES[c] for c in self.stock[self.stock_pos:]],
            "turn_ups": [CODES[c] for c in self.turn_ups],
            "trump": self.trump, "decision": self.decision, "leader": self.leader,
            "trick": [CODES[c] for c in self.trick],
            "won": [DECK.codes_of_mask(m) for m in self.won],
            "counters": list(self.counters), "jack_won_by": self.jack_won_by,
            "delta": list(self.delta), "records": [dict(r) for r in self.deal_records],
        }

    def card_places(self) -> dict[str, int]:
        places = {f"hand{seat}": mask for seat, mask in enumerate(self.hands)}
        places["stock"] = DECK.mask(self.stock[self.stock_pos:])
        places["turn_ups"] = DECK.mask(self.turn_ups)
        places["trick"] = DECK.mask(self.trick)
        places["won0"], places["won1"] = self.won
        return places


AllFoursGame.state_class = AllFoursState
ALL_FOURS = AllFoursGame()
