"""Classic Saudi Baloot: projects (S8), baloot blocking (S9.2) and the deal's score (S10, S11).

Pure functions over the 32-card deck's ints (suit * 8 + rank, rank 0 = Seven ... 7 = Ace), shared
with the contract mode's meld code (`baloot_melds`): a sequence is a run of adjacent bits inside
one suit's byte, and the natural rank order is the sequence order of S1.4.
"""

from __future__ import annotations

from .baloot_melds import FOUR_OF_MASK, TEN, JACK, QUEEN, KING, ACE

HOKUM_DEAL, SUN_DEAL = 16, 26  # S10.3: card game points of a deal always add up to these
HOKUM_KABOOT, SUN_KABOOT = 25, 44  # S10.7
GAHWA_POINTS = 152  # S10.6 c
BALOOT_GP = 2  # S9.1
GAHWA = 5  # the doubling level after gahwa (levels 1-4 are multipliers)

# S8.1: the ranks whose four of a kind is a project (four Nines, Eights, Sevens are not).
FOUR_RANKS = (ACE, KING, QUEEN, JACK, TEN)
SIRA, FIFTY, HUNDRED, FOUR_HUNDRED = "sira", "fifty", "hundred", "four_hundred"
KIND_ORDER = {SIRA: 0, FIFTY: 1, HUNDRED: 2, FOUR_HUNDRED: 3}


def project_kind(mask: int, sun: bool) -> str:
    """S8.1: the kind of a valid project (a maximal sequence or a four of a kind)."""
    rank = FOUR_OF_MASK.get(mask)
    if rank is not None:
        return FOUR_HUNDRED if rank == ACE and sun else HUNDRED
    length = mask.bit_count()
    return SIRA if length == 3 else FIFTY if length == 4 else HUNDRED


def project_raw(mask: int, sun: bool, four_hundred_raw: int) -> int:
    kind = project_kind(mask, sun)
    return {SIRA: 20, FIFTY: 50, HUNDRED: 100, FOUR_HUNDRED: four_hundred_raw}[kind]


def project_key(mask: int, sun: bool, priority: int) -> tuple:
    """S8.4: kind, sequence over four of a kind, top card, then the declarer's priority."""
    is_four = mask in FOUR_OF_MASK
    top = FOUR_OF_MASK[mask] if is_four else (mask.bit_length() - 1) % 8
    return KIND_ORDER[project_kind(mask, sun)], 0 if is_four else 1, top, -priority


def scoring_team(declared: list[tuple[int, int]], sun: bool, priority_of) -> int | None:
    """S8.4: the team whose strongest declared project is stronger (None when nobody declared)."""
    best = None
    for seat, mask in declared:
        key = project_key(mask, sun, priority_of(seat))
        if best is None or key > best[0]:
            best = (key, seat % 2)
    return None if best is None else best[1]


def blocks_baloot(mask: int, trump: int) -> bool:
    """S9.2: a hundred of four Kings or Queens, or a hundred sequence holding K and Q of trumps."""
    rank = FOUR_OF_MASK.get(mask)
    if rank is not None:
        return rank in (KING, QUEEN)
    king_queen = 0x60 << (trump * 8)
    return mask.bit_count() >= 5 and mask & king_queen == king_queen


# ----- S10.3, S11: rounding -------------------------------------------------------------------

def hokum_card_gp(points: list[int]) -> list[int]:
    """Hokum: 5 and below round down, 7 up; two 6s: the team with fewer rounds up."""
    result = []
    for team in (0, 1):
        tens, digit = divmod(points[team], 10)
        lower = points[team] < points[1 - team]
        result.append(tens + 1 if digit >= 7 or (digit == 6 and lower) else tens)
    return result


def sun_card_gp(points: list[int]) -> list[int]:
    """Sun: to the nearest ten, a 5 kept as a half, then x 2 / 10 (64 -> 12, 55 -> 11)."""
    result = []
    for value in points:
        tens, digit = divmod(value, 10)
        result.append(2 * tens + (0 if digit < 5 else 1 if digit == 5 else 2))
    return result


# ----- S10.4 - S10.7: the deal's outcome ------------------------------------------------------

def khasara_team(sun: bool, level: int, buyers: int, last_caller_team, gp: list[int],
                 raw: list[int], rule: str):
    """S10.4: the team that fails the deal, or None."""
    defenders = 1 - buyers
    if gp[buyers] != gp[defenders]:
        return buyers if gp[buyers] < gp[defenders] else None
    if level > 1:
        return last_caller_team
    if rule == "split":
        return None
    if rule == "buyer_loses":
        return buyers
    if sun:
        return buyers if raw[buyers] < raw[defenders] else None
    return buyers if raw[buyers] <= raw[defenders] else None


def add_baloot(delta: list[int], baloots: list[int], loser, rule: str) -> None:
    """S10.6 d: never multiplied; a loser's baloot goes by option baloot_on_loss."""
    for team in (0, 1):
        if not baloots[team]:
            continue
        points = BALOOT_GP * baloots[team]
        if team != loser or rule == "kept":
            delta[team] += points
        elif rule == "to_winner":
            delta[1 - team] += points


def deal_outcome(deal: dict, options: dict) -> dict:
    """S10.2 - S10.7 for a played deal. `deal` holds sun, level, buyers, last_caller_team,
    card_points (c), last_trick_team, tricks_won, project_raw (P) and baloots (b), all per team.
    Returns delta, result, khasara_team, kaboot_team, the game points and whether gahwa ended it."""
    sun, buyers = deal["sun"], deal["buyers"]
    with_last = list(deal["card_points"])
    with_last[deal["last_trick_team"]] += 10
    project_raw, baloots = deal["project_raw"], deal["baloots"]
    project_gp = [p * (2 if sun else 1) // 10 for p in project_raw]
    raw = [with_last[t] + project_raw[t] + 20 * baloots[t] for t in (0, 1)]
    outcome = {"card_points_with_last": with_last, "project_gp": project_gp, "raw": raw,
               "kaboot_team": None, "gahwa": False}
    kaboot = next((t for t in (0, 1) if deal["tricks_won"][t] == 8), None)
    if kaboot is not None:
        return _kaboot(outcome, deal, kaboot, options)
    card_gp = (sun_card_gp if sun else hokum_card_gp)(with_last)
    gp = [card_gp[t] + project_gp[t] for t in (0, 1)]
    outcome.update(card_gp=card_gp, gp=gp)
    loser = khasara_team(sun, deal["level"], buyers, deal["last_caller_team"], gp, raw,
                         options["equal_points_rule"])
    if loser is None:
        points = list(gp)
        result = "split" if gp[0] == gp[1] else "made"
    else:
        taker = 1 - loser
        points = [0, 0]
        lost = project_gp[loser] if options["loser_projects"] == "to_winner" else 0
        points[taker] = (SUN_DEAL if sun else HOKUM_DEAL) + project_gp[taker] + lost
        result = "khasara" if loser == buyers else "made"
    return _multiplied(outcome, deal, points, loser, result, options)


def _multiplied(outcome, deal, points, loser, result, options) -> dict:
    """S10.6 a-d: the level multiplies the deal (not the baloot); gahwa gives 152 and the match."""
    level = deal["level"]
    if level == GAHWA:
        taker = deal["buyers"] if loser is None else 1 - loser
        delta = [0, 0]
        delta[taker] = GAHWA_POINTS
        return {**outcome, "delta": delta, "result": result, "khasara_team": loser, "gahwa": True}
    if level > 1:
        ahead = 0 if points[0] > points[1] else 1
        delta = [0, 0]
        delta[ahead] = (points[0] + points[1]) * level
    else:
        delta = list(points)
    add_baloot(delta, deal["baloots"], loser, options["baloot_on_loss"])
    return {**outcome, "delta": delta, "result": result, "khasara_team": loser}


def _kaboot(outcome, deal, winner, options) -> dict:
    """S10.7: 25 / 44 plus projects to the team that took every trick; a gahwa is just won."""
    loser = 1 - winner
    result = "khasara" if loser == deal["buyers"] else "made"
    failed = loser if result == "khasara" else None
    outcome.update(kaboot_team=winner)
    if deal["level"] == GAHWA:
        delta = [0, 0]
        delta[winner] = GAHWA_POINTS
        return {**outcome, "delta": delta, "result": result, "khasara_team": failed, "gahwa": True}
    gp = outcome["project_gp"]
    points = (SUN_KABOOT if deal["sun"] else HOKUM_KABOOT) + gp[winner]
    if options["loser_projects"] == "to_winner":
        points += gp[loser]
    if options["kaboot_multiplied"] and deal["level"] > 1:
        points *= deal["level"]
    delta = [0, 0]
    delta[winner] = points
    add_baloot(delta, deal["baloots"], loser, options["baloot_on_loss"])
    return {**outcome, "delta": delta, "result": result, "khasara_team": failed}
