# A pulka may be a table of a tournament round (prefscore.tournaments).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_pulka_convention_source"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="pulka",
            name="tournament",
            field=models.ForeignKey(
                blank=True,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="pulkas",
                to="tournaments.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.AddField(
            model_name="pulka",
            name="round_number",
            field=models.PositiveSmallIntegerField(
                blank=True, editable=False, null=True, verbose_name="round"
            ),
        ),
    ]
