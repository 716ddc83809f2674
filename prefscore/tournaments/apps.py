from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "prefscore.tournaments"
    label = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The end of a tournament follows its tables' sheets (stages.py).
        from . import discipline, events, stages, timecontrol

        stages.connect()
        # A table that ended below the regulations' floor gives a yellow card (§4.9).
        discipline.connect()
        # A round's time up: by the regulations, a table closes after the deal in play.
        timecontrol.connect()
        # The room screens hear of a round's state at once (events.py).
        events.connect()
        # Each table's stored result follows its sheet (results.py), as the statistics do.
        from prefscore.games.events import sheet_changed

        from .results import on_sheet_changed

        sheet_changed.connect(on_sheet_changed, dispatch_uid="tournaments.table_results")
