"""A replay includes the match-level acts (issue 32): a leaver's seat taken by a bot, a proposal
to concede and the concession that ends the match, each a step of its own, and the replay page
says how the match ended (not "Games 0 – 0" and no reason)."""

import orjson
import pytest
from django.urls import reverse

from gameplay import replay_cache, services
from gameplay.models import Match

from .helpers import make_match

pytestmark = pytest.mark.django_db


def conceded_after_a_leave():
    """Seats 0 and 1 people, 2 and 3 bots: seat 1 leaves (a bot plays on), then seat 0 concedes
    and its bot partner agrees at once."""
    match, (first, second) = make_match("allfours", humans=2, bots=2)
    services.take(match.pk, services.Act.at_table(second, "l-1", "leave"))
    services.take(match.pk, services.Act.at_table(first, "k-1", "concede"))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finish == "conceded" and match.winner == 1
    return match, first


def test_the_replay_timeline_has_a_step_for_the_leave_and_for_the_concession_that_ends_it():
    match, _first = conceded_after_a_leave()
    frames = orjson.loads(replay_cache.replay_data(match).games_json)[-1]
    acts = [(frame["action"]["type"], [event["kind"] for event in frame["view"]["events"]])
            for frame in frames if frame["action"] and frame["action"]["type"] in ("replace", "concede")]
    assert acts == [("replace", ["replaced"]), ("concede", ["concede_proposed"]),
                    ("concede", ["conceded", "match_over"])]
    last = frames[-1]
    assert last["action"] == {"type": "concede", "seat": 2}
    assert last["view"]["events"][-1] == {"kind": "match_over", "winner": 1, "finish": "conceded"}
    assert last["view"]["to_act"] is None
    assert len(last["hands"]) == 4  # the table as it was when the match was conceded


def test_the_replay_page_says_who_won_and_that_a_concession_decided_it(client):
    match, first = conceded_after_a_leave()
    client.force_login(first)
    page = client.get(reverse("gameplay:replay", args=[match.pk])).content.decode()
    assert 'data-testid="replay-ending"' in page
    assert "won the match. Decided by a concession." in page
    assert "Games 0" not in page  # a single game: no games score that reads like nobody won
