"""Who played each match for a pair (docs/competitions.md "Substitutions"): a pairing's `lineup`,
written when the pairing is made and again when its table opens, and never once it is decided. A
substitution changes the pair's players for its later matches only: the pair keeps the name it
entered with, and its earlier rounds keep who played them.
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.models import EntryPlayer, Pairing


def _name(user) -> str:
    player = getattr(user, "player", None)
    return (player.name if player else "") or user.get_username()


def players_of(entry_ids: Iterable[int | None]) -> dict[int, list[list]]:
    """Entry id -> [[user id, name], ...] in seat order, in one query."""
    ids = {e for e in entry_ids if e is not None}
    found: dict[int, list[list]] = {}
    for place in (EntryPlayer.objects.filter(entry_id__in=ids).select_related("user__player")
                  .order_by("entry_id", "position")):
        found.setdefault(place.entry_id, []).append([place.user_id, _name(place.user)])
    return found


def lineup(pairing: Pairing, players: dict[int, list[list]]) -> dict:
    return {"home": players.get(pairing.home_id, []), "away": players.get(pairing.away_id, [])}


def fill(pairings: list[Pairing]) -> None:
    """Set (not save) each pairing's lineup from its pairs' players as they are now."""
    players = players_of(e for p in pairings for e in (p.home_id, p.away_id))
    for pairing in pairings:
        pairing.lineup = lineup(pairing, players)


def refresh_unplayed(entry_id: int) -> int:
    """After a substitution: the pair's pairings not decided and without a table take its players
    as they are now; those already played (or playing) keep theirs. Returns how many changed."""
    from django.db.models import Q

    pairings = list(Pairing.objects.filter(Q(home_id=entry_id) | Q(away_id=entry_id), decided_at__isnull=True,
                                           match_id__isnull=True))
    fill(pairings)
    Pairing.objects.bulk_update(pairings, ["lineup"])
    return len(pairings)


def played_by(pairing: Pairing, side: str, pair_name: str) -> str:
    """The names of who played this side, when they are not what the pair's name says (a
    substitute, or a pair with a name of its own); "" otherwise."""
    names = [name for _id, name in (pairing.lineup or {}).get(side, [])]
    if not names:
        return ""
    joined = " & ".join(names)
    return "" if joined == pair_name else joined
