"""The Content-Security-Policy header on every response.

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
