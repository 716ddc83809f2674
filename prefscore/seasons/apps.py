from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "prefscore.seasons"
    label = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        # After the statistics' receivers (this app is installed after them, and receivers
        # run in the order they connect): the summary rows are written before the season
        # tables are counted again from them (docs/seasons.md §1).
        from prefscore.games.events import sheet_settled, sheets_settled

        from .standings import on_sheet_settled, on_sheets_settled

        sheet_settled.connect(on_sheet_settled, dispatch_uid="seasons-tables")
        sheets_settled.connect(on_sheets_settled, dispatch_uid="seasons-tables-many")
