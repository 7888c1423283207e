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

Three costs of a render are cut where Jinja2 lets an environment choose (together they were
about a third of a Durak table's render): a translation is looked up once per language and
message, not once per render (and formatted once too when its count is its only value); ``_()``
and ``{% trans %}`` call the translation functions at once, not through Jinja2's own wrappers
(two more calls each, with a test of how to pass the context); and ``a.b`` on a dictionary
(most of the table's context) no longer raises and catches an ``AttributeError`` before it
reads the key. The translations behave as Jinja2's "newstyle" ones: a translation is always a
format string (``%(name)s``, ``%%``), its values escaped.
"""

import functools
from pathlib import Path
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.html import escape
from markupsafe import Markup

from cardgames import languages
from cardgames.templatetags.cards import card, suited
from jinja2 import ChainableUndefined, Environment

# What ``getattr`` returns for a missing attribute, where no attribute value can be it.
_MISSING = object()
# How many translations (a language, a message and, for plurals, a count) are kept.
TRANSLATIONS_KEPT = 8192


class TableEnvironment(Environment):
    """Jinja2's environment, with a lookup of ``a.b`` that gives the same answer for less."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj``'s attribute, else its item, else undefined (as Jinja2's own does); a
        missing attribute is not raised and caught, which costs a microsecond or two a time,
        and the table's context is mostly dictionaries."""
        value = getattr(obj, attribute, _MISSING)
        if value is not _MISSING:
            return value
        try:
            return obj[attribute]
        except (TypeError, LookupError, AttributeError):
            return self.undefined(obj=obj, name=attribute)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend renders the table's templates with."""
    # In place of the backend's choice, which under DEBUG prints a missing name as "{{ name }}".
    options["undefined"] = ChainableUndefined
    env = TableEnvironment(extensions=["jinja2.ext.i18n"], **options)
    env.policies["ext.i18n.trimmed"] = True
    env.newstyle_gettext = True  # read when a template is compiled: ``{% trans %}`` uses these
    env.globals.update(
        _=gettext, gettext=gettext, ngettext=ngettext, pgettext=pgettext, npgettext=npgettext
    )
    env.globals.update(card=card, url=url)
    env.filters["suited"] = suited
    return env


def url(name: str, *args: Any) -> str:
    """The path of the URL named ``name`` (``{% url %}``)."""
    return reverse(name, args=args)


def gettext(message: str, /, **values: Any) -> str:
    """``_("…")`` and ``{% trans %}``: ``message`` in the active language, with ``values``."""
    if not values:
        return _formatted(languages.current(), "gettext", message)
    return _translated(languages.current(), "gettext", message) % values


def ngettext(singular: str, plural: str, number: int, /, **values: Any) -> str:
    """``{% trans %}…{% pluralize %}``: the form for ``number``, with ``values``."""
    if not values and isinstance(number, int):
        return _formatted(languages.current(), "ngettext", singular, plural, number)
    values.setdefault("num", number)
    return _translated(languages.current(), "ngettext", singular, plural, number) % values


def pgettext(context: str, message: str, /, **values: Any) -> str:
    """``pgettext("context", "…")``: ``message`` as meant in ``context``, with ``values``."""
    values.setdefault("context", context)
    return _translated(languages.current(), "pgettext", context, message) % values


def npgettext(context: str, singular: str, plural: str, number: int, /, **values: Any) -> str:
    """The form for ``number`` as meant in ``context``, with ``values``."""
    values.setdefault("context", context)
    values.setdefault("num", number)
    translated = _translated(languages.current(), "npgettext", context, singular, plural, number)
    return translated % values


@functools.lru_cache(maxsize=TRANSLATIONS_KEPT)
def _translated(language: str | None, name: str, *args: Any) -> Markup:
    # HTML-escaped: a translation is text, not markup; as Jinja2's ``Markup``, whose ``%``
    # escapes the values put into it. Kept until a catalogue changes (``forget_translations``).
    with translation.override(language):
        return Markup(escape(getattr(translation, name)(*args)))


@functools.lru_cache(maxsize=TRANSLATIONS_KEPT)
def _formatted(language: str | None, name: str, *args: Any) -> Markup:
    # A translation whose only value, if any, is its count (most of a table's): formatted
    # once, as the translation is looked up once; the ``%`` of a ``Markup`` was a tenth of a
    # table's render.
    values = {"num": args[-1]} if name == "ngettext" else {}
    return _translated(language, name, *args) % values


def forget_translations(sender: Any, file_path: Path, **kwargs: Any) -> None:
    """A catalogue changed (``manage.py compilemessages`` while the development server runs):
    the translations kept are forgotten, as Django forgets its catalogues then."""
    if file_path.suffix == ".mo":
        _translated.cache_clear()
        _formatted.cache_clear()


file_changed.connect(forget_translations, dispatch_uid="cardgames.jinja.forget_translations")
