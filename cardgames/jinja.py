"""The Jinja2 environment of the table's templates (the ``jinja2/`` folders).

A table is rendered for every seat after every move, and with Django's template language that
render was the largest part of a move's cost (about 2 ms of a Durak table's 4); Jinja2 compiles
a template to Python code and renders the same table several times faster. The pages around the
table stay Django templates; they take the table as rendered HTML.

The environment behaves as the Django templates did where it shows: every value is escaped,
translations too (``{% translate %}`` escaped them); a name missing from the context renders
as nothing, even ``a.b.c`` (``ChainableUndefined``); ``{% trans %}`` blocks are trimmed, as the
``trimmed`` blocks were. ``manage.py makemessages`` reads the same templates
(``cardgames/management/commands/makemessages.py``).
"""

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from cardgames.templatetags.cards import card, suited
from jinja2 import ChainableUndefined, Environment


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend renders the table's templates with."""
    # In place of the backend's choice, which under DEBUG prints a missing name as "{{ name }}".
    options["undefined"] = ChainableUndefined
    env = Environment(extensions=["jinja2.ext.i18n"], **options)
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(
        gettext=_escaped(translation.gettext),
        ngettext=_escaped(translation.ngettext),
        pgettext=_escaped(translation.pgettext),
        npgettext=_escaped(translation.npgettext),
        newstyle=True,
    )
    env.globals.update(card=card, url=url)
    env.filters["suited"] = suited
    return env


def url(name: str, *args: Any) -> str:
    """The path of the URL named ``name`` (``{% url %}``)."""
    return reverse(name, args=args)


def _escaped(translate: Callable[..., str]) -> Callable[..., str]:
    """``translate``, whose result is HTML-escaped: a translation is text, not markup."""

    def escaped(*args: Any) -> str:
        return escape(translate(*args))

    return escaped
