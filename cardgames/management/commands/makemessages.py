"""``manage.py makemessages``, which also reads the Jinja2 templates of the ``jinja2/`` folders.

Django's command reads every template as one of its own: in a Jinja2 template it would find
the ``_("…")`` calls but not the ``{% trans %}`` blocks, and ``make messages`` would then drop
their strings, translations and all, from the catalogs. For a file under a ``jinja2`` folder,
this command lets Jinja2 list the strings (``Environment.extract_translations``, with the
site's environment, so with its policies) and hands ``xgettext`` the matching ``gettext`` calls,
each on its template line, where Django would hand it its own reading of the template.
"""

from functools import cached_property
from pathlib import Path

from django.core.management.commands import makemessages
from django.template import engines

from cardgames.render import TABLE_ENGINE

# Jinja2's translation functions: what xgettext knows each as, and how many strings it takes
# (a plural one also takes the count, written ``n`` here).
FUNCTIONS = {
    "_": ("gettext", 1),
    "gettext": ("gettext", 1),
    "ngettext": ("ngettext", 2),
    "pgettext": ("pgettext", 2),
    "npgettext": ("npgettext", 3),
}


def gettext_calls(source: str) -> str:
    """Python code with a call of the matching function for each string the Jinja2 template
    ``source`` translates, on the same line as in the template."""
    lines: list[str] = []
    for line, function, message in engines[TABLE_ENGINE].env.extract_translations(source):
        if function not in FUNCTIONS:
            continue
        name, count = FUNCTIONS[function]
        strings = (message if isinstance(message, tuple) else (message,))[:count]
        if None in strings:
            continue  # not a string of its own (a variable passed to ``_``)
        plural = ", n" if name.startswith("n") else ""
        lines.extend([""] * (line - 1 - len(lines)))
        lines.append(f"{name}({', '.join(map(repr, strings))}{plural})")
    return "\n".join(lines) + "\n"


class JinjaAwareBuildFile(makemessages.BuildFile):
    """A file on its way to ``xgettext``; a Jinja2 template's strings are read by Jinja2."""

    @cached_property
    def is_jinja(self) -> bool:
        return self.is_templatized and "jinja2" in Path(self.path).parts

    def preprocess(self) -> None:
        if not self.is_jinja:
            super().preprocess()
            return
        source = Path(self.path).read_text(encoding="utf-8")
        Path(self.work_path).write_text(gettext_calls(source), encoding="utf-8")


class Command(makemessages.Command):
    build_file_class = JinjaAwareBuildFile
