from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DeferredConfig(AppConfig):
    name = "prefscore.deferred"
    label = "deferred"
    verbose_name = _("Deferred work")
