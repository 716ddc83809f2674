"""The site's error pages: styled, in the visitor's language, saying why and what to do.

Django's own 400/403/404/500 and CSRF pages are bare English. These replace them
(``handler400`` and the others in ``prefscore/urls.py``, ``CSRF_FAILURE_VIEW`` in the
settings). The 500 and 503 pages are rendered without the request's context processors:
whatever broke the page (the database, for the 503) must not break the page that says so.
"""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import gettext as _


def _page(request: HttpRequest, status: int, context: dict[str, Any]) -> HttpResponse:
    return render(request, f"errors/{status}.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, 400, {})


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Why (the refusal's own translated words, when it has any) and what to do next."""
    reason = str(exception) if exception is not None and exception.args else ""
    return _page(request, 403, {"reason": reason, **_sign_in_again(request)})


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, 404, _sign_in_again(request))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token: usually a page left open too long."""
    context = {
        "reason": _(
            "The form had expired: the page was open for a long time, or the browser "
            "does not keep cookies for this site."
        ),
        "csrf": True,
        **_sign_in_again(request),
    }
    return _page(request, 403, context)


def server_error(request: HttpRequest) -> HttpResponse:
    """500; or 503 with Retry-After while the database cannot be reached.

    Django calls this inside its ``except`` block, so the exception is at hand: a
    database that does not answer (``OperationalError``, ``InterfaceError``: refused,
    restarting, a dropped connection) is a wait, not a fault of the page.
    """
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        return database_unavailable(request)
    return HttpResponse(get_template("errors/500.html").render(), status=500)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """The styled, translated 503, rendered without touching the database."""
    seconds = settings.DATABASE_RETRY_AFTER_SECONDS
    body = get_template("errors/503.html").render({"seconds": seconds})
    response = HttpResponse(body, status=503)
    response.headers["Retry-After"] = str(seconds)
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _sign_in_again(request: HttpRequest) -> dict[str, str]:
    """Where "sign in as someone else" leads: sign-in, then back to this page."""
    back = request.get_full_path()
    return {"sign_in_url": f"{reverse('login')}?next={back}", "here": back}
