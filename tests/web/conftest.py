"""Fixtures shared by the web tests."""

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def language_reset():
    """Start each test in the default language: a request in another one (the locale
    middleware activates it for the thread) must not carry over to the next test."""
    translation.deactivate()
    yield
    translation.deactivate()
