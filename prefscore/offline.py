"""The site as an installable app that keeps the table's work (docs/design.md, "Never
lose a deal"): the outbox's fresh token, the service worker, the manifest, the favicon.

- ``outbox_session``: who is signed in and a CSRF token, for the page's outbox
  (static/js/outbox.js) to send its saved entries again: the token rotates at sign-in
  and its cookie is HttpOnly, so a page kept from before cannot know it.
- ``service_worker``: ``/sw.js`` from the site root, so that it may serve every page;
  its bytes name the release (a digest of the static files and of itself), so a deploy
  installs the new one and the page offers to reload.
- ``web.middleware.AccountMiddleware``: every HTML page says whose it is
  (``X-Prefscore-Account``); the service worker keeps pages only of the account signed
  in, and drops them all when it sees another one or none (signed out).

This module sits below every app: it imports Django only.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

THEME_COLOUR = "#0b5d3b"  # --felt in static/css/prefscore.css
# The files every page needs, kept by the service worker from its install on.
PRECACHED = (
    "css/prefscore.css",
    "js/outbox-core.js",
    "js/outbox.js",
    "js/network.js",
    "js/table.js",
    "js/stream-core.js",
    "js/stream.js",
    "js/push.js",
    "js/wake-core.js",
    "js/wake.js",
    "js/plain-offline.js",
    "django_htmx/htmx-2.min.js",
    "icons/icon-192.png",
    "icons/favicon.ico",
)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-512.png", "512x512", "maskable"),
)


@require_safe
def outbox_session(request: HttpRequest) -> JsonResponse:
    """The signed-in user's name (null when signed out; the pages name the outbox's
    owner by it, as the table screen's shared page names its viewer) and a CSRF token
    for the replay."""
    user = request.user
    name = user.get_username() if user.is_authenticated else None
    response = JsonResponse({"user": name, "csrf": get_token(request)})
    response["Cache-Control"] = "no-store"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker script (templates/offline/sw.js), allowed the whole site."""
    body = render_to_string(
        "offline/sw.js",
        {
            "release": release(),
            "precached": json.dumps([static(name) for name in PRECACHED]),
            # Not static(""): under a manifest storage (production) "" is no file, an error.
            "static_prefix": json.dumps(settings.STATIC_URL),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser asks for it again on each check
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: installed, the sheet opens as an app of its own."""
    body = {
        "name": _("prefscore: the preferans score sheet"),
        "short_name": _("prefscore"),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": "#fbfaf6",
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for by themselves: the static one."""
    return HttpResponsePermanentRedirect(static("icons/favicon.ico"))


@cache
def release() -> str:
    """A digest of the static files the worker keeps and of the worker itself, read
    once per process: a release that changes any of them installs a new worker."""
    digest = hashlib.blake2b(digest_size=8)
    names = [*PRECACHED, *(path for path, _sizes, _purpose in ICONS)]
    for name in names:
        found = finders.find(name)
        if isinstance(found, str):
            digest.update(name.encode())
            digest.update(Path(found).read_bytes())
    folders: list[Any] = [*settings.TEMPLATES[0].get("DIRS", [])]  # type: ignore[misc]
    for folder in folders:
        worker = Path(folder) / "offline" / "sw.js"
        if worker.is_file():
            digest.update(worker.read_bytes())
    return digest.hexdigest()


__all__ = [
    "favicon",
    "manifest",
    "outbox_session",
    "release",
    "service_worker",
]
