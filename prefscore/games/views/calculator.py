"""The paper-pulka calculator: settle a pulka played on paper, storing nothing.

Any signed-in user may use it; it needs no club. Two ways in, two tabs of one page:

- **the sheet** (the default): the players and convention, sent by GET, then a grid of
  each player's pulya, gora and whists on each opponent, posted
  (``calculator_forms``);
- **a pulka file** (``?tab=file``): a docs/protocol.md file pasted or uploaded.

Both are settled by the one settlement view model (``presenters.settlement``), from the
engine's figures. A mistake is shown next to its field; nothing is ever saved.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_http_methods

from prefscore.web.htmx import HtmxHttpRequest, render_page

from .. import io, presenters
from ..calculator_forms import PaperFiguresForm, PaperPlayersForm, paper_sheet
from ..pulka_forms import PulkaFileForm


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    """The calculator's page, or its ``#calculator`` region for htmx."""
    if _file_tab(request):
        context = _file_context(request)
    else:
        context = _sheet_context(request)
    return render_page(request, "games/calculator.html", context, "form")


def _file_tab(request: HtmxHttpRequest) -> bool:
    """The file tab: asked for, or a file posted (pasted text or an upload)."""
    if request.method != "POST":
        return request.GET.get("tab") == "file"
    return request.POST.get("tab") == "file" or "text" in request.POST or bool(request.FILES)


def _sheet_context(request: HtmxHttpRequest) -> dict[str, Any]:
    """The players' form; once it is valid the grid; once that is valid the settlement."""
    posted = request.method == "POST"
    data = request.POST if posted else request.GET if "convention" in request.GET else None
    players = PaperPlayersForm(data, user=request.user)
    context: dict[str, Any] = {"tab": "sheet", "players_form": players}
    if data is None or not players.is_valid() or (not posted and "edit" in request.GET):
        return context
    figures = PaperFiguresForm(request.POST if posted else None, names=players.names)
    context["figures_form"] = figures
    if posted and figures.is_valid():
        sheet = paper_sheet(players, figures)
        context["settlement"] = presenters.paper_settlement(sheet, figures.first_seat)
    return context


def _file_context(request: HtmxHttpRequest) -> dict[str, Any]:
    """The pulka file form, and the settlement of the file it read."""
    context: dict[str, Any] = {"tab": "file"}
    if request.method != "POST":
        context["form"] = PulkaFileForm()
        return context
    form = PulkaFileForm(request.POST, request.FILES)
    context["form"] = form
    if form.is_valid():
        try:
            context["settlement"] = presenters.file_settlement(form.cleaned_data["pulka_file"])
        except io.FileRefused as error:
            form.add_error("file" if form.cleaned_data.get("file") else "text", str(error))
    return context
