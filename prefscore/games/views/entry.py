"""Recording a deal, and changing or undoing the last one under the pencil rule.

With htmx each answer swaps the table's regions out of band; without it a success
redirects to the sheet (POST/redirect/GET) and a refusal shows the page again.
Errors: a wrong entry 422 (htmx) or 200 (page), a deal recorded first elsewhere 409,
a finished pulka 409, a pencil that is not yours 403.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from prefscore.web import HtmxHttpRequest, invalid_status
from scoring.engine.errors import DealError

from .. import services
from ..access import pulka_for
from ..forms import DealForm
from ..models import Correction, Deal, Pulka
from ..pencil import pencil_deal
from ..presenters import current_state, table_context
from ..replay import score_before_last
from ..services import load_corrections, load_deals
from .sheet import changed, refuse, render_table, reread


@login_required
@require_POST
def record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record the next deal from the entry form (docs/design.md, "How a deal flows")."""
    pulka = pulka_for(request, pk, change=True)
    if pulka.is_frozen:
        return refuse(request, pulka, 409, _("This pulka is finished: its sheet is frozen."))
    deals, corrections = load_deals(pulka), load_corrections(pulka)
    form = DealForm(current_state(pulka, deals, corrections), request.POST)
    if form.is_valid():
        try:
            recorded = services.record_deal(
                pulka.pk, form.facts, request.user, form.cleaned_data["number"]
            )
        except DealError as error:
            form.add_engine_error(error)
        except (services.Conflict, services.NotAllowed) as error:
            return refuse(request, reread(pk), 409, str(error))
        else:
            return changed(
                request,
                pk,
                version=pulka.version + 1,
                deals=[*deals, recorded.deal],
                corrections=corrections,
                scored=recorded.scored,
            )
    context = table_context(request, pulka, deals=deals, corrections=corrections, form=form)
    return render_table(request, context, invalid_status(request), regions=("entry",))


@login_required
@require_POST
def pencil(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Undo or change the last deal while its recorder holds the pencil (Кодекс 4.2.8).

    ``action`` is ``undo`` or ``change``; a change carries the whole form again.
    """
    pulka = pulka_for(request, pk, change=True)
    deals, corrections = load_deals(pulka), load_corrections(pulka)
    holder = pencil_deal(pulka, request.user, deals)
    if holder is None or holder.number != number:
        message = _(
            "Only whoever recorded the last deal may change or undo it, and only until the "
            "next deal is recorded or %(minutes)s minutes pass."
        ) % {"minutes": pulka.club.pencil_minutes}
        return refuse(request, pulka, 403, message)
    action = request.POST.get("action", "")
    if action not in ("undo", "change"):
        return refuse(request, pulka, 400, _("Choose whether to undo or to change the deal."))
    form = None
    if action == "change":
        form = DealForm(score_before_last(pulka, deals, corrections), request.POST)
        if not form.is_valid():
            return _change_again(request, pulka, deals, corrections, form, number)
    try:
        services.pencil_change(pulka.pk, request.user, number, form.facts if form else None)
    except services.NotAllowed as error:
        return refuse(request, reread(pk), 403, str(error))
    except DealError as error:
        assert form is not None
        form.add_engine_error(error)
        return _change_again(request, pulka, deals, corrections, form, number)
    return changed(request, pk)


def _change_again(
    request: HtmxHttpRequest,
    pulka: Pulka,
    deals: list[Deal],
    corrections: list[Correction],
    form: DealForm,
    number: int,
) -> HttpResponse:
    context = table_context(
        request, pulka, deals=deals, corrections=corrections, form=form, change=number
    )
    return render_table(request, context, invalid_status(request), regions=("entry",))
