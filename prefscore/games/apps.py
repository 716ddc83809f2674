from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "prefscore.games"
    label = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The event streams hear of a session, an account, a membership or a spectator
        # link changed at once (listeners.py, joining.py).
        from . import joining, listeners

        listeners.connect()
        joining.connect()
