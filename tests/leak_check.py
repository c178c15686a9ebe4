"""Does a view or a socket frame show a card hidden from its reader?

Shared by the engine conformance suite and the live leak test. Engines name where each card is
(`card_places()`: `hand{seat}` private to that seat, `stock…`/`hidden…` private to all, the rest
public) and which held cards were shown (`revealed_cards()`).
"""

from __future__ import annotations

import re

CARD_CODE = re.compile(r"^(?:[AKQJT98765432][SHDC]|(?:1[012]|[13])[OCEB])$")


def hidden_from(state, seat, include_stock: bool = True) -> set[str]:
    """Codes of the cards `seat` (None: a spectator) may not see in this engine state."""
    hidden = 0
    for name, mask in state.card_places().items():
        private_to = int(name[4:]) if name.startswith("hand") else None
        secret = include_stock and name.startswith(("stock", "hidden"))
        if secret or (private_to is not None and private_to != seat):
            hidden |= mask
    hidden &= ~state.revealed_cards()
    return set(state.game.deck.codes_of_mask(hidden))


def codes_in(value) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        if CARD_CODE.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= codes_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= codes_in(item)
    return found


def split_events(events: list) -> tuple[list, list]:
    """Events of a deal the action closed, and events of the deal now in progress."""
    starts = [i for i, event in enumerate(events) if event.get("kind") in ("deal", "new_game")]
    cut = starts[-1] if starts else 0
    return events[:cut], events[cut:]


def leaked(view: dict, hidden_now: set, held_before: set, action: dict | None,
           outer_events: list | None = None) -> set[str]:
    """Hidden cards a view shows. The current part (and events since the last deal began) may show
    no card hidden now. Events and the record of a deal the action just closed may name that
    deal's cards, which can sit in other hands after a redeal: they leak only if another seat held
    them before the action (less the card the action itself played). `outer_events` is a second
    event list (a socket frame's own) judged the same way."""
    current = {k: v for k, v in view.items() if k not in ("deals", "events")}
    found = codes_in(current) & hidden_now
    played = {action.get("card")} if action else set()
    for events in (view.get("events", []), outer_events or []):
        closed, current_events = split_events(events)
        closed_records, current_records = records_closed_by(view.get("deals", []), closed, current_events)
        found |= codes_in([current_events, current_records]) & hidden_now
        found |= codes_in([closed, closed_records]) & (held_before - played)
    return found


def records_closed_by(records: list, closed: list, current: list) -> tuple[list, list]:
    """The deal records the action closed: those of the deal(s) it ended, and the one of a deal
    it began and ended at once (a kick that wins the match)."""
    ended = sum(e.get("kind") == "deal_over" for e in closed)
    began_and_ended = sum(e.get("kind") == "deal_over" for e in current)
    total = ended + began_and_ended
    recent = records[-total:] if total else []
    return recent[:ended], recent[ended:]


CARD_TOKEN = re.compile(r"(?<![\w#-])(?:[AKQJT98765432][SHDC]|(?:1[012]|[13])[OCEB])(?![\w-])")


def cards_on_page(html: str) -> set[str]:
    """Card codes written anywhere in a page (text, attributes, embedded JSON)."""
    return set(CARD_TOKEN.findall(html))
