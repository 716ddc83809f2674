"""Starting pulkas: the new-pulka form, import, export and the paper-pulka calculator.

The file conversions are ``prefscore.games.io``'s; these views parse the form, call it,
and render. A successful form redirects to the new pulka's sheet (an ``HX-Redirect``
under htmx); a refused one re-renders its form region with the messages.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from .. import io
from ..access import club_for, pulka_for
from ..models import Pulka
from ..pulka_forms import NewPulkaForm, PulkaFileForm


def _to_sheet(request: HttpRequest, pulka: Pulka) -> HttpResponse:
    url = reverse("games:sheet", args=[pulka.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _page_or_partial(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    name = f"{template}#{partial}" if request.htmx else template
    return render(request, name, context)


@require_http_methods(["GET", "POST"])
@login_required
def new_pulka(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    if request.method == "POST":
        form = NewPulkaForm(request.POST, club=club)
        if form.is_valid():
            return _to_sheet(request, form.save(request.user))
    else:
        form = NewPulkaForm(club=club)
    return _page_or_partial(request, "games/new.html", "form", {"club": club, "form": form})


@require_http_methods(["GET", "POST"])
@login_required
def import_pulka(request: HttpRequest, slug: str) -> HttpResponse:
    """Import a pulka file with deals; a file with a sheet is settled, not stored."""
    club = club_for(request, slug)
    form, file = _file_form(request)
    context: dict[str, Any] = {"club": club, "form": form}
    if file is not None and not file.is_paper:
        try:
            return _to_sheet(request, io.import_file(club, file, request.user))
        except io.FileRefused as error:
            form.add_error(_file_field(form), str(error))
    elif file is not None:
        context["settlement"] = _settlement(form, file)
    return _page_or_partial(request, "games/import.html", "form", context)


@require_http_methods(["GET", "POST"])
@login_required
def calculator(request: HttpRequest) -> HttpResponse:
    """Settle a pulka file, paper sheet or deals, storing nothing; any signed-in user."""
    form, file = _file_form(request)
    context: dict[str, Any] = {"form": form}
    if file is not None:
        context["settlement"] = _settlement(form, file)
    return _page_or_partial(request, "games/calculator.html", "form", context)


def _file_form(request: HttpRequest) -> tuple[PulkaFileForm, io.PulkaFile | None]:
    """The bound file form and the file it read, or an unbound form on GET."""
    if request.method != "POST":
        return PulkaFileForm(), None
    form = PulkaFileForm(request.POST, request.FILES)
    return form, form.cleaned_data["pulka_file"] if form.is_valid() else None


def _file_field(form: PulkaFileForm) -> str:
    return "file" if form.cleaned_data.get("file") else "text"


def _settlement(form: PulkaFileForm, file: io.PulkaFile) -> dict[str, Any] | None:
    try:
        output = io.settle(file)
    except io.FileRefused as error:
        form.add_error(_file_field(form), str(error))
        return None
    return settlement_table(output)


def settlement_table(output: dict[str, Any]) -> dict[str, Any]:
    """Rows of the settlement for the template: figures signed as players write them."""
    names = output["players"]
    money = output.get("money")
    rows = [
        {
            "name": name,
            "result": signed(output["result"][name]),
            "whole": signed(output["result_whole"][name]),
            "money": signed(money[name]) if money else None,
        }
        for name in names
    ]
    return {"rows": rows, "closed": output["closed"], "has_money": money is not None}


def signed(value: float | int) -> str:
    """+29, −103 (a true minus sign), 0; the engine already rounded to two decimals."""
    text = number_format(abs(value))
    if value > 0:
        return f"+{text}"
    if value < 0:
        return f"\u2212{text}"
    return "0"


@require_GET
@login_required
def export(request: HttpRequest, pk: int) -> HttpResponse:
    """The pulka file with the engine's output (``prefscore.games.io``), as a download."""
    pulka = pulka_for(request, pk)
    response = HttpResponse(io.export_text(pulka), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="pulka-{pulka.pk}.json"'
    return response
