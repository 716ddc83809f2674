"""The site's own middleware (``settings.MIDDLEWARE``): compressed HTML and JSON answers,
the Content-Security-Policy, private caching, and the account each page belongs to."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

# --- compressed HTML and JSON answers (README, "Running in production") ---------------------------
#
# Django's ``GZipMiddleware`` for the answers a page waits for: the table screen's HTML (a
# poll after a deal is about 46 KB, 7 KB gzipped) and the JSON exports. Not for the event
# stream, where gzip would hold each small event back in its buffer, nor for static files,
# which WhiteNoise serves already compressed, nor for anything else.
#
# BREACH (guessing a secret from the compressed size of answers that also reflect the
# attacker's input) is weighed in the README: the CSRF token is masked afresh in every
# answer (Django), Django's gzip adds random bytes to each answer's header ("Heal The
# Breach"), the poll ticket is worthless without the session cookie beside it, and the
# session cookie itself is never in a body.

COMPRESSED_TYPES = ("text/html", "application/json")


class CompressionMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        content_type = response.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type not in COMPRESSED_TYPES:
            return response
        return super().process_response(request, response)


# --- the Content-Security-Policy and caching headers on every response ------------------
#
# The policy (``settings.CONTENT_SECURITY_POLICY``) allows scripts, styles and images only
# from the site itself: no inline ``<script>``, no ``on*=`` attributes, no ``style=``
# attributes, no framing. Templates follow it: htmx is a static file
# (``{% htmx_script %}``), and base.html turns off the indicator styles htmx would
# otherwise inject inline (the ``htmx-config`` meta tag); prefscore.css styles the
# indicators instead.
#
# Django 6 has CSP built in; until then this is the whole of it.

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # A view that needs a different policy sets its own header; none does yet.
        if HEADER not in response.headers:
            response.headers[HEADER] = settings.CONTENT_SECURITY_POLICY
        return response


CACHE_CONTROL = "Cache-Control"
PRIVATE = "private, no-store"


class PrivateCacheMiddleware:
    """``Cache-Control: private, no-store`` on every answer but the public ones.

    A shared club tablet must not keep a person's pages and exports (the sheet, the
    settlement, ``export.json``, ``results.csv``, ``my-data.json``) in its cache after he
    signs out, and no proxy may keep them at all. So the rule is the header, and the
    exceptions are listed: ``PUBLIC_VIEW_NAMES`` (``settings``), pages that show nobody's
    data, when asked by someone not signed in. A view that sets its own Cache-Control
    (``never_cache``) keeps it. Static files never come here: WhiteNoise, before this in
    ``MIDDLEWARE``, answers them with its long cache headers.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if CACHE_CONTROL not in response.headers and not _public(request):
            response.headers[CACHE_CONTROL] = PRIVATE
        return response


def _public(request: HttpRequest) -> bool:
    match = request.resolver_match
    if match is None or match.view_name not in settings.PUBLIC_VIEW_NAMES:
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


# --- whose page it is (docs/design.md, "Never lose a deal"; prefscore/offline.py) -------

ACCOUNT_HEADER = "X-Prefscore-Account"


class AccountMiddleware:
    """Marks each HTML page with its account (``ACCOUNT_HEADER``; empty when signed out)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Whole pages only: the worker keeps no htmx answer (a poll, a region), and a
        # spectator's poll reads no session for it.
        if "HX-Request" not in request.headers and response.get("Content-Type", "").startswith(
            "text/html"
        ):
            user = getattr(request, "user", None)
            pk = user.pk if user is not None and user.is_authenticated else None
            response[ACCOUNT_HEADER] = "" if pk is None else str(pk)
        return response
