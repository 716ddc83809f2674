"""The record of changes to who a club's players are (prefscore/clubs/players.py)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0002_unique_email_and_username_ignoring_case"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerEvent",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("action", models.CharField(choices=[("joined", "became a player on joining"), ("claimed", "claimed a guest on joining"), ("linked", "linked a guest to an account"), ("unlinked", "unlinked a player from an account"), ("merged", "merged two players")], max_length=10, verbose_name="action")),
                ("at", models.DateTimeField(auto_now_add=True, verbose_name="when")),
                ("details", models.JSONField(blank=True, default=dict, verbose_name="details")),
                ("account", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="account")),
                ("by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="who")),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="player_events", to="clubs.club", verbose_name="club")),
                ("player", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="events", to="clubs.player", verbose_name="player")),
            ],
            options={
                "verbose_name": "player change",
                "verbose_name_plural": "player changes",
                "ordering": ["-at", "-pk"],
            },
        ),
    ]
