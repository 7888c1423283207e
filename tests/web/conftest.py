"""Fixtures shared by the web tests."""

import pytest

from cardgames import bots


@pytest.fixture(autouse=True)
def bots_settle():
    """Let every bot woken by a test finish before the test's database goes away."""
    yield
    assert bots.wait_idle(timeout=30), "a bot was still playing 30 s after the test"
