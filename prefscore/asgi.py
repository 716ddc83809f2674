"""ASGI entry point, for an ASGI server should one be needed."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")

application = get_asgi_application()
