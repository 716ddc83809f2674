from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    name = "prefscore.stats"
    label = "stats"
    verbose_name = _("Statistics")

    def ready(self) -> None:
        # Keep each finished pulka's summary rows and the club rating in step (summaries.py).
        from prefscore.games.events import sheet_settled

        from .summaries import on_sheet_settled

        sheet_settled.connect(on_sheet_settled, dispatch_uid="stats-summaries")
