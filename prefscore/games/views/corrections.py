"""Corrections at the table by the Кодекс: rules 4.2.7 to 4.2.10 and 4.2.16.

``correct`` puts a recorded deal's facts, as they stand, back in the entry form and
applies the corrected facts (4.2.7; after the next deal only the favoured player may,
4.2.9); ``arbiter`` does the same as an arbiter's decision in a tournament pulka
(4.2.16); ``propose`` and ``answer`` add a forgotten deal once the whole table agrees
(4.2.10); ``audit_page`` lists everything that ever happened to the sheet.

Who may do what, and when, is ``prefscore.games.corrections``: these views parse the
request, ask it, and render. As with recording (``entry.py``): with htmx every answer
swaps the table's regions out of band; without it a success redirects to the sheet
(POST/redirect/GET) and a refusal shows the form again. A wrong entry is 422 (htmx) or
200 (page); not being allowed 403; a state that forbids it (finished pulka, a held
pencil, an answered proposal) 409.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from prefscore.web.htmx import HtmxHttpRequest, invalid_status, render_page, swaps_region
from prefscore.web.integers import request_int
from scoring.engine.errors import DealError
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import SheetState
from scoring.messages import message_for

from .. import corrections, presenters, services
from ..access import pulka_for
from ..corrections import Refusal, answer_forgotten, correct_deal, propose_forgotten
from ..forms import ArbiterForm, DealForm
from ..models import ForgottenDeal, Pulka
from ..presenters import table_context
from ..presenters import trail as trail_words
from ..recording import effective_facts, state_before
from ..seating import Seating
from ..services import load_corrections, load_deals
from .sheet import changed, once_per_entry, refuse, render_table


def _refuse(request: HtmxHttpRequest, pulka: Pulka, refusal: Refusal, **known: Any) -> HttpResponse:
    """A refusal of the rules: 403 when it is not the user's to do, 409 when not now."""
    return refuse(request, pulka, 403 if refusal.forbidden else 409, refusal.message, **known)


# --- correcting a deal (4.2.7, 4.2.9) and an arbiter's decision (4.2.16) -------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@once_per_entry
def correct(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Deal ``number`` in the form again, for a player at the table to correct it."""
    return _correction(request, pk, number, arbiter=False)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@once_per_entry
def arbiter(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Deal ``number`` in the form again, for an organiser's arbiter decision."""
    return _correction(request, pk, number, arbiter=True)


def _correction(request: HtmxHttpRequest, pk: int, number: int, *, arbiter: bool) -> HttpResponse:
    pulka = pulka_for(request, pk, change=True)
    deals, known = load_deals(pulka), load_corrections(pulka)
    if not 1 <= number <= len(deals):
        raise Http404(_("There is no deal %(number)s to correct.") % {"number": number})
    if "manual" in deals[number - 1].facts:  # corrected on its own page (views/manual.py)
        message = _("Entry %(number)s was written by hand: it is corrected on its own page.")
        return _refuse(request, pulka, Refusal(message % {"number": number}, True))
    refusal = (
        corrections.arbiter_refusal(pulka, request.user)
        if arbiter
        else corrections.correction_refusal(pulka, request.user, deals, number)
    )
    if refusal is not None:
        return _refuse(request, pulka, refusal, deals=deals, corrections=known)
    scored = services.score(pulka, deals, known)
    facts = effective_facts(deals, known)
    before = state_before(scored, facts, number)
    form: DealForm | None = None
    status = 200
    if request.method == "POST":
        form = (ArbiterForm if arbiter else DealForm)(before, request.POST)
        status = invalid_status(request)
        if form.is_valid():
            outcome = _apply(request, pulka, number, form, before, facts[number - 1], arbiter)
            if outcome is None:
                return changed(request, pulka.pk)
            status = outcome
    entry = _correction_form(pulka, scored, before, facts[number - 1], number, form, arbiter)
    if swaps_region(request):
        context = table_context(
            request, pulka, deals=deals, corrections=known, scored=scored, entry=entry
        )
        return render_table(request, context, status, regions=("entry",))
    record = scored.records[number - 1]
    context = {
        "pulka": pulka,
        "entry": entry,
        "number": number,
        "notation": presenters.reader_notation(record.notation),
        "entries": tuple(presenters.explain(e, scored.pulka.names) for e in record.entries),
    }
    return render_page(request, "games/correct.html", context, status=status)


def _apply(
    request: HtmxHttpRequest,
    pulka: Pulka,
    number: int,
    form: DealForm,
    before: SheetState,
    standing: dict[str, Any],
    arbiter: bool,
) -> int | None:
    """Correct the deal; None when done, else the status to show the form again with."""
    try:
        facts = corrections.corrected_facts(before, standing, form.facts)
    except DealError as error:
        form.add_engine_error(error)
        return invalid_status(request)
    except services.NotAllowed as error:
        form.add_notice(str(error))
        return invalid_status(request)
    extra: dict[str, Any] = {}
    if arbiter:
        extra = {
            "arbiter_reason": form.cleaned_data["reason"],
            "arbiter_penalty": form.cleaned_data["penalty"],
        }
    try:
        correct_deal(pulka.pk, request.user, number, facts, **extra)
    except services.NotAllowed as error:
        form.add_notice(str(error))
        return 403
    except DealError as error:
        form.add_notice(later_deal_error(error, number))
        return invalid_status(request)
    return None


def later_deal_error(error: DealError, number: int) -> str:
    """The engine refused the log with the deal replaced: a later deal no longer stands.

    For example a corrected pulya closes the pulka before a later deal, or a corrected
    all-pass changes the lowest contract of the next.
    """
    kinds = [kind for kind, _value in error.places]
    if kinds[:1] != ["correction"]:
        return message_for(error)
    message = message_for(error, places=False)
    later = error.places[1][1] if kinds[1:] == ["deal"] else None
    if later is None or later == number:
        return message
    return _("With this correction deal %(deal)s would no longer stand: %(message)s") % {
        "deal": later,
        "message": message,
    }


def _correction_form(
    pulka: Pulka,
    scored: ScoredPulka,
    before: SheetState,
    standing: dict[str, Any],
    number: int,
    form: DealForm | None,
    arbiter: bool,
) -> presenters.EntryForm:
    """The deal's facts as they stand (or as typed), in the state it was dealt in."""
    if form is not None:
        values, errors = form.typed(), form.grouped_errors()
    else:
        values, errors = presenters.values_from_facts(standing, before.names), {}
    subject = trail_words.describe_facts(standing, before.names)
    notes: tuple[str, ...]
    if arbiter:
        notes = (
            _(
                "An arbiter's decision replaces the deal's facts (Кодекс 4.2.16). State the "
                "reason; tick the penalty when the 4.2.7 penalty applies to whoever the "
                "wrong record favoured."
            ),
        )
        action = reverse("games:arbiter", args=[pulka.pk, number])
    else:
        notes = _correction_notes(corrections.past_deadline(number, len(scored.records)))
        action = reverse("games:correct", args=[pulka.pk, number])
    return presenters.entry_form(
        before,
        action,
        number,
        values,
        errors,
        mode="arbiter" if arbiter else "correct",
        notes=notes,
        subject=subject,
    )


def _correction_notes(late: bool) -> tuple[str, ...]:
    if not late:
        return (
            _(
                "Whoever the wrong record favoured gets a warning for his first correction "
                "in this pulka and, after that, a penalty equal to the over-entry "
                "(Кодекс 4.2.7)."
            ),
        )
    return (
        _(
            "The next deal has been recorded: only the player this error favoured may "
            "correct it now, of his own will and without penalty (Кодекс 4.2.9)."
        ),
    )


# --- a forgotten deal (4.2.10) --------------------------------------------------------------


@login_required
@require_POST
@once_per_entry
def propose(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Propose a forgotten deal from the form in proposal mode; the table answers."""
    pulka = pulka_for(request, pk, change=True)
    refusal = corrections.proposal_refusal(pulka, request.user)
    if refusal is not None:
        return _refuse(request, pulka, refusal)
    deals, known = load_deals(pulka), load_corrections(pulka)
    scored = services.score(pulka, deals, known)
    form = DealForm(scored.state, request.POST)
    if form.is_valid():
        if form.cleaned_data["number"] != len(deals) + 1:
            message = _("Deal %(number)s was already recorded on another device.") % {
                "number": form.cleaned_data["number"]
            }
            return refuse(request, pulka, 409, message)
        try:
            propose_forgotten(pulka.pk, request.user, form.facts)
        except DealError as error:
            form.add_engine_error(error)
        except services.NotAllowed as error:
            return refuse(request, pulka, 409, str(error))
        else:
            return changed(request, pulka.pk)
    context = table_context(
        request, pulka, deals=deals, corrections=known, scored=scored, form=form, propose=True
    )
    return render_table(request, context, invalid_status(request), regions=("entry",))


@login_required
@require_POST
@once_per_entry
def answer(request: HtmxHttpRequest, pk: int, proposal: int) -> HttpResponse:
    """Agree to or refuse a forgotten deal for one seat: one's own, or a guest's."""
    pulka = pulka_for(request, pk, change=True)
    found = get_object_or_404(ForgottenDeal, pk=proposal, pulka=pulka)
    seat, choice = request_int(request.POST.get("seat"), max_digits=1), request.POST.get("answer")
    if seat is None or choice not in ("agree", "refuse"):
        return refuse(request, pulka, 400, _("Choose Agree or Refuse."))
    refusal = corrections.answer_refusal(pulka, request.user)
    if refusal is not None:
        return _refuse(request, pulka, refusal)
    try:
        answer_forgotten(found.pk, request.user, seat, choice == "agree")
    except services.NotAllowed as error:
        return refuse(request, pulka, 409, str(error))
    return changed(request, pulka.pk)


# --- the audit trail --------------------------------------------------------------------------


@login_required
@require_safe
def audit_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Everything that happened to the sheet, in order, with who and when; nothing is
    ever deleted, so the withdrawn deal rows are listed too."""
    pulka = pulka_for(request, pk)
    events = list(pulka.audit_events.select_related("user").order_by("at", "pk"))
    context = {
        "pulka": pulka,
        "lines": trail_words.audit_lines(events, Seating.of(pulka), pulka.player_names),
        "withdrawn": trail_words.withdrawn_rows(pulka),
    }
    return render_page(request, "games/audit.html", context, "trail")
