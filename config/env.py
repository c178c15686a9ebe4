"""Reading configuration from the environment (12-factor).

Small typed helpers so settings.py reads like a list of decisions, and one place that
knows how to turn a Redis URL into the forms Celery and Channels expect.
"""

import os

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name, default=None):
    return os.environ.get(name, default)


def env_bool(name, default=False):
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name, default):
    raw = os.environ.get(name)
    return default if raw in (None, "") else int(raw)


def env_list(name, default=()):
    """Comma-separated list; blanks dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def celery_broker_url(redis_url):
    """Kombu spells a Redis unix socket `redis+socket://`; redis-py spells it `unix://`."""
    if redis_url.startswith("unix://"):
        return "redis+socket://" + redis_url[len("unix://"):]
    return redis_url
