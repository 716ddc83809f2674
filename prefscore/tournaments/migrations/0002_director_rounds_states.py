"""Round states and stages, player states, closed tables and the regulations' log.

docs/tournaments.md §7 says what each is for.

Rounds drawn before this were played at once: they become ``published``, and a final
round the ``final`` stage. A dropped entry becomes the ``dropped`` state.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def forwards(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    Round.objects.update(status="published")
    Round.objects.filter(is_final=True).update(stage="final")
    Entry = apps.get_model("tournaments", "TournamentEntry")
    Entry.objects.filter(dropped=True).update(state="dropped")


def backwards(apps, schema_editor):
    Entry = apps.get_model("tournaments", "TournamentEntry")
    Entry.objects.filter(state__in=["dropped", "disqualified"]).update(dropped=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("tournaments", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="regulations_frozen_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="regulations frozen"),
        ),
        migrations.AddField(
            model_name="round",
            name="status",
            field=models.CharField(
                choices=[("draft", "draft"), ("published", "published")],
                default="draft",
                max_length=10,
                verbose_name="status",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="stage",
            field=models.CharField(
                choices=[
                    ("qualifying", "qualifying"),
                    ("semifinal", "semi-final"),
                    ("final", "final"),
                ],
                default="qualifying",
                max_length=12,
                verbose_name="stage",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="published_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="published"),
        ),
        migrations.AddField(
            model_name="round",
            name="tables",
            field=models.JSONField(blank=True, default=list, verbose_name="tables"),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="state",
            field=models.CharField(
                choices=[
                    ("registered", "registered"),
                    ("checked_in", "checked in"),
                    ("playing", "playing"),
                    ("dropped", "dropped"),
                    ("disqualified", "disqualified"),
                ],
                default="registered",
                max_length=12,
                verbose_name="state",
            ),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="joined_round",
            field=models.PositiveSmallIntegerField(null=True, verbose_name="late entry from round"),
        ),
        migrations.AddField(
            model_name="tournamententry",
            name="left_after_round",
            field=models.PositiveSmallIntegerField(null=True, verbose_name="left after round"),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="tournamententry", name="dropped"),
        migrations.CreateModel(
            name="TableClosure",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("time", "time limit"),
                            ("deal_limit", "deal limit"),
                            ("arbiter", "final sheet entered by the arbiter"),
                            ("drop", "a player dropped"),
                        ],
                        max_length=12,
                        verbose_name="reason",
                    ),
                ),
                ("whists", models.JSONField(blank=True, null=True, verbose_name="final whists per seat")),
                ("note", models.CharField(blank=True, max_length=300, verbose_name="note")),
                ("closed_at", models.DateTimeField(auto_now_add=True, verbose_name="closed")),
                (
                    "closed_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="closed by",
                    ),
                ),
                (
                    "pulka",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="closure",
                        to="games.pulka",
                        verbose_name="table",
                    ),
                ),
            ],
            options={"verbose_name": "closed table", "verbose_name_plural": "closed tables"},
        ),
        migrations.CreateModel(
            name="RegulationChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("field", models.CharField(max_length=40, verbose_name="setting")),
                ("before", models.TextField(blank=True, verbose_name="before")),
                ("after", models.TextField(blank=True, verbose_name="after")),
                ("changed_at", models.DateTimeField(auto_now_add=True, verbose_name="changed")),
                (
                    "changed_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="changed by",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="regulation_changes",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "change of the regulations",
                "verbose_name_plural": "changes of the regulations",
                "ordering": ["changed_at", "pk"],
            },
        ),
    ]
