"""Tests here create matches whose ids later tests reuse (the test database starts over): drop
the process's cached live tables after each test, so no later test reads one of ours."""

import pytest


@pytest.fixture(autouse=True)
def forget_live_tables():
    yield
    from gameplay.services import tables

    for match_id in list(tables._tables):
        tables.forget_table(match_id)
