"""What makes Chalk fast under ASGI, in one place: every override of a library's behaviour or
internals that the live path and the pages depend on. tuning/README.md lists each one, the
library internal it touches, why, the figure that pays for it, and the test pinned to the
library's version (tests/tuning/test_pinned_overrides.py) that fails loudly on an upgrade.

Nothing here knows about matches, clubs or competitions: gameplay and config build on it.
"""

# Every override that can be switched off for one run (CHALK_TUNING_OFF, a comma-separated list
# read once at start-up by config/settings.py; production: none, every override on).
# benchmarks/overrides.py measures each one against a run without it.
OVERRIDES = ("asgi_http", "cache", "channel_layer", "loop_writes", "broadcast", "garbage")


def switched_off(text: str) -> frozenset[str]:
    """The overrides named in CHALK_TUNING_OFF; an unknown name is a mistake, not a no-op."""
    names = frozenset(name.strip() for name in text.split(",") if name.strip())
    unknown = names - set(OVERRIDES)
    if unknown:
        raise ValueError(f"CHALK_TUNING_OFF names no override: {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(OVERRIDES)})")
    return names
