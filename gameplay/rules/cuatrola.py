"""La Cuatrola — exactly as docs/rules/cuatrola.md (R1-R44, the options of its section 2).

Four players in two pairs with the 20-card Spanish deck. After one round of calls a seat may
play a contract alone (solo, cuatrola, quintola) while its partner sits out, and the tricks are
then three cards; if everybody passes all four play for one point.

Decisions the rules file takes where the sources disagree (its section 4), as implemented here:
- Rank order 1 > 3 > 12 > 11 > 10 (D1); seat s+1 acts after s, the mano is dealer+1 and the deal
  passes to dealer+1 (D2); the trump is the suit of the dealer's fifth card, hands[D][4], which
  stays in the dealer's hand and is played like any other card (D3).
- One call each, mano first and dealer last; an announcement must outrank every earlier one,
  the partner of an announcer may overcall, and all passing plays a pass hand for 1 (D4, D5).
  Option bidding = first_wins closes the round at the first announcement.
- The exact-11 rule: an announcement is illegal when the team's score plus its value would pass
  the target; points from the opponents' failed contract may pass it and win (D10).
- Trick 1 is led by the mano, or by dealer+2 when the mano sits out (D6; option first_lead).
- Must head against the highest card of the led suit already in the trick (D7; option
  head_reference); a ruffed trick only needs following; whoever cannot overtrump may play any
  card (D7); no exemption when the partner is winning (D8).
- Cantes: only in pass and solo hands, by an active seat of the pair that has just won a trick,
  one per trick won, each suit once, before the first card of the next trick (D9, D18); they
  count in the hand totals (D11). A cante is the only out-of-turn action: the trick winner's
  partner may send it while the winner is to lead.
- Ties in pass and solo hands go to the mano's pair (D12); a failed contract scores its value for
  the opponents (D13); contracts are played out unless play_out is false (D15); illegal cards
  are refused, not penalised (D16); the seat that sits out plays, calls and sings nothing and
  its cards count for nobody (D17).
- A clock timeout is for `to_act`, the seat that must play or call. In a cante window that is
  the trick winner, who must lead; its partner's right to sing is optional and has no clock.
  Under timeout_result = auto_action the default move is a pass in the calls and the first
  legal card in deck order in the play, never a cante (legal_actions lists plays before cantes).

Cards are ints of the 20-card deck (suit * 5 + rank, rank 0 = sota ... 4 = as); hands are masks.
"""

from __future__ import annotations

from .base import Game, MatchState
from .cuatrola_tables import (
    ABOVE, ANNOUNCE, CALLS, CANTE_PAIR, CARD_NAMES, CODES, CONTRACT_RANK, CONTRACTS,
    CUATROLA, DECK, OPTIONS, PASS, PASS_HAND, PLAY, PLAY_ACTIONS, POINTS, PRESETS, QUINTOLA, SING,
    SOLO, SUIT_INDEX, SUIT_MASK, SUIT_OF, SUITS, game_values)
from .cards import iter_bits
from .errors import IllegalAction

TRICKS_PER_DEAL = 5
# NEXT_ACTIVE[sits_out][seat]: who plays after seat; index 4 = nobody sits out (R19)
NEXT_ACTIVE = [[(s + 1) % 4 if (s + 1) % 4 != out else (s + 2) % 4 for s in range(4)]
               for out in range(4)] + [[(s + 1) % 4 for s in range(4)]]
NOBODY = 4
SEATS = (0, 1, 2, 3)
BIT = [1 << card for card in range(DECK.size)]
# The legal plays of a seat for a mask of legal cards, built once: legal_actions only copies them.
PLAY_LISTS: dict[int, list[dict]] = {}


def _play_list(seat: int, mask: int) -> list[dict]:
    actions = PLAY_ACTIONS[seat]
    plays = PLAY_LISTS[seat << 20 | mask] = [actions[card] for card in iter_bits(mask)]
    return plays


class CuatrolaGame(Game):
    name = "cuatrola"
    title = "La Cuatrola"
    deck = DECK
    options_spec = OPTIONS
    presets = PRESETS

    def deal_sizes(self, options: dict) -> tuple[list[int], int]:
        return [5, 5, 5, 5], 0  # R9, R11: every card is dealt, nothing stays in a stock

    def target(self, options: dict) -> int:
        return options["target"]


class CuatrolaState(MatchState):
    PHASE_ACTIONS = {
        CALLS: {"pass": "_pass", "announce": "_announce"},
        PLAY: {"play": "_play", "sing": "_sing"},
    }
    OUT_OF_TURN = frozenset({"sing"})

    def __init__(self, *args):
        options = args[1]
        self._clear_deal(args[3])
        self.values = game_values(options)
        self.first_wins = options["bidding"] == "first_wins"
        self.must_head = options["must_head"]
        self.head_on_lead = options["head_reference"] == "lead"
        self.must_trump = options["must_trump"]
        self.must_overtrump = options["must_overtrump"]
        self.stop_early = not options["play_out"]
        super().__init__(*args)

    # ----- R9-R11: the deal and the trump ----------------------------------------------------

    def start_deal(self, hands, stock) -> None:
        dealer = self.dealer
        self._clear_deal(dealer)
        self.hands = [BIT[a] | BIT[b] | BIT[c] | BIT[d] | BIT[e] for a, b, c, d, e in hands]
        self.trump_card = hands[dealer][4]
        self.trump = SUIT_OF[self.trump_card]
        self.detail = {"dealer": dealer, "mano": self.mano, "trump_card": CODES[self.trump_card],
                       "trump": SUITS[self.trump], "calls": [], "contract": None,
                       "declarer": None, "sits_out": None, "tricks": [], "cantes": []}
        self.events.append({"kind": "deal", "dealer": dealer, "deal_number": self.deal_number,
                            "trump_card": CODES[self.trump_card]})
        self.phase, self.to_act = CALLS, self.mano

    def split_shuffled(self, cards: list[int]):
        return [cards[0:5], cards[5:10], cards[10:15], cards[15:20]], []  # R9: 5 cards each

    def _clear_deal(self, dealer: int) -> None:
        """Every per-deal field at its starting value (also before a first deal is given)."""
        self.hands = [0, 0, 0, 0]
        self.trump_card = self.trump = None
        self.mano = (dealer + 1) % 4
        self.calls_made, self.contract, self.declarer, self.sits_out = 0, PASS_HAND, None, NOBODY
        self.cantes_allowed = False
        self.trick_size, self.next_active = 4, NEXT_ACTIVE[NOBODY]
        self.legal_cache = -1  # the legal-card mask of to_act, kept from legal_actions to _play
        self._reset_trick()
        self.leader, self.last_trick = self.mano, None
        self.won, self.card_points, self.tricks_won = [0, 0], [0, 0], [0, 0]
        self.tricks_played = 0
        self.window = 0  # the trick after which a cante window is open; 0 = closed (R25)
        self.sung = 0  # bit per suit already sung this deal (R28)
        self.cante_points = [0, 0]

    def _reset_trick(self) -> None:
        self.trick = []
        self.led = self.best_led = self.win_card = self.win_seat = None
        self.top_trump = -1

    # ----- R12-R16: the call round -----------------------------------------------------------

    def _pass(self, action) -> dict:
        seat = self.to_act
        self._record_call(seat, "pass")
        self._next_call()
        return PASS[seat]

    def _announce(self, action) -> dict:
        seat = self.to_act
        name = action.get("contract")
        rank = CONTRACT_RANK.get(name) if type(name) is str else None
        if rank is None:
            raise IllegalAction(f"{name!r} is not a contract: announce solo, cuatrola or quintola")
        reason = self._announce_refusal(seat, rank)
        if reason:
            raise IllegalAction(reason)
        self.contract, self.declarer = rank, seat
        self._record_call(seat, name)
        if self.first_wins:
            self._start_play()
        else:
            self._next_call()
        return ANNOUNCE[seat][rank]

    def _announce_refusal(self, seat: int, rank: int) -> str | None:
        """R14 (a) overcall and (b) the exact-target rule; None when the announcement is legal."""
        if rank <= self.contract:
            return (f"a {CONTRACTS[self.contract]} has already been announced: announce a higher "
                    f"contract or pass")
        team_score = self.score[seat % 2]
        if self.options["exact_target"] and team_score + self.values[rank] > self.target:
            return (f"your pair has {team_score} points: a {CONTRACTS[rank]} worth "
                    f"{self.values[rank]} would pass the target of {self.target}")
        return None

    def _record_call(self, seat: int, call: str) -> None:
        self.detail["calls"].append([seat, call])
        self.events.append({"kind": "call", "seat": seat, "call": call})
        self.calls_made += 1

    def _next_call(self) -> None:
        if self.calls_made == 4:
            self._start_play()
        else:
            self.to_act = (self.to_act + 1) % 4

    def _start_play(self) -> None:
        """R16-R18: fix the contract, the seat that sits out and the leader of trick 1."""
        detail = self.detail
        detail["contract"] = CONTRACTS[self.contract]
        leader = self.mano
        if self.contract != PASS_HAND:
            self.sits_out = (self.declarer + 2) % 4
            detail["declarer"], detail["sits_out"] = self.declarer, self.sits_out
            if self.options["first_lead"] == "declarer":
                leader = self.declarer
            elif leader == self.sits_out:
                leader = (leader + 1) % 4
        self.cantes_allowed = self.options["cantes"] and self.contract <= SOLO  # R24
        self.trick_size = 4 if self.sits_out == NOBODY else 3  # R17
        self.next_active = NEXT_ACTIVE[self.sits_out]
        self.events.append({"kind": "contract", "contract": CONTRACTS[self.contract],
                            "declarer": self.declarer, "sits_out": detail["sits_out"],
                            "leader": leader})
        self.leader = leader
        self.phase, self.to_act = PLAY, leader

    # ----- R17-R22: trick play -----------------------------------------------------------------

    def legal_actions(self, seat=None) -> list[dict]:
        to_act = self.to_act
        if to_act is None:
            return []
        if seat is not None and seat != to_act:
            if self.window and seat in SEATS:
                return self._sing_actions(seat)  # R26: the cante is the one out-of-turn action
            return []
        if self.phase == PLAY:
            mask = self.legal_cache = self._legal_mask(to_act)
            plays = PLAY_LISTS.get(to_act << 20 | mask) or _play_list(to_act, mask)
            if self.window:
                return plays + self._sing_actions(to_act)
            return plays[:]  # the caller may change its copy; the cached list stays intact
        seat_announces = ANNOUNCE[to_act]
        legal = [PASS[to_act]]
        for rank in range(self.contract + 1, QUINTOLA + 1):
            if self._announce_refusal(to_act, rank) is None:
                legal.append(seat_announces[rank])
        return legal

    def _legal_mask(self, seat: int) -> int:
        """R20, following the reference pseudocode of section 3.5 with its options."""
        hand = self.hands[seat]
        if not self.trick:
            return hand
        led, trump = self.led, self.trump
        follow = hand & SUIT_MASK[led]
        if follow:
            if not self.must_head or (led != trump and self.top_trump >= 0):
                return follow
            higher = follow & ABOVE[self.trick[0] if self.head_on_lead else self.best_led]
            return higher or follow
        my_trumps = hand & SUIT_MASK[trump]
        if not my_trumps or not self.must_trump:
            return hand
        if self.top_trump < 0 or not self.must_overtrump:
            return my_trumps
        return my_trumps & ABOVE[self.top_trump] or hand

    def _play(self, action) -> dict:
        seat = self.to_act
        card = self.take_card(seat, action)
        code = CODES[card]
        self.window = 0  # R25, R29: the first card of a trick closes the cante window
        # the running facts R20 and R21 need: best card of the led suit, top trump, winner
        suit, trick = SUIT_OF[card], self.trick
        if trick:
            if suit == self.led and card > self.best_led:
                self.best_led = card
            win_card = self.win_card
            win_suit = SUIT_OF[win_card]
            if (suit == win_suit and card > win_card) or (suit == self.trump != win_suit):
                self.win_card, self.win_seat = card, seat
        else:
            self.led, self.best_led, self.win_card, self.win_seat = suit, card, card, seat
        if suit == self.trump and card > self.top_trump:
            self.top_trump = card
        trick.append(card)
        self.events.append({"kind": "played", "seat": seat, "card": code})
        if len(trick) == self.trick_size:
            self._close_trick()
        else:
            self.to_act = self.next_active[seat]
        return PLAY_ACTIONS[seat][card]

    def _why_illegal(self, seat: int, card: int) -> str:
        hand, led, trump = self.hands[seat], self.led, self.trump
        led_name, trump_name = DECK.suit_name(led), DECK.suit_name(trump)
        if hand & SUIT_MASK[led]:
            if SUIT_OF[card] != led:
                return f"you must follow suit ({led_name})"
            beat = self.trick[0] if self.head_on_lead else self.best_led
            return f"you must head the trick: play a card of {led_name} that beats the {CARD_NAMES[beat]}"
        if self.top_trump < 0:
            return f"you have no {led_name}: you must trump ({trump_name})"
        if not self.must_overtrump:
            return f"you have no {led_name}: you must play a trump ({trump_name})"
        return f"you must overtrump: play a trump that beats the {CARD_NAMES[self.top_trump]}"

    def _close_trick(self) -> None:
        """R21, R22: the trick goes to the winner's pair; then R25 opens a cante window."""
        trick, winner = self.trick, self.win_seat
        team = winner & 1
        taken = points = 0
        for card in trick:
            taken |= 1 << card
            points += POINTS[card]
        self.won[team] |= taken
        self.card_points[team] += points
        self.tricks_won[team] += 1
        played = self.tricks_played = self.tricks_played + 1
        codes = [CODES[c] for c in trick]
        self.last_trick = {"leader": self.leader, "cards": codes, "winner": winner}
        self.detail["tricks"].append(self.last_trick)
        self.events.append({"kind": "trick_won", "seat": winner, "team": team, "cards": codes})
        self.trick = []
        self.top_trump = -1
        if played == TRICKS_PER_DEAL or (self.stop_early and self._contract_decided()):
            self._score_deal()
            return
        self.leader = self.to_act = winner
        if self.cantes_allowed:
            self.window = played

    def _contract_decided(self) -> bool:
        """Option play_out = false: a cuatrola or quintola stops once its result is certain."""
        if self.contract < CUATROLA:
            return False
        defenders = self.tricks_won[1 - self.declarer % 2]
        if self.contract == QUINTOLA:
            return defenders >= 1
        return defenders >= 2 or self.tricks_won[self.declarer % 2] >= 4

    # ----- R23-R30: cantes ---------------------------------------------------------------------

    def _sing_actions(self, seat) -> list[dict]:
        """The cantes `seat` may declare in the open window (R26-R28)."""
        if seat == self.sits_out or (seat ^ self.leader) & 1:
            return []
        hand, sung, sings = self.hands[seat], self.sung, SING[seat]
        return [sings[suit] for suit in range(4)
                if not sung >> suit & 1 and hand & CANTE_PAIR[suit] == CANTE_PAIR[suit]]

    def _sing(self, action) -> dict:
        seat = action.get("seat", self.to_act)
        code = action.get("suit")
        suit = SUIT_INDEX.get(code) if type(code) is str else None
        if type(seat) is not int or not 0 <= seat < 4:
            raise IllegalAction(f"{seat!r} is not a seat")
        if suit is None:
            raise IllegalAction(f"{code!r} is not a suit: sing O, C, E or B")
        reason = self._sing_refusal(seat, suit)
        if reason:
            raise IllegalAction(reason)
        team = seat & 1
        points = self.options["cante_points"][1 if suit == self.trump else 0]  # R23
        self.window = 0  # R27: one cante per window
        self.sung |= 1 << suit
        self.cante_points[team] += points
        cante = {"seat": seat, "suit": code, "points": points, "after_trick": self.tricks_played}
        self.detail["cantes"].append(cante)
        self.events.append({"kind": "sing", **cante})
        return SING[seat][suit]

    def _sing_refusal(self, seat: int, suit: int) -> str | None:
        if not self.options["cantes"]:
            return "cantes are not played at this table"
        if self.contract > SOLO:
            return f"nobody may sing in a {CONTRACTS[self.contract]}"
        if not self.window:
            return ("you may sing only after your pair wins a trick, before the next card "
                    "(and once per trick)")
        if seat == self.sits_out:
            return "you sit out this hand: you may not sing"
        if (seat ^ self.leader) & 1:
            return "only the pair that won the last trick may sing"
        if self.sung >> suit & 1:
            return f"{DECK.suit_name(suit)} has already been sung in this hand"
        if self.hands[seat] & CANTE_PAIR[suit] != CANTE_PAIR[suit]:
            return f"to sing {DECK.suit_name(suit)} you need its caballo and rey"
        return None

    # ----- R31-R39: scoring a deal and the match -------------------------------------------------

    def _score_deal(self) -> None:
        self.phase, self.to_act = "scoring", None
        detail = self.detail
        bonus = [0, 0]
        if self.tricks_played == TRICKS_PER_DEAL:
            bonus[self.last_trick["winner"] & 1] = self.options["last_trick_bonus"]  # R31
        totals = [self.card_points[t] + bonus[t] + self.cante_points[t] for t in (0, 1)]  # R32
        winner = self._hand_winner(totals)
        detail.update({"tricks_won": list(self.tricks_won), "card_points": list(self.card_points),
                       "last_trick_bonus": bonus, "cante_points": list(self.cante_points),
                       "totals": totals, "hand_winner_team": winner})
        self.award(winner, self.values[self.contract], CONTRACTS[self.contract])
        self.events.append({"kind": "points", "team": winner, "points": self.values[self.contract],
                            "item": CONTRACTS[self.contract]})
        if self.score[winner] >= self.target:  # R38
            self.end_match(winner)
            self.close_deal()
            return
        self.close_deal()
        self.dealer = (self.dealer + 1) % 4  # R8
        self.begin_deal()

    def _hand_winner(self, totals: list[int]) -> int:
        """R33-R36, as the reference pseudocode deal_result."""
        mano_team = self.mano & 1
        if self.contract in (PASS_HAND, SOLO):
            first, second = totals
            if first == second:
                return mano_team
            return 0 if first > second else 1
        declarer_team = self.declarer & 1
        needed = 4 if self.contract == CUATROLA else 5
        return declarer_team if self.tricks_won[declarer_team] >= needed else 1 - declarer_team

    # ----- views, snapshots, conformance ---------------------------------------------------------

    def add_view_details(self, view: dict, seat) -> None:
        """Own hand only (a seat that sits out still sees its own cards); the rest is public."""
        view["players"] = 4
        view["hand"] = DECK.codes_of_mask(self.hands[seat]) if seat is not None else []
        view["hand_sizes"] = [mask.bit_count() for mask in self.hands]
        view.update(self._public_table())

    def _public_table(self) -> dict:
        detail = self.detail
        return {
            "mano": self.mano,
            "trump_card": None if self.trump is None else CODES[self.trump_card],
            "trump": None if self.trump is None else SUITS[self.trump],
            "calls": [list(c) for c in detail.get("calls", [])],
            "contract": CONTRACTS[self.contract] if self.phase != CALLS else None,
            "highest_announcement": CONTRACTS[self.contract], "declarer": self.declarer,
            "sits_out": None if self.sits_out == NOBODY else self.sits_out,
            "leader": self.leader,
            "trick": [{"seat": s, "card": CODES[c]} for s, c in self._trick_seats()],
            "tricks": [dict(t) for t in detail.get("tricks", [])], "last_trick": self.last_trick,
            "tricks_won": list(self.tricks_won), "card_points": list(self.card_points),
            "cantes": [dict(c) for c in detail.get("cantes", [])],
            "cante_points": list(self.cante_points), "cante_window": self.window or None,
        }

    def _trick_seats(self):
        seat = self.leader
        for card in self.trick:
            yield seat, card
            seat = NEXT_ACTIVE[self.sits_out][seat]

    def revealed_cards(self) -> int:
        """Cards in hands that the table has seen: the dealer's trump card (R10) and the caballo
        and rey of every suit sung (R23), while they are still held."""
        shown = 0
        if self.trump is not None:
            shown |= 1 << self.trump_card
        for cante in self.detail.get("cantes", ()):
            shown |= CANTE_PAIR[SUIT_INDEX[cante["suit"]]]
        in_hands = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        return shown & in_hands

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "dealer": self.dealer, "to_act": self.to_act,
            "score": list(self.score), "winner": self.winner, "deal_number": self.deal_number,
            "hands": [DECK.codes_of_mask(m) for m in self.hands],
            "trump_card": self.trump_card, "mano": self.mano,
            "calls_made": self.calls_made, "contract": self.contract, "declarer": self.declarer,
            "sits_out": self.sits_out, "leader": self.leader,
            "trick": [CODES[c] for c in self.trick], "top_trump": self.top_trump,
            "won": [DECK.codes_of_mask(m) for m in self.won],
            "card_points": list(self.card_points), "tricks_won": list(self.tricks_won),
            "tricks_played": self.tricks_played, "window": self.window, "sung": self.sung,
            "cante_points": list(self.cante_points), "delta": list(self.delta),
            "detail": self.detail, "records": [dict(r) for r in self.deal_records],
        }

    def card_places(self) -> dict[str, int]:
        """Hands (the seat that sits out keeps its five), the trick on the table, each pair's won
        cards: together exactly the 20 cards."""
        places = {f"hand{seat}": mask for seat, mask in enumerate(self.hands)}
        places["trick"] = DECK.mask(self.trick)
        places["won0"], places["won1"] = self.won
        return places


CuatrolaGame.state_class = CuatrolaState
CUATROLA_GAME = CuatrolaGame()
