"""WSGI entry point: `gunicorn prefscore.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")

application = get_wsgi_application()

# The start-up's objects out of the collector's walk (prefscore/heap.py).
from prefscore.heap import freeze_startup  # noqa: E402

freeze_startup()
