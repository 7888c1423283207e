"""Compile the gettext catalogs under ``locale/`` without GNU gettext.

Django's own ``compilemessages`` needs the ``msgfmt`` program; this command needs only the
``polib`` package, so ``make run`` works on a machine with nothing but Python.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Compile every .po file under LOCALE_PATHS into a .mo file beside it (needs no msgfmt)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true", help="Compile even catalogs whose .mo is up to date."
        )

    def handle(self, *args, force: bool = False, **options) -> None:
        compiled = 0
        for locale_dir in map(Path, settings.LOCALE_PATHS):
            for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if (
                    not force
                    and mo_path.exists()
                    and mo_path.stat().st_mtime >= po_path.stat().st_mtime
                ):
                    continue
                try:
                    catalog = polib.pofile(str(po_path))
                except (OSError, ValueError) as error:
                    raise CommandError(f"{po_path}: {error}") from error
                catalog.save_as_mofile(str(mo_path))
                compiled += 1
                self.stdout.write(f"compiled {po_path}")
        self.stdout.write(f"{compiled} catalog(s) compiled.")
