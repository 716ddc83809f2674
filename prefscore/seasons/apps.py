from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "prefscore.seasons"
    label = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        # After the statistics: their recount task tells, once the summary rows are
        # written, and the season tables are counted again from them (docs/seasons.md
        # §1); an import's many sheets, after the statistics' receiver (this app is
        # installed after them, and receivers run in the order they connect).
        from django.db.models.signals import post_save

        from prefscore.games.events import sheets_settled
        from prefscore.stats.recounts import club_recounted
        from prefscore.tournaments.models import Tournament
        from prefscore.tournaments.seeds import seeds_wanted

        from .qualification import final_seeds
        from .standings import on_club_recounted, on_sheets_settled, on_tournament_saved

        club_recounted.connect(on_club_recounted, dispatch_uid="seasons-tables")
        sheets_settled.connect(on_sheets_settled, dispatch_uid="seasons-tables-many")
        # Finishing a tournament saves it: its results are locked and count from then on.
        post_save.connect(on_tournament_saved, sender=Tournament, dispatch_uid="seasons-cups")
        # The final's first draw and registration list read the qualifiers' seeds (§9).
        seeds_wanted.connect(final_seeds, dispatch_uid="seasons-final-seeds")
