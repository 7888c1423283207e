"""Fixtures shared by the web tests."""

import pytest
from django.utils import translation

from cardgames import bots


@pytest.fixture(autouse=True)
def bots_settle():
    """Let every bot woken by a test finish before the test's database goes away."""
    yield
    assert bots.wait_idle(timeout=30), "a bot was still playing 30 s after the test"


@pytest.fixture(autouse=True)
def language_reset():
    """Start each test in the default language: a request in another one (the locale
    middleware activates it for the thread) must not carry over to the next test."""
    translation.deactivate()
    yield
    translation.deactivate()
