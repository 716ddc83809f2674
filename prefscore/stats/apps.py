from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    name = "prefscore.stats"
    label = "stats"
    verbose_name = _("Statistics")

    def ready(self) -> None:
        # Keep each finished pulka's summary rows and the club rating in step (summaries.py).
        from django.db.models.signals import post_delete

        from prefscore.clubs.models import Player
        from prefscore.games.events import sheet_settling, sheets_settled

        from .recounts import on_player_deleted, on_sheet_settling
        from .summaries import on_sheets_settled

        # A settled sheet's recount runs after the request (recounts.py).
        sheet_settling.connect(on_sheet_settling, dispatch_uid="stats-recount")
        sheets_settled.connect(on_sheets_settled, dispatch_uid="stats-summaries-many")
        # Merging two players deletes one: his pulkas are the kept one's, so rate again.
        post_delete.connect(on_player_deleted, sender=Player, dispatch_uid="stats-player-gone")
