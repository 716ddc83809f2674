"""Placeholder until this screen is written: every view answers 404."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def export(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404


def new_pulka(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404


def import_pulka(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404


def calculator(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    raise Http404
