"""Settings for bench/web.py only: prefscore's own, with a bare view added to the URLs.

Static files are served from the app folders, as with DEBUG, so that the benchmark
needs no collectstatic; everything else is production's (DEBUG off).
"""

from prefscore.settings import *  # noqa: F403
from prefscore.settings import STORAGES

ROOT_URLCONF = "bench.webapp.urls"
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
