"""Duplicate competitions, the pure core: boards, movements and scoring (docs/duplicate.md).

Every table plays the same deals ("boards"); a pair's result on a board is compared only with
the pairs who held the same cards in the same seats. ``boards`` makes a board set from a seed and
reads one back (checked by the engine); ``movements`` says who meets whom, where, on which boards;
``scoring`` gives matchpoints or cross-points (Neuberg's formula for a board played by fewer
tables), the pair ranking and each board as a rated game. Pure Python: no Django import here.
"""
from __future__ import annotations

from .boards import Board, BoardSet, board_set_from_json, make_board_set
from .errors import BoardSetError, DuplicateError, MovementError, ScoringError
from .movements import BOT_PAIR, HOWELL, MITCHELL, SIT_OUT, Fit, Movement, Seating, fitting, make_movement, what_fits
from .scoring import (
    CROSS_POINTS, MATCHPOINTS, BoardScore, PairStanding, RatedBoard, TableResult, board_points,
    rank_pairs, rating_games, score_board, score_event,
)

__all__ = [
    "Board", "BoardSet", "board_set_from_json", "make_board_set",
    "BoardSetError", "DuplicateError", "MovementError", "ScoringError",
    "BOT_PAIR", "HOWELL", "MITCHELL", "SIT_OUT", "Fit", "Movement", "Seating", "fitting",
    "make_movement", "what_fits",
    "CROSS_POINTS", "MATCHPOINTS", "BoardScore", "PairStanding", "RatedBoard", "TableResult",
    "board_points", "rank_pairs", "rating_games", "score_board", "score_event",
]
