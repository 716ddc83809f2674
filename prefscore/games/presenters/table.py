"""The table screen's context: the drawn sheet, the protocol and the entry form.

``table_context`` gathers everything ``games/sheet.html`` shows, for the sheet page, the
poll and every view that answers with the screen's regions (entry, corrections). The
figures come from the engine through the other presenters; the rules (the pencil,
the earlier states of the sheet) from ``services`` and ``replay``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from scoring.conventions import convention_label
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import SheetState

from .. import pencil as pencil_rule
from .. import services, tickets, trail
from ..corrections import may_arbitrate
from ..forms import DealForm
from ..models import Correction, Deal, ForgottenDeal, Pulka
from ..replay import score_before_last
from .entry import EntryForm, entry_form, values_from_facts
from .protocol import LineActions, protocol_lines
from .sheet import draw_sheet, paper_of, sheet_rows


def line_actions(
    request: HttpRequest, pulka: Pulka, deals: Sequence[Deal], seats: Sequence[int]
) -> LineActions:
    """Which deal lines offer the viewer "Correct" and "Arbiter's decision".

    Players at the table correct any deal of a running pulka (after the next deal the
    rules let only the favoured player, which the correction itself decides, 4.2.9),
    but not the last deal while its recorder holds the pencil; in a finished pulka only
    the last deal. Organisers and admins decide as arbiters in tournament pulkas.
    """
    if pulka.status == Pulka.Status.ARCHIVED or not deals:
        return LineActions()
    held = pencil_rule.pencil_holder(pulka, deals)
    numbers = range(1, len(deals) + 1) if not pulka.is_frozen else [len(deals)]
    correctable = frozenset(n for n in numbers if held is None or n != held.number)
    held_text = ""
    if held is not None and held.entered_by_id != request.user.pk:
        held_text = _(
            "%(user)s holds the pencil on this deal until %(time)s: until then only he "
            "changes it (Кодекс 4.2.8)."
        ) % {
            "user": held.entered_by.get_username() if held.entered_by else "—",
            "time": time_format(timezone.localtime(pencil_rule.pencil_until(pulka, held)), "H:i"),
        }
    return LineActions(
        correctable=correctable if seats else frozenset(),
        arbiter=may_arbitrate(pulka, request.user),
        held=held.number if held is not None and seats else None,
        held_text=held_text,
    )


def table_context(
    request: HttpRequest,
    pulka: Pulka,
    *,
    deals: list[Deal] | None = None,
    corrections: list[Correction] | None = None,
    scored: ScoredPulka | None = None,
    form: DealForm | None = None,
    change: int | None = None,
    propose: bool = False,
    entry: EntryForm | None = None,
    notice: str = "",
) -> dict[str, Any]:
    """Everything the table screen shows, from the pulka and its standing deals.

    ``change`` asks for the last deal's facts in the form again (pencil rule, Кодекс
    4.2.8); it is honoured only for whoever holds the pencil. ``propose`` puts the form
    in forgotten-deal mode (Кодекс 4.2.10) for a player at the table; ``entry`` is a
    form made by the caller (a correction). ``form`` is a bound form to show again with
    its errors. ``deals``, ``corrections`` and ``scored`` spare the queries and the
    scoring when the caller has them already.
    """
    if deals is None:
        deals = services.load_deals(pulka)
    if corrections is None:
        corrections = services.load_corrections(pulka)
    if scored is None:
        scored = services.score(pulka, deals, corrections)
    seating = trail.Seating.of(pulka)
    seats = seating.of_user(request.user)
    proposal = trail.latest_proposal(pulka)
    pending = proposal is not None and proposal.status == ForgottenDeal.Status.PENDING
    may_propose = bool(seats) and not pending and not pulka.is_frozen
    pencil = pencil_rule.pencil_deal(pulka, request.user, deals)
    changing = pencil is not None and change == pencil.number
    if entry is not None:
        pass
    elif changing:
        assert pencil is not None
        before = score_before_last(pulka, deals, corrections)
        entry = _change_form(pulka, before, pencil, form)
    elif propose and may_propose:
        entry = _propose_form(pulka, scored.state, len(deals) + 1, form)
    elif not pulka.is_frozen:
        entry = entry_form(
            scored.state,
            reverse("games:record", args=[pulka.pk]),
            len(deals) + 1,
            form.typed() if form is not None else {},
            form.grouped_errors() if form is not None else {},
        )
    paper = paper_of(scored)
    protocol = protocol_lines(
        scored,
        deals,
        pencil,
        paper=paper,
        corrections=services.in_log_order(corrections),
        actions=line_actions(request, pulka, deals, seats),
    )
    banner = trail.forgotten_banner(
        pulka, proposal, seating, request.user, scored.state, deals[-1] if deals else None
    )
    return {
        "pulka": pulka,
        "convention": convention_label(pulka.convention_name),
        "names": scored.pulka.names,
        "finished": pulka.status == Pulka.Status.FINISHED,
        "end_message": end_message(scored),
        "closed": scored.state.closed,
        "deal_count": len(deals),
        "drawn": draw_sheet(scored, paper),
        "rows": sheet_rows(scored, paper),
        "protocol": protocol,
        "corrected": bool(corrections),
        "forgotten": banner,
        "may_propose": may_propose and (entry is None or entry.mode == "record"),
        "pencil": pencil,
        "pencil_until": pencil_rule.pencil_until(pulka, pencil) if pencil else None,
        "entry": entry,
        "notice": notice,
        "poll_url": tickets.poll_url(pulka, tickets.ticket_for(request, pulka)),
    }


def _change_form(
    pulka: Pulka, before: SheetState, pencil: Deal, form: DealForm | None
) -> EntryForm:
    """The last deal's form again, in the state it was dealt in."""
    if form is not None:
        values, errors = form.typed(), form.grouped_errors()
    else:
        values = values_from_facts(pencil.facts, before.names)
        errors = {}
    return entry_form(
        before,
        reverse("games:pencil", args=[pulka.pk, pencil.number]),
        pencil.number,
        values,
        errors,
        mode="change",
    )


def _propose_form(pulka: Pulka, state: SheetState, number: int, form: DealForm | None) -> EntryForm:
    """The next deal's form, proposing a forgotten deal for the table's consent."""
    return entry_form(
        state,
        reverse("games:propose", args=[pulka.pk]),
        number,
        form.typed() if form is not None else {},
        form.grouped_errors() if form is not None else {},
        mode="propose",
        notes=(
            _(
                "A deal played but not recorded is added once every player at the table "
                "agrees, each on his own device; one refusal drops it, and so does "
                "recording the next deal (Кодекс 4.2.10)."
            ),
        ),
    )


def end_message(scored: ScoredPulka) -> str:
    """Why a finished pulka is over, by its convention's ``end`` (docs/rules.md §3.5).

    A pulka ended by the deal limit, or closed by the tournament's organiser before
    its end, does not say that every pulya is closed (issue 14, defect 7).
    """
    state = scored.state
    if not state.closed:
        return _("The organiser closed this table: the sheet is frozen.")
    end = scored.pulka.convention.end
    if end == "deals":
        return _("The deal limit is reached: the sheet is frozen.")
    if end == "sum_reached":
        return _("The pulyas add up to the total: the sheet is frozen.")
    return _("Every pulya is closed: the sheet is frozen.")
