"""What the services hand back and raise: plain values, no database, no cache."""

from __future__ import annotations

from dataclasses import dataclass, field

from gameplay import frames

GROUP_PREFIX = "match-"


class ActionRejected(Exception):
    """An act the table refuses; `code` is one of the protocol's error codes."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class TableMovedOn(Exception):
    """The match row is no longer at the seq this process's cached table is at."""


@dataclass
class Outcome:
    """What an accepted action produced: the new seq and one `state` message per reader."""

    match_id: int
    seq: int
    ref: str | None = None
    messages: dict = field(default_factory=dict)  # seat (or "spectator") -> state message
    duplicate: bool = False  # the ref had been applied before: ack again, change nothing
    bot_next: bool = False  # a bot holds the seat to act next: aftermath.follow_up wakes it
    seats_changed: bool = False  # a seat's presence changed: every process drops its cached table


    def group_message(self) -> dict:
        """One channel-layer message for every socket of the match: the readers' frames already
        encoded as JSON text, as a shared head and a short tail per reader, so a socket forwards
        its own without decoding anything (msgpack keys must be strings)."""
        head, tails = frames.split_states(self.messages)
        message = {"type": "match.update", "seq": self.seq, "head": head, "tails": tails}
        if self.seats_changed:
            message["seats_changed"] = True
        return message


@dataclass
class LoggedAction:
    """The MatchAction row an accepted action becomes (a model instance costs more to build
    than the one-statement write that stores it)."""

    seq: int
    game_number: int
    seat: int | None
    action: dict
    ref: str | None
    actor_id: int | None


@dataclass
class SeatSpec:
    user: object = None
    bot: str = ""
    invited: bool = False  # the seat is kept for `user`, who has still to take it


def group_name(match_id: int) -> str:
    return f"{GROUP_PREFIX}{match_id}"


def error_frame(code: str, message: str, ref=None) -> dict:
    """The protocol's `error` frame (`ref`: the act's, when it had a usable one)."""
    return {"type": "error", "ref": ref, "code": code, "message": message}
