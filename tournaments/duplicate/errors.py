"""The errors of duplicate competitions: each says what is wrong in words a person can read."""
from __future__ import annotations


class DuplicateError(ValueError):
    """Anything refused by the duplicate package; ``str(error)`` is the reason."""


class BoardSetError(DuplicateError):
    """A board set that cannot be made or imported.

    ``board`` is the board's number (None when the set as a whole is wrong) and ``card`` the card
    code at fault (None when no single card is)."""

    def __init__(self, reason: str, board: int | None = None, card: str | None = None):
        self.reason, self.board, self.card = reason, board, card
        super().__init__(reason if board is None else f"board {board}: {reason}")


class MovementError(DuplicateError):
    """A movement that does not fit the number of pairs (the reason says what would)."""


class ScoringError(DuplicateError):
    """Results that cannot be scored together (a pair twice on a board, an unknown method)."""
