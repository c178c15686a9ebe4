"""The archive of a finished match: its timeline with every hand shown, and its scenario export.

Pure over the engine (no ORM): `timeline(spec, games)` replays each game of a match one action
at a time from its first deal and records, at every step, the public view plus every seat's hand
(from `card_places()`). The replay page hands it to static/js/replay.js. Only for finished
matches: the timeline shows every hidden card.
"""

from __future__ import annotations

from gameplay.scoresheet import deal_rows
from gameplay.table import MATCH_ACTIONS, MatchSpec, Table
from gameplay.table import game_start as table_game_start

# Parts of the public view the stepper does not need at every step (they repeat or grow).
DROPPED = ("deals", "legal", "hand", "played", "tricks", "seat", "match")


def game_start(spec: MatchSpec, number: int, deals_used: int = 1):
    """Game `number` of a match at its first deal, as gameplay.table.Table starts it (a board
    with the deals it used: its deal and the spares its redeals took)."""
    return table_game_start(spec, number, deals_used)


# What a view says about the deal in progress: at the step that closes a deal these come from
# the deal that just ended, not from the next one the engine has already dealt.
DEAL_KEYS = ("dealer", "trump", "turn_ups", "contract", "multiplier", "trump_card", "declarer", "sits_out",
             "deal_number", "bidder", "buyer")
NEXT_DEAL_COUNTS = ("tricks_won", "card_points", "game_totals", "cante_points")


def frame(state, action, deck) -> dict:
    view = state.view(None)
    places = state.card_places()
    hands = [deck.codes_of_mask(places.get(f"hand{seat}", 0)) for seat in range(state.players)]
    closed = any(e["kind"] == "deal_over" for e in view["events"])
    record = view["deals"][-1] if view["deals"] and closed else None
    number = len(view["deals"])
    for key in DROPPED:
        view.pop(key, None)
    return {"action": action, "view": view, "hands": hands, "deal_record": record, "deal_record_number": number}


def split_at_new_deal(closing: dict, before: dict) -> list[dict]:
    """An action that ends a deal makes the engine deal the next one at once. The stepper shows
    that as two steps, so each is what its label says: the action ending deal n (with deal n's
    table, hands and summary), then the start of deal n+1 (no action; its summary stays shown)."""
    events = closing["view"]["events"]
    ends = [i for i, e in enumerate(events) if e["kind"] == "deal_over"]
    cut = ends[-1] + 1 if ends else len(events)
    if cut == len(events):
        return [closing]
    played = closing["action"].get("card")
    hands = [[code for code in hand if code != played] for hand in before["hands"]]
    ended = {k: v for k, v in closing["view"].items() if k not in DEAL_KEYS + NEXT_DEAL_COUNTS}
    ended.update({k: before["view"][k] for k in DEAL_KEYS if k in before["view"]})
    ended.update({"events": events[:cut], "trick": [], "to_act": None,
                  "last_trick": last_trick(events[:cut], before["view"], played)})
    starting = dict(closing, action=None, view=dict(closing["view"], events=events[cut:]))
    return [dict(closing, view=ended, hands=hands), starting]


def last_trick(events: list, before: dict, played) -> dict | None:
    """The trick an action closed, in the view's shape: the cards on the table before it, then
    the card it played; the winner from the trick_won event."""
    won = next((e for e in reversed(events) if e["kind"] == "trick_won"), None)
    if won is None or played is None:
        return None
    trick = before.get("trick") or []
    cards = [place["card"] for place in trick] + [played]
    leader = trick[0]["seat"] if trick else won["seat"]
    return {"leader": leader, "cards": cards, "winner": won["seat"]}


def replay_log(spec: MatchSpec, actions) -> tuple[Table, dict]:
    """The match's table after every logged action (as gameplay.log.replay), and its match-level
    acts (concessions, leaves, bot replacements: table.MATCH_ACTIONS) by where they came:
    {(game number, engine actions of that game before it): [{"action", "events"}, ...]}."""
    table = Table(spec)
    acts = {}
    for action in actions:
        where = (table.game_number, len(table.state.actions))
        events = table.apply(action)
        if action.get("type") in MATCH_ACTIONS:
            acts.setdefault(where, []).append({"action": action, "events": events})
    return table, acts


def act_frames(before: dict, acts: list[dict]) -> list[dict]:
    """A step per match-level act: the table as it was, the act and its events (a concession
    or a leave that ends the match ends the replay with it)."""
    frames = []
    for act in acts:
        over = any(event["kind"] == "match_over" for event in act["events"])
        view = dict(before["view"], events=act["events"], **({"to_act": None, "trick": []} if over else {}))
        frames.append(dict(before, action=act["action"], view=view, deal_record=None))
        before = frames[-1]
    return frames


def game_timeline(spec: MatchSpec, number: int, actions: list[dict], acts: dict | None = None,
                  deals_used: int = 1) -> list[dict]:
    acts = acts or {}
    state = game_start(spec, number, deals_used)
    deck = state.game.deck
    frames = [frame(state, None, deck)]
    for index, action in enumerate(actions):
        frames += act_frames(frames[-1], acts.get((number, index), []))
        state.apply(dict(action))
        frames += split_at_new_deal(frame(state, action, deck), frames[-1])
    return frames + act_frames(frames[-1], acts.get((number, len(actions)), []))


def timeline(spec: MatchSpec, games: list, acts: dict | None = None) -> list[list[dict]]:
    """One list of frames per game; `games` are the engine states of `Table.all_games()`, `acts`
    the match-level acts of `replay_log` (each a step of its own where it came)."""
    return [game_timeline(spec, number, game.actions, acts, len(game.given_deals or ()) or 1)
            for number, game in enumerate(games)]


def scenario(games: list, number: int) -> dict | None:
    """Game `number` as a contract scenario with its score sheet (None when there is no such game)."""
    if not 0 <= number < len(games):
        return None
    # The score sheet rides along for people (an extension key the engine's replay ignores).
    return {**games[number].scenario(), "score_sheet": deal_rows(games[number].deal_records)}


def final_score(result: dict, games_to_win: int) -> list | None:
    """The score the archive list shows: games won in a best of N, else the one game's points."""
    if games_to_win > 1:
        return result.get("games_won")
    games = result.get("games") or []
    return games[-1]["score"] if games else None
