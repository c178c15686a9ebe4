"""Encoding the live table's frames (protocol.md) as JSON text.

Every move encodes one `state` frame per reader, on the event loop that serves all of a
process's sockets; orjson does it about five times faster than the standard library. Keys that
are not strings become strings, as `json.dumps` makes them.
"""

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def encode(frame) -> str:
    return orjson.dumps(frame, option=_OPTIONS).decode()
