"""The score sheet (issue 32): every deal's points for both teams and the running total, the
Baloot players' «صكة», All Fours' points per deal, La Cuatrola's deals.

Pure (no Django): derived from the engine's deal records (`MatchState.deal_records`, the same
`delta` and `score` every view's `deals` carries), so the live table (static/js/table.js reads
`view.deals` and `view.match.sheets`), the replay (static/js/replay.js reads each step's
`deal_record`) and the export (`score_sheet`, an extension key of the scenario that replay
ignores: docs/contracts/engine.md) all show the same numbers. A row:

    {"deal": 1, "points": [16, 10], "total": [16, 10]}

`deal` counts the deals the engine closed, redeals included (a redeal scores [0, 0]), as the
table's "Deal n" does.
"""

from __future__ import annotations


def deal_rows(records) -> list[dict]:
    """One row per closed deal, in order: what each team scored in it and the score after it."""
    return [{"deal": number, "points": list(record["delta"]), "total": list(record["score"])}
            for number, record in enumerate(records, 1)]


def score_sheet(games) -> list[dict]:
    """The sheet of a whole match: one entry per game (engine states, `Table.all_games()`)."""
    return [{"game": number, "deals": deal_rows(game.deal_records)} for number, game in enumerate(games, 1)]
