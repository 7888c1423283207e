"""Delete online rooms nobody has used for a while, like Django's ``clearsessions``.

Run it daily from cron or a scheduler: ``python manage.py purge_idle_rooms``.
"""

from django.core.management.base import BaseCommand, CommandError

from cardgames.rooms import IDLE_DAYS, purge_idle_rooms


class Command(BaseCommand):
    help = (
        f"Delete online rooms idle (no move, seat taken or consent) for {IDLE_DAYS} days or "
        "more. Games saved vs the computer or for pass and play are never touched."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--days",
            type=int,
            default=IDLE_DAYS,
            help=f"Delete rooms idle for at least this many days (default {IDLE_DAYS}).",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Only say how many rooms would be deleted; delete nothing.",
        )

    def handle(self, *args, days: int, dry_run: bool, **options) -> None:
        if days < 1:
            raise CommandError("--days must be at least 1.")
        count = purge_idle_rooms(days, dry_run=dry_run)
        rooms = "room" if count == 1 else "rooms"
        if dry_run:
            self.stdout.write(f"{count} idle {rooms} would be deleted (dry run).")
        else:
            self.stdout.write(f"Deleted {count} idle {rooms}.")
