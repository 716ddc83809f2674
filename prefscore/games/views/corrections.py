"""Corrections at the table by the Кодекс: rules 4.2.7 to 4.2.10 and 4.2.16.

``correct`` puts a recorded deal's facts, as they stand, back in the entry form and
applies the corrected facts (4.2.7; after the next deal only the favoured player may,
4.2.9); ``arbiter`` does the same as an arbiter's decision in a tournament pulka
(4.2.16); ``propose`` and ``answer`` add a forgotten deal once the whole table agrees
(4.2.10); ``audit_page`` lists everything that ever happened to the sheet.

As with recording (``entry.py``): with htmx every answer swaps the table's regions out
of band; without it a success redirects to the sheet (POST/redirect/GET) and a refusal
shows the form again. A wrong entry is 422 (htmx) or 200 (page); not being allowed 403;
a state that forbids it (finished pulka, a held pencil, an answered proposal) 409.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.engine.deals import Deal as EngineDeal
from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import SheetState, apply
from scoring.messages import message_for

from .. import presenters, services, trail
from ..access import pulka_for
from ..corrections import answer_forgotten, correct_deal, may_arbitrate, propose_forgotten
from ..forms import ArbiterForm, DealForm
from ..models import Deal, ForgottenDeal, Pulka
from .entry import _saved
from .sheet import (
    effective_facts,
    load_corrections,
    load_deals,
    pencil_holder,
    render_table,
    state_before,
    table_context,
)


def _invalid_status(request: HttpRequest) -> int:
    return 422 if request.htmx else 200


def _refused(
    request: HttpRequest, pulka: Pulka, message: str, status: int, **known: Any
) -> HttpResponse:
    """The message above the table's own form, with the sheet as it stands now."""
    return render_table(request, table_context(request, pulka, notice=message, **known), status)


# --- correcting a deal (4.2.7, 4.2.9) and an arbiter's decision (4.2.16) -------------------


@login_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Deal ``number`` in the form again, for a player at the table to correct it."""
    return _correction(request, pk, number, arbiter=False)


@login_required
@require_http_methods(["GET", "POST"])
def arbiter(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Deal ``number`` in the form again, for an organiser's arbiter decision."""
    return _correction(request, pk, number, arbiter=True)


def _correction(request: HttpRequest, pk: int, number: int, *, arbiter: bool) -> HttpResponse:
    pulka = pulka_for(request, pk, change=True)
    deals, corrections = load_deals(pulka), load_corrections(pulka)
    if not 1 <= number <= len(deals):
        raise Http404(_("There is no deal %(number)s to correct.") % {"number": number})
    refusal = (
        _arbiter_refusal(request, pulka) if arbiter else _refusal(request, pulka, deals, number)
    )
    if refusal is not None:
        message, status = refusal
        return _refused(request, pulka, message, status, deals=deals, corrections=corrections)
    scored = services.score(pulka, deals, corrections)
    facts = effective_facts(deals, corrections)
    before = state_before(scored, facts, number)
    form: DealForm | None = None
    status = 200
    if request.method == "POST":
        form = (ArbiterForm if arbiter else DealForm)(before, request.POST)
        status = _invalid_status(request)
        if form.is_valid():
            outcome = _apply(
                request, pulka, number, len(deals), form, before, facts[number - 1], arbiter
            )
            if outcome is None:
                return _saved(request, pulka.pk)
            status = outcome
    entry = _correction_form(pulka, scored, before, facts[number - 1], number, form, arbiter)
    if request.htmx:
        context = table_context(
            request, pulka, deals=deals, corrections=corrections, scored=scored, entry=entry
        )
        return render_table(request, context, status, regions=("entry",))
    record = scored.records[number - 1]
    context = {
        "pulka": pulka,
        "entry": entry,
        "number": number,
        "notation": record.notation,
        "entries": tuple(presenters.explain(e, scored.pulka.names) for e in record.entries),
    }
    response = render(request, "games/correct.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _refusal(
    request: HttpRequest, pulka: Pulka, deals: list[Deal], number: int
) -> tuple[str, int] | None:
    """Why this user may not correct deal ``number`` now, whatever the facts, or None."""
    if not trail.Seating.of(pulka).of_user(request.user):
        return _("Only the players at this table may correct its deals."), 403
    if pulka.is_frozen and number != len(deals):
        return _("This pulka is finished: only an arbiter may correct it now."), 409
    held = pencil_holder(pulka, deals)
    if held is not None and held.number == number:
        if held.entered_by_id == request.user.pk:
            return _("You hold the pencil on this deal: change it instead (Кодекс 4.2.8)."), 409
        return (
            _(
                "%(user)s still holds the pencil on this deal: until he puts it down only he "
                "changes it (Кодекс 4.2.8)."
            )
            % {"user": held.entered_by.get_username() if held.entered_by else "—"},
            409,
        )
    return None


def _arbiter_refusal(request: HttpRequest, pulka: Pulka) -> tuple[str, int] | None:
    if pulka.tournament_id is None:
        return _("Arbiters' decisions are for tournament pulkas only."), 403
    if not may_arbitrate(pulka, request.user):
        return _("Only an organiser of the club applies an arbiter's decision."), 403
    return None


def _apply(
    request: HttpRequest,
    pulka: Pulka,
    number: int,
    count: int,
    form: DealForm,
    before: SheetState,
    standing: dict[str, Any],
    arbiter: bool,
) -> int | None:
    """Correct the deal; None when done, else the status to show the form again with."""
    facts = dict(form.facts)
    if standing.get("dealer"):
        facts["dealer"] = standing["dealer"]  # the form has no dealer: keep the deal's own
    try:
        corrected = parse_deal(facts)
        apply(before, corrected)
    except DealError as error:
        form.add_engine_error(error)
        return _invalid_status(request)
    if _same(corrected, _parsed(standing)):
        form.add_notice(_("These are the facts that stand: change what was wrong, or cancel."))
        return _invalid_status(request)
    extra: dict[str, Any] = {}
    if arbiter:
        extra = {
            "arbiter_reason": form.cleaned_data["reason"],
            "arbiter_penalty": form.cleaned_data["penalty"],
        }
    try:
        correct_deal(pulka.pk, request.user, number, facts, **extra)
    except services.NotAllowed as error:
        late = not arbiter and number < count
        form.add_notice(_past_deadline() if late else str(error))
        return 403
    except DealError as error:
        form.add_notice(later_deal_error(error, number))
        return _invalid_status(request)
    return None


def _past_deadline() -> str:
    return _(
        "Refused: the wrong record did not favour you, and after the next deal only the "
        "player it favoured may correct it (Кодекс 4.2.9). An organiser can ask the judges."
    )


def _parsed(facts: dict[str, Any]) -> EngineDeal | None:
    try:
        return parse_deal(facts)
    except DealError:
        return None


def _same(a: EngineDeal, b: EngineDeal | None) -> bool:
    """The same facts, whatever order the players were named in."""
    if b is None:
        return False
    return (a.contract, a.declarer, sorted(a.whists), sorted(a.tricks or ()), a.prikup) == (
        b.contract,
        b.declarer,
        sorted(b.whists),
        sorted(b.tricks or ()),
        b.prikup,
    )


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
    subject = trail.describe_facts(standing, before.names)
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
        notes = _correction_notes(number, len(scored.records))
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


def _correction_notes(number: int, count: int) -> tuple[str, ...]:
    if number == count:
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
def propose(request: HttpRequest, pk: int) -> HttpResponse:
    """Propose a forgotten deal from the form in proposal mode; the table answers."""
    pulka = pulka_for(request, pk, change=True)
    if not trail.Seating.of(pulka).of_user(request.user):
        return _refused(
            request, pulka, _("Only the players at this table may add a forgotten deal."), 403
        )
    if pulka.is_frozen:
        return _refused(request, pulka, _("This pulka is finished: its sheet is frozen."), 409)
    deals, corrections = load_deals(pulka), load_corrections(pulka)
    scored = services.score(pulka, deals, corrections)
    form = DealForm(scored.state, request.POST)
    if form.is_valid():
        if form.cleaned_data["number"] != len(deals) + 1:
            message = _("Deal %(number)s was already recorded on another device.") % {
                "number": form.cleaned_data["number"]
            }
            return _refused(request, pulka, message, 409)
        try:
            propose_forgotten(pulka.pk, request.user, form.facts)
        except DealError as error:
            form.add_engine_error(error)
        except services.NotAllowed as error:
            return _refused(request, pulka, str(error), 409)
        else:
            return _saved(request, pulka.pk)
    context = table_context(
        request, pulka, deals=deals, corrections=corrections, scored=scored, form=form, propose=True
    )
    return render_table(request, context, _invalid_status(request), regions=("entry",))


@login_required
@require_POST
def answer(request: HttpRequest, pk: int, proposal: int) -> HttpResponse:
    """Agree to or refuse a forgotten deal for one seat: one's own, or a guest's."""
    pulka = pulka_for(request, pk, change=True)
    found = get_object_or_404(ForgottenDeal, pk=proposal, pulka=pulka)
    seat, choice = request.POST.get("seat", ""), request.POST.get("answer", "")
    if not seat.isdigit() or len(seat) > 2 or choice not in ("agree", "refuse"):
        return _refused(request, pulka, _("Choose Agree or Refuse."), 400)
    if not trail.Seating.of(pulka).of_user(request.user):
        return _refused(request, pulka, _("Only the players at this table answer."), 403)
    try:
        answer_forgotten(found.pk, request.user, int(seat), choice == "agree")
    except services.NotAllowed as error:
        return _refused(request, pulka, str(error), 409)
    return _saved(request, pulka.pk)


# --- the audit trail --------------------------------------------------------------------------


@login_required
@require_GET
def audit_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Everything that happened to the sheet, in order, with who and when; nothing is
    ever deleted, so the withdrawn deal rows are listed too."""
    pulka = pulka_for(request, pk)
    events = list(pulka.audit_events.select_related("user").order_by("at", "pk"))
    context = {
        "pulka": pulka,
        "lines": trail.audit_lines(events, trail.Seating.of(pulka), pulka.player_names),
        "withdrawn": trail.withdrawn_rows(pulka),
    }
    template = "games/audit.html#trail" if request.htmx else "games/audit.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
