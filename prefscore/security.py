"""The Content-Security-Policy and caching headers on every response.

The policy (``settings.CONTENT_SECURITY_POLICY``) allows scripts, styles and images only
from the site itself: no inline ``<script>``, no ``on*=`` attributes, no ``style=``
attributes, no framing. Templates follow it: htmx is a static file
(``{% htmx_script %}``), and base.html turns off the indicator styles htmx would
otherwise inject inline (the ``htmx-config`` meta tag); prefscore.css styles the
indicators instead.

Django 6 has CSP built in; until then this is the whole of it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

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
