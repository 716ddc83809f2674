"""Compressed HTML and JSON answers (README, "Compression").

Django's ``GZipMiddleware`` for the answers a page waits for: the table screen's HTML (a
poll after a deal is about 46 KB, 7 KB gzipped) and the JSON exports. Not for the event
stream, where gzip would hold each small event back in its buffer, nor for static files,
which WhiteNoise serves already compressed, nor for anything else.

BREACH (guessing a secret from the compressed size of answers that also reflect the
attacker's input) is weighed in the README: the CSRF token is masked afresh in every
answer (Django), Django's gzip adds random bytes to each answer's header ("Heal The
Breach"), the poll ticket is worthless without the session cookie beside it, and the
session cookie itself is never in a body.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

COMPRESSED_TYPES = ("text/html", "application/json")


class CompressionMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        content_type = response.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type not in COMPRESSED_TYPES:
            return response
        return super().process_response(request, response)
