"""The language a table is being rendered in, read for a fraction of Django's cost.

Django's ``get_language()`` reads an asgiref ``Local`` (a lock and a context look-up, about
3 µs), and a table asks for its language some fifty times a render: each card's face and name,
each translated phrase. A render of a table sets its language once (:func:`rendering`) and
:func:`current` then reads it from a context variable; outside such a render it is Django's.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.utils import translation

_rendering: ContextVar[str | None] = ContextVar("cardgames_rendering_language", default=None)


@contextmanager
def rendering(language: str) -> Iterator[None]:
    """Activate ``language`` (as ``translation.override`` does) for a render, and make it the
    one :func:`current` tells at once. Nothing inside may activate another language."""
    token = _rendering.set(language)
    try:
        with translation.override(language):
            yield
    finally:
        _rendering.reset(token)


def current() -> str | None:
    """The active language: the one of the render under way, else Django's."""
    return _rendering.get() or translation.get_language()
