"""The score sheet (issue 32): every deal's points for both teams at the table, in the replay and
in the export, derived from the engine's deal records (gameplay/scoresheet.py)."""

import pytest

from gameplay import log, services
from gameplay.rules.replay import replay
from gameplay.scoresheet import deal_rows
from gameplay.services import SeatSpec
from gameplay.table import Table

pytestmark = pytest.mark.django_db(transaction=True)


def finished_bot_match(game, options=None, **kwargs):
    match = services.create_match(game, options or {}, [SeatSpec(bot="random")] * 4, seed=5, first_dealer=0,
                                  **kwargs)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def table_after_deals(match, deals: int) -> Table:
    """The live table as it stood the moment its `deals`-th deal closed."""
    table = Table(log.spec_of(match))
    for action, _ref in log.log_of(match.pk):
        if len(table.state.deal_records) >= deals:
            break
        table.apply(action)
    assert len(table.state.deal_records) == deals
    return table


@pytest.mark.parametrize("game, options", [("allfours", {}), ("baloot", {"game_mode": "saudi_classic"}),
                                           ("cuatrola", {})])
def test_after_three_deals_the_table_sheet_matches_the_export(client, game, options):
    match = finished_bot_match(game, options)
    exported = client.get(f"/matches/{match.pk}/export.json").json()
    sheet = exported["score_sheet"]
    assert len(sheet) >= 3
    # what the table showed after three deals (its view's deals) is the export's first three rows
    view = table_after_deals(match, 3).view(0)
    shown = [{"deal": n, "points": d["delta"], "total": d["score"]} for n, d in enumerate(view["deals"], 1)]
    assert shown == sheet[:3]
    # every row adds up, and the export's sheet agrees with the engine's replay of the same file
    for before, row in zip([{"total": [0, 0]}] + sheet, sheet):
        assert [before["total"][t] + row["points"][t] for t in (0, 1)] == row["total"]
    result, status = replay(exported)  # the extension key does not break the scenario contract
    assert status == 0
    assert [{"deal": n, "points": d["delta"], "total": d["score"]} for n, d in enumerate(result["deals"], 1)] == sheet


def test_a_best_of_three_keeps_the_sheets_of_the_games_already_decided(client):
    match = finished_bot_match("allfours", {"target_score": 3}, games_to_win=2)
    table = log.replay(match)
    games = table.all_games()
    assert len(games) >= 2
    # at the start of game 2, the table still shows game 1's sheet, as the export of game 1 has it
    second = Table(log.spec_of(match))
    for action, _ref in log.log_of(match.pk):
        if second.game_number == 1:
            break
        second.apply(action)
    first_export = client.get(f"/matches/{match.pk}/export.json?game=0").json()["score_sheet"]
    assert second.view(0)["match"]["sheets"] == [first_export]
    assert first_export == deal_rows(games[0].deal_records)
