from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("cardgames", "0002_room_dealt_when_full"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="clock",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="game",
            name="deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="ended_by",
            field=models.SmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="watchers",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="stand_in",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="seat",
            name="timeouts",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="away_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="absent_choice",
            field=models.CharField(blank=True, max_length=10),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["deadline"], name="game_deadline"),
        ),
    ]
