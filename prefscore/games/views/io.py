"""Starting pulkas: the new-pulka form, import and export.

The file conversions are ``prefscore.games.io``'s; these views parse the form, call it,
and render. A successful form redirects to the new pulka's sheet (an ``HX-Redirect``
under htmx); a refused one re-renders its form region with the messages.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from .. import io, presenters, render_cache
from ..access import club_for, pulka_for
from ..models import Pulka
from ..pulka_forms import NewPulkaForm, PulkaFileForm


def _to_sheet(request: HtmxHttpRequest, pulka: Pulka) -> HttpResponse:
    return redirect_to(request, reverse("games:sheet", args=[pulka.pk]))


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def new_pulka(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    if request.method == "POST":
        form = NewPulkaForm(request.POST, club=club)
        if form.is_valid():
            return _to_sheet(request, form.save(request.user))
    else:
        form = NewPulkaForm(club=club)
    return render_page(request, "games/new.html", {"club": club, "form": form}, "form")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def import_pulka(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Import a pulka file with deals; a file with a sheet is settled, not stored."""
    club = club_for(request, slug)
    form, file = _file_form(request)
    context: dict[str, Any] = {"club": club, "form": form}
    if file is not None and not file.is_paper:
        earlier = io.earlier_imports(club, file)
        if earlier and request.POST.get("import_again") != file.sha256:
            context["duplicate"] = _duplicate_context(form, file, earlier)
            return render_page(request, "games/import.html", context, "form")
        try:
            return _to_sheet(request, io.import_file(club, file, request.user))
        except io.FileRefused as error:
            form.add_error(_file_field(form), str(error))
    elif file is not None:
        context["settlement"] = _settlement(form, file)
    return render_page(request, "games/import.html", context, "form")


def _duplicate_context(
    form: PulkaFileForm, file: io.PulkaFile, earlier: list[Pulka]
) -> dict[str, Any]:
    """What the "import it again?" question shows, and the file to send again with it."""
    return {
        "earlier": earlier,
        "text": form.cleaned_data["pulka_text"],
        "sha256": file.sha256,
    }


def _file_form(request: HtmxHttpRequest) -> tuple[PulkaFileForm, io.PulkaFile | None]:
    """The bound file form and the file it read, or an unbound form on GET."""
    if request.method != "POST":
        return PulkaFileForm(), None
    form = PulkaFileForm(request.POST, request.FILES)
    return form, form.cleaned_data["pulka_file"] if form.is_valid() else None


def _file_field(form: PulkaFileForm) -> str:
    return "file" if form.cleaned_data.get("file") else "text"


def _settlement(form: PulkaFileForm, file: io.PulkaFile) -> presenters.SettlementView | None:
    try:
        return presenters.file_settlement(file)
    except io.FileRefused as error:
        form.add_error(_file_field(form), str(error))
        return None


@require_safe
@login_required
def export(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The pulka file with the engine's output (``prefscore.games.io``), as a download."""
    pulka = pulka_for(request, pk)
    # Once per version, shared with every device and worker (render_cache; no language).
    text = render_cache.shared(pulka, "export", lambda: io.export_text(pulka), language=False)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="pulka-{pulka.pk}.json"'
    return response
