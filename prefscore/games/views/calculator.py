"""The paper-pulka calculator: settle a pulka played on paper, storing nothing.

Any signed-in user may use it; it needs no club. The settlement is the one view model
of every screen that settles (``presenters.settlement``), built from the engine's figures.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from prefscore.web import HtmxHttpRequest, render_page

from .. import io, presenters
from ..pulka_forms import PulkaFileForm


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    """Settle a pulka file, paper sheet or deals, storing nothing; any signed-in user."""
    form, file = _file_form(request)
    context: dict[str, Any] = {"form": form}
    if file is not None:
        context["settlement"] = _settlement(form, file)
    return render_page(request, "games/calculator.html", context, "form")


def _file_form(request: HtmxHttpRequest) -> tuple[PulkaFileForm, io.PulkaFile | None]:
    """The bound file form and the file it read, or an unbound form on GET."""
    if request.method != "POST":
        return PulkaFileForm(), None
    form = PulkaFileForm(request.POST, request.FILES)
    return form, form.cleaned_data["pulka_file"] if form.is_valid() else None


def _settlement(form: PulkaFileForm, file: io.PulkaFile) -> presenters.SettlementView | None:
    try:
        return presenters.file_settlement(file)
    except io.FileRefused as error:
        field = "file" if form.cleaned_data.get("file") else "text"
        form.add_error(field, str(error))
        return None
