"""An account is one person: at most one player in each club."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("clubs", "0004_seats_players_for_members")]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("club", "user"),
                name="one_player_per_account_in_club",
            ),
        ),
    ]
