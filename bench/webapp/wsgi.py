"""gunicorn's application for bench/sheet_page.py --server: prefscore's (the bench
settings), and beside it the bare view through no middleware at all.

``BARE_ALONE`` is answered by a handler made with ``MIDDLEWARE = []``: the baseline the sheet
page is held to (docs/benchmarks.md, "The sheet page"), a Django view with no
middleware, paying the same server, socket and HTTP parsing as the page. Every other
path goes to prefscore's own handler, all its middleware in place.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.core.wsgi import get_wsgi_application
from django.test import override_settings

from bench.harness.server import BARE_ALONE

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.webapp.settings")

prefscore = get_wsgi_application()
with override_settings(MIDDLEWARE=[]):  # the handler loads its middleware once, here
    alone = WSGIHandler()


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    handler = alone if environ.get("PATH_INFO") == BARE_ALONE else prefscore
    return handler(environ, start_response)
