"""The site's error pages: styled, in the visitor's language, saying why and what to do.

Django's own 400/403/404/500 and CSRF pages are bare English. These replace them
(``handler400`` and the others in ``prefscore/urls.py``, ``CSRF_FAILURE_VIEW`` in the
settings). The 500 page is rendered without the request's context processors: whatever
broke the page must not break the page that says so.
"""

from __future__ import annotations

from typing import Any

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
    return HttpResponse(get_template("errors/500.html").render(), status=500)


def _sign_in_again(request: HttpRequest) -> dict[str, str]:
    """Where "sign in as someone else" leads: sign-in, then back to this page."""
    back = request.get_full_path()
    return {"sign_in_url": f"{reverse('login')}?next={back}", "here": back}
