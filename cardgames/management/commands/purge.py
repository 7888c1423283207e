"""Delete what the site no longer keeps, like Django's ``clearsessions``: rooms idle for a
week, saves untouched for ``SAVE_DAYS`` (180) days, and browsers left with nothing.

Run it daily from cron or a scheduler: ``python manage.py purge``.
"""

from django.core.management.base import BaseCommand, CommandError

from cardgames import retention


class Command(BaseCommand):
    help = (
        f"Delete online rooms idle (no move, seat taken or consent) for {retention.IDLE_DAYS} "
        "days or more, games saved vs the computer or for pass and play untouched for "
        "SAVE_DAYS days or more (a setting, 180 by default), game records as old, and browsers "
        "that have no save and no seat left and have not been seen for as long."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--room-days",
            type=int,
            default=retention.IDLE_DAYS,
            help=f"Delete rooms idle for at least this many days (default {retention.IDLE_DAYS}).",
        )
        parser.add_argument(
            "--save-days",
            type=int,
            default=None,
            help="Delete saves and empty browsers untouched for at least this many days "
            "(default: the SAVE_DAYS setting).",
        )
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Only say how many would be deleted; delete nothing.",
        )

    def handle(self, *args, room_days: int, save_days: int | None, dry_run: bool, **options):
        days = retention.save_days() if save_days is None else save_days
        if room_days < 1 or days < 1:
            raise CommandError("--room-days and --save-days must be at least 1.")
        purged = retention.purge(room_days, days, dry_run=dry_run)
        counts = (
            f"{purged.rooms} idle {'room' if purged.rooms == 1 else 'rooms'}, "
            f"{purged.saves} old {'save' if purged.saves == 1 else 'saves'}, "
            f"{purged.records} old {'record' if purged.records == 1 else 'records'}, "
            f"{purged.browsers} empty {'browser' if purged.browsers == 1 else 'browsers'}"
        )
        if dry_run:
            self.stdout.write(f"Would delete {counts} (dry run).")
        else:
            self.stdout.write(f"Deleted {counts}.")
