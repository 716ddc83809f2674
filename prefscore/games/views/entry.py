"""Recording a deal, and changing or undoing the last one under the pencil rule.

With htmx each answer swaps the table's regions out of band; without it a success
redirects to the sheet (POST/redirect/GET) and a refusal shows the page again.
Errors: a wrong entry 422 (htmx) or 200 (page), a deal recorded first elsewhere 409,
a finished pulka 409, a pencil that is not yours 403.

The deal number and the client id the page gives each entry (static/js/outbox.js)
make recording idempotent: a phone that lost the answer sends the same entry again,
and if a deal of this pulka carries its client id (or, from a page without the
script, that deal stands as this user recorded it with the same facts), the answer is
the success it missed (the sheet as it stands), never a second deal. A deal recorded
first by someone else (or another entry of one's own) is 409: both entries side by
side, what is on the sheet and what was sent, with the choice to record the entry as
the next deal or to discard it (``presenters.conflict``); the 409 carries
``X-Entry-Conflict`` for the outbox to tell it from a refusal.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from prefscore.web import HtmxHttpRequest, invalid_status, redirect_to, request_int
from scoring.engine.errors import DealError

from .. import recording, services
from ..access import Seating, pencil_deal, pulka_and_seats_for, pulka_for
from ..forms import DealForm
from ..models import Correction, Deal, Pulka
from ..presenters import entry_form, table_context
from ..presenters.conflict import entry_conflict
from ..replay import score_before_last
from .sheet import changed, client_id, once_per_entry, refuse, render_table, reread


@login_required
@require_POST
def record(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Record the next deal from the entry form (docs/design.md, "How a deal flows").

    The log at the version read comes from the cache (``recording``): a deal on a
    table whose phones have seen the version reads no deal and folds nothing again.
    """
    pulka, seats = pulka_and_seats_for(request, pk, change=True)  # one query
    seating = Seating(seats)  # the seats the answer's screen shows, read with the pulka
    log = recording.log_of(pulka)
    deals, corrections = list(log.deals), list(log.corrections)
    number = request_int(request.POST.get("number", ""), max_digits=7)
    if number is not None and 1 <= number <= len(deals):
        # Answered before: a deal this entry made stands, or the 409 (no second deal).
        return _already_recorded(request, pulka, log, number, seating)
    if pulka.is_frozen:
        return refuse(
            request,
            pulka,
            409,
            _("This pulka is over: it takes no more deals."),
            deals=deals,
            corrections=corrections,
            scored=log.scored,
            seating=seating,
        )
    form = DealForm(log.scored.state, request.POST)
    if form.is_valid():
        try:
            done = recording.record(
                pulka,
                log,
                form.facts,
                request.user,
                form.cleaned_data["number"],
                client_id(request),
            )
        except DealError as error:
            form.add_engine_error(error)
        except services.Conflict:
            # Recorded meanwhile, here or on another device: judged as a repeat.
            pulka = reread(pk)
            number = form.cleaned_data["number"]
            return _already_recorded(request, pulka, recording.log_of(pulka), number, seating)
        except services.NotAllowed as error:
            return refuse(request, reread(pk), 409, str(error))
        else:
            return _recorded(request, done, seating)
    context = table_context(
        request,
        pulka,
        deals=deals,
        corrections=corrections,
        scored=log.scored,
        form=form,
        seating=seating,
    )
    return render_table(request, context, invalid_status(request), regions=("entry",))


def _recorded(request: HtmxHttpRequest, done: recording.Done, seating: Seating) -> HttpResponse:
    """The sheet page again, or with htmx the regions of the version the deal made: as
    it stood when the deal was saved, which the next poll brings up to date. Its shared
    regions are rendered here, once, for every other device's next poll."""
    if not request.htmx:
        return redirect_to(request, reverse("games:sheet", args=[done.pulka.pk]))
    log = done.log
    context = table_context(
        request,
        done.pulka,
        deals=list(log.deals),
        corrections=list(log.corrections),
        scored=log.scored,
        seating=seating,
    )
    return render_table(request, context)


def _already_recorded(
    request: HtmxHttpRequest,
    pulka: Pulka,
    log: recording.Log,
    number: int,
    seating: Seating | None = None,
) -> HttpResponse:
    """A form for a deal that stands already (or one beyond the next): a repeat of this
    user's own record is answered as its success; anything else is the 409 that offers
    the entry again. ``log`` is the log at ``pulka.version``; ``seating`` its seats,
    when the caller read them."""
    deals, corrections = list(log.deals), list(log.corrections)
    sent = client_id(request)
    if sent is not None:
        if Deal.objects.filter(pulka=pulka, client_id=sent).exists():
            return changed(request, pulka.pk)  # this very entry, recorded before
    elif _is_repeat(request, pulka, deals, corrections, number):
        return changed(request, pulka.pk)
    if number > len(deals):  # a form from a future that never came: out of date
        conflict = _("This form is out of date: reload the page.")
    elif deals[number - 1].entered_by_id == request.user.pk:  # an earlier try, other facts
        conflict = _("You recorded deal %(number)s already, as the protocol shows.")
    else:
        conflict = _("Deal %(number)s was already recorded on another device.")
    conflict %= {"number": number}
    known: dict[str, Any] = {"deals": deals, "corrections": corrections, "scored": log.scored}
    if seating is not None:
        known["seating"] = seating
    if pulka.is_frozen:
        return refuse(request, pulka, 409, conflict, **known)
    if number <= len(deals):  # both entries side by side: the player chooses
        both = entry_conflict(pulka, deals, corrections, log.scored, number, request.POST, sent)
        context = table_context(request, pulka, conflict=both, notice=conflict, **known)
        response = render_table(request, context, 409)
        response["X-Entry-Conflict"] = str(number)
        return response
    state = log.scored.state
    again = DealForm(state, request.POST)  # the seats' fields of the next deal
    offered = entry_form(
        state, reverse("games:record", args=[pulka.pk]), len(deals) + 1, again.typed()
    )
    kept = _("Your entry is kept below: check it and record it as deal %(number)s.") % {
        "number": offered.number
    }
    return refuse(request, pulka, 409, f"{conflict} {kept}", entry=offered, **known)


def _is_repeat(
    request: HtmxHttpRequest,
    pulka: Pulka,
    deals: list[Deal],
    corrections: list[Correction],
    number: int,
) -> bool:
    """Deal ``number`` stands as this user recorded it, with the facts this form gives
    when read in the state that deal was dealt in (its dealer, who sat out)."""
    if not 1 <= number <= len(deals):
        return False
    deal = deals[number - 1]
    if deal.entered_by_id != request.user.pk:
        return False
    earlier = [c for c in corrections if c.after_deal < number]
    state = services.score(pulka, deals[: number - 1], earlier).state
    form = DealForm(state, request.POST)
    return form.is_valid() and form.facts == deal.facts


@login_required
@require_POST
@once_per_entry
def pencil(request: HtmxHttpRequest, pk: int, number: int) -> HttpResponse:
    """Undo or change the last deal while its recorder holds the pencil (Кодекс 4.2.8).

    ``action`` is ``undo`` or ``change``; a change carries the whole form again.
    """
    pulka = pulka_for(request, pk, change=True)
    log = recording.log_of(pulka)
    deals, corrections = list(log.deals), list(log.corrections)
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
    if action == "undo" and request.htmx:
        # His own form holds the deal just undone, to be put right and recorded again.
        fresh = reread(pk)
        context = table_context(request, fresh, undone=holder.facts)
        return render_table(request, context)
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
