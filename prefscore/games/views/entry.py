"""Placeholder until this screen is written: every view answers 404."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def record(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404


def pencil(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404
