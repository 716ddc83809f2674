"""Placeholder until this screen is written: every view answers 404."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def sheet_page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404


def poll(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404
