"""La Cuatrola's fixed tables and variant options (docs/rules/cuatrola.md, sections 1.1 and 2).

Kept apart from the state machine in `cuatrola.py` so that the module holding the rules stays
short. Everything here is computed once at import: card points, "beats" masks, the cante pairs
and the action dicts that `legal_actions` hands out (shared, never copied).

Cards are ints of the 20-card Spanish deck: suit * 5 + rank with ranks 0..4 = 10, 11, 12, 3, 1.
That natural order is also the trick-taking order of R2 (1 > 3 > 12 > 11 > 10), so within a
suit "beats" is simply "is a higher int".
"""

from __future__ import annotations

from .cards import SPANISH_20
from .options import TIMEOUT_RESULT, Option, positive_int

DECK = SPANISH_20
CODES = DECK.codes
CARD_INDEX = DECK.index
SUIT_OF = DECK.suit_of
RANK_OF = DECK.rank_of
SUIT_MASK = DECK.suit_mask
SUITS = DECK.suits  # "O", "C", "E", "B"
SUIT_INDEX = {code: suit for suit, code in enumerate(SUITS)}
SOTA, CABALLO, REY, TRES, AS = range(5)
RANK_WORDS = ["sota (10)", "caballo (11)", "rey (12)", "tres (3)", "as (1)"]

POINTS = [[2, 3, 4, 10, 11][RANK_OF[c]] for c in range(DECK.size)]  # R3
# ABOVE[c]: the cards of c's suit that beat c (R2)
ABOVE = [SUIT_MASK[SUIT_OF[c]] & ~((2 << c) - 1) for c in range(DECK.size)]
# CANTE_PAIR[suit]: the caballo and rey of that suit, the cards a cante needs (R23)
CANTE_PAIR = [(1 << (s * 5 + CABALLO)) | (1 << (s * 5 + REY)) for s in range(4)]

# R13: the contracts by rank; 0 is "no announcement" (a pass hand).
PASS_HAND, SOLO, CUATROLA, QUINTOLA = range(4)
CONTRACTS = ["pass", "solo", "cuatrola", "quintola"]
CONTRACT_RANK = {"solo": SOLO, "cuatrola": CUATROLA, "quintola": QUINTOLA}
DEFAULT_VALUES = {"pass": 1, "solo": 2, "cuatrola": 4, "quintola": 5}

CALLS, PLAY = "calls", "play"


def _card_name(card: int) -> str:
    return f"{RANK_WORDS[RANK_OF[card]]} of {DECK.suit_name(SUIT_OF[card])}"


CARD_NAMES = [_card_name(c) for c in range(DECK.size)]


# ----- options (section 2) -------------------------------------------------------------------

def _is_int(value) -> bool:
    return type(value) is int


def _valid_values(value) -> bool:
    return (type(value) is dict and set(value) <= set(DEFAULT_VALUES)
            and all(type(v) is int and v >= 0 for v in value.values()))


def _valid_cante_points(value) -> bool:
    return type(value) is list and len(value) == 2 and all(type(v) is int for v in value)


BOOL = (True, False)

OPTIONS = [
    Option("target", 11, check=positive_int, expects="a positive whole number",
           help="Game points needed to win the match (R38). Ludoteka and casino sites play to 21."),
    Option("exact_target", True, BOOL,
           help="R14(b): an announcement that would take the team past the target is illegal."),
    Option("values", dict(DEFAULT_VALUES), check=_valid_values,
           expects="an object with some of pass, solo, cuatrola, quintola as whole numbers >= 0",
           help="Game points per outcome; a partial object overrides only the keys given."),
    Option("last_trick_bonus", 10, check=_is_int, expects="a whole number",
           help="Card points for winning trick 5 (R31)."),
    Option("cantes", True, BOOL, help="With false, nobody may sing 20 or 40."),
    Option("cante_points", [20, 40], check=_valid_cante_points,
           expects="a list [plain, trump] of two whole numbers",
           help="Value of a cante in a plain suit and in trumps (R23)."),
    Option("must_head", True, BOOL,
           help="R20(b): a player following suit must beat the best card of the suit if able."),
    Option("head_reference", "highest", ("highest", "lead"),
           help="The card to beat under must_head: the highest of the led suit, or the lead."),
    Option("must_trump", True, BOOL,
           help="R20(c): a player void in the led suit must trump (false: any card)."),
    Option("must_overtrump", True, BOOL,
           help="R20(c): a player who trumps must beat a trump already played if able."),
    Option("bidding", "overcall", ("overcall", "first_wins"),
           help="first_wins: the first announcement closes the call round at once."),
    Option("first_lead", "mano", ("mano", "declarer"),
           help="Who leads trick 1 of a contract hand (R18); pass hands are led by the mano."),
    Option("play_out", True, BOOL,
           help="false: a cuatrola or quintola stops as soon as its result is certain."),
    TIMEOUT_RESULT,
]

PRESETS = {
    "standard": {},
    "ludoteka_21": {"target": 21},
    "first_announcement_wins": {"bidding": "first_wins"},
    "declarer_leads": {"first_lead": "declarer"},
    "quick_contracts": {"play_out": False},
}


def game_values(options: dict) -> list[int]:
    """Game points by contract rank (pass, solo, cuatrola, quintola), defaults filled in."""
    values = {**DEFAULT_VALUES, **options["values"]}
    return [values[name] for name in CONTRACTS]


# ----- shared action dicts ---------------------------------------------------------------------

PASS = [{"seat": s, "type": "pass"} for s in range(4)]
ANNOUNCE = [[None] + [{"seat": s, "type": "announce", "contract": name} for name in CONTRACTS[1:]]
            for s in range(4)]
PLAY_ACTIONS = [[{"seat": s, "type": "play", "card": code} for code in CODES] for s in range(4)]
SING = [[{"seat": s, "type": "sing", "suit": suit} for suit in SUITS] for s in range(4)]
