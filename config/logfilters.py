"""Logging that says what happened without leaking secrets."""

import logging
import os
import re

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

# scheme://user:password@host -> scheme://user:***@host
URL_PASSWORD = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^:/@\s]*):(?P<password>[^@/\s]+)@", re.I)
SECRET_ENV_VARS = ("SECRET_KEY", "EMAIL_HOST_PASSWORD")


def redact(text):
    text = URL_PASSWORD.sub(r"\g<scheme>\g<user>:***@", text)
    for name in SECRET_ENV_VARS:
        value = os.environ.get(name)
        if value and len(value) >= 8:
            text = text.replace(value, "***")
    return text


class RedactSecretsFilter(logging.Filter):
    """Rewrites the formatted message (and exception text) of every record it sees."""

    def filter(self, record):
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


class ClientFaultFilter(logging.Filter):
    """A client's fault that a library logs as our error becomes one warning line.

    uvicorn (protocols/websockets/websockets_sansio_impl.py) logs a text frame that is not UTF-8
    as an ERROR with its traceback before it closes the socket with 1007: a client can fill the
    log with tracebacks that say nothing about Chalk (docs/live-protocol.md, close codes)."""

    MESSAGES = {"Invalid UTF-8 sequence received from client.":
                "Invalid UTF-8 sequence received from a websocket client: closed with 1007."}

    def filter(self, record):
        if record.msg in self.MESSAGES and not record.args:
            record.msg = self.MESSAGES[record.msg]
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            record.exc_info, record.exc_text = None, None
        return True


class RedisAwayFilter(logging.Filter):
    """Redis out of reach, as channels_redis's receiver logs it, becomes one warning line.

    channels_redis (pubsub.py, `_do_receiving`) logs every failure of its subscription as an
    ERROR with a traceback, once a second while Redis is away (restarting, failing over): a
    fault of the network, not a bug, and the receiver subscribes again by itself when Redis is
    back (tests/gameplay/test_redis_restart.py)."""

    def filter(self, record):
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and _redis_away(error):
            record.msg, record.args = "the channel layer's subscription lost Redis (%s: %s); retrying", (
                type(error).__name__, error)
            record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
            record.exc_info, record.exc_text = None, None
        return True


def _redis_away(error: BaseException) -> bool:
    return isinstance(error, (RedisConnectionError, RedisTimeoutError, OSError))
