"""Browser ids become the SHA-256 of the secret in the browser's cookie.

Each existing row's id was its cookie's secret: the row moves to the hash of that secret, and
the games and seats it owns follow, so that every browser keeps its saves and seats with the
cookie it already has. Rolling it back cannot restore the secrets: it forgets every browser,
with what they own.
"""

import hashlib

from django.db import migrations, models

import cardgames.models


def hash_browser_ids(apps, schema_editor) -> None:
    """Move every browser row (and what points at it) to the hash of its id."""
    Browser = apps.get_model("cardgames", "Browser")
    Game = apps.get_model("cardgames", "Game")
    Seat = apps.get_model("cardgames", "Seat")
    for browser in Browser.objects.filter(id__regex=r"^.{1,43}$").iterator():
        old, created, last_seen = browser.pk, browser.created, browser.last_seen
        browser.pk = hashlib.sha256(old.encode()).hexdigest()
        browser.save(force_insert=True)
        # Saving set both times to now; they stay what they were (the purge goes by them).
        Browser.objects.filter(pk=browser.pk).update(created=created, last_seen=last_seen)
        Game.objects.filter(owner_id=old).update(owner_id=browser.pk)
        Seat.objects.filter(browser_id=old).update(browser_id=browser.pk)
        Browser.objects.filter(pk=old).delete()


def forget_browsers(apps, schema_editor) -> None:
    """Back to ids that are cookies: no row's cookie is known any more."""
    apps.get_model("cardgames", "Browser").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cardgames", "0003_turn_clock_and_stand_ins"),
    ]

    operations = [
        migrations.AlterField(
            model_name="browser",
            name="id",
            field=models.CharField(
                default=cardgames.models.unheld_browser_id,
                editable=False,
                max_length=64,
                primary_key=True,
                serialize=False,
            ),
        ),
        migrations.RunPython(hash_browser_ids, forget_browsers, elidable=False),
    ]
