from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "prefscore.clubs"
    label = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from django.urls import register_converter

        from prefscore.web import IdConverter

        from . import signals  # noqa: F401  (connects the receivers)

        # ``<id:pk>``, before any URLconf is read: ids bounded in one place (web.py).
        register_converter(IdConverter, "id")
