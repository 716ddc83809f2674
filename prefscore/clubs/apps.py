from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "prefscore.clubs"
    label = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from django.urls import register_converter

        from prefscore.web.integers import IdConverter

        # The receivers connected; the mail queue's composers registered (mail_queue.py);
        # the backups' schedule, queued when a worker starts (backups.py).
        from . import accounts, backups, signals, signin_codes  # noqa: F401

        # ``<id:pk>``, before any URLconf is read: ids bounded in one place
        # (prefscore/web/integers.py).
        register_converter(IdConverter, "id")
