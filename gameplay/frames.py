"""Encoding the live table's frames (protocol.md) as JSON text.

Every move encodes one `state` frame per reader, on the event loop that serves all of a
process's sockets; orjson does it about five times faster than the standard library. Keys that
are not strings become strings, as `json.dumps` makes them.
"""

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(frame) -> str:
    return orjson.dumps(frame, option=_OPTIONS).decode()


_OWN_IN_VIEW = ("seat", "legal", "hand")  # what differs between readers' views (MatchState.views)
_OWN_IN_FRAME = ("seat", "legal", "view")


def split_states(messages: dict) -> tuple[str, dict]:
    """A move's `state` frames (reader -> frame, all built from one `views()` call, so equal
    but for each reader's own parts) as one shared head and a short tail per reader: reader r's
    frame is `head + tails[r]`, the same JSON object with its reader's keys last. The shared
    part is encoded once and travels once through the channel layer instead of five times."""
    spectator = messages["spectator"]
    shared = {key: value for key, value in spectator.items() if key not in _OWN_IN_FRAME}
    public_view = {key: value for key, value in spectator["view"].items() if key not in _OWN_IN_VIEW}
    head = encode(shared)[:-1] + ',"view":' + encode(public_view)[:-1] + ","
    tails = {}
    for reader, frame in messages.items():
        view = frame["view"]
        tails[str(reader)] = (f'"seat":{encode(view["seat"])},"legal":{encode(view["legal"])},'
                              f'"hand":{encode(view["hand"])}}},"seat":{encode(frame["seat"])},'
                              f'"legal":{encode(frame["legal"])}}}')
    return head, tails
