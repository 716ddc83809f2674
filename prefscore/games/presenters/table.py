"""The table screen's context: the drawn sheet, the protocol and the entry form.

``table_context`` gathers everything ``games/sheet.html`` shows, for the sheet page, the
poll and every view that answers with the screen's regions (entry, corrections). The
figures come from the engine through the other presenters; the rules (the pencil,
the earlier states of the sheet) from ``services`` and ``replay``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from prefscore.clubs.models import MembershipRequest, Role
from prefscore.clubs.names import display_name
from scoring.conventions import convention_label
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import SheetState

from .. import access, poll_tickets, recording, render_cache
from .. import pencil as pencil_rule
from ..abandon import pending_with_answers
from ..corrections import tournament_finished
from ..forms import DealForm
from ..manual_entries import is_manual_row
from ..models import Correction, Deal, ForgottenDeal, Pulka
from ..recording import score_before_last
from ..seating import Seating
from .conflict import EntryConflict
from .entry import EntryForm, abandon_panel, entry_form, over_text, values_from_facts
from .protocol import (
    LineActions,
)
from .regions import Shared, StandingDeals, protocol_regions, sheet_region, status_region
from .trail import forgotten_banner

# The table screen's protocol shows the last so many deals, newest first; a link shows
# them all. A real evening's pulka (under a hundred deals) is always shown whole; a
# marathon log at the limits (2,000 deals) would otherwise send every phone megabytes
# after each deal.
PROTOCOL_DEALS = 100


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
    if pencil_rule.result_locked(pulka):  # a closed tournament table: the arbiter's alone
        numbers = []
    correctable = frozenset(n for n in numbers if held is None or n != held.number)
    held_text = ""
    if held is not None and held.entered_by_id != request.user.pk:
        held_text = _(
            "%(user)s holds the pencil on this deal until %(time)s: until then only he "
            "changes it (Кодекс 4.2.8)."
        ) % {
            "user": display_name(held.entered_by) if held.entered_by else "—",
            "time": time_format(timezone.localtime(pencil_rule.pencil_until(pulka, held)), "H:i"),
        }
    return LineActions(
        correctable=correctable if seats else frozenset(),
        arbiter=access.may_arbitrate(pulka, request.user) and not tournament_finished(pulka),
        held=held.number if held is not None and seats else None,
        held_text=held_text,
    )


def current_state(pulka: Pulka, deals: list[Deal], corrections: list[Correction]) -> SheetState:
    """The sheet's state at the pulka's version, from the cache when a device has seen
    it already: what the entry form checks a new deal against."""
    return Shared(pulka, deals, corrections, None).state()


def _protocol(
    request: HttpRequest,
    pulka: Pulka,
    made: Shared,
    seats: Sequence[int],
    pencil: Deal | None,
    newest: int | None,
) -> dict[str, Any]:
    """The protocol's parts (``regions.protocol_regions``), with what this viewer may do
    on its lines."""
    actions = line_actions(request, pulka, made.standing, seats)
    held = pencil.number if pencil is not None else None
    until = pencil_rule.pencil_until(pulka, pencil) if pencil is not None else None
    return protocol_regions(pulka, made, actions, held, until, newest)


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
    conflict: EntryConflict | None = None,
    notice: str = "",
    whole_protocol: bool = False,
    seating: Seating | None = None,
    undone: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the table screen shows, from the pulka and its standing deals.

    ``undone``: the facts of a deal its recorder just undid (Кодекс 4.2.8): the form
    for the next deal holds them, to be put right and recorded again.

    ``change`` asks for the last deal's facts in the form again (pencil rule, Кодекс
    4.2.8); it is honoured only for whoever holds the pencil. ``propose`` puts the form
    in forgotten-deal mode (Кодекс 4.2.10) for a player at the table; ``entry`` is a
    form made by the caller (a correction). ``form`` is a bound form to show again with
    its errors. ``deals``, ``corrections`` and ``scored`` spare the queries and the
    scoring when the caller has them already. ``whole_protocol`` shows every deal's
    line, not the last ``PROTOCOL_DEALS``. ``seating`` spares its query when the caller
    read the seats with the pulka (``access.pulka_and_seats_for``).

    The shared regions (``*_region``: the status line, the drawn sheet, the older
    protocol lines, the next deal's empty form) are ``render_cache.Region``s: rendered
    when the page shows them, from the cache, and from values the version settles.
    """
    newest = None if whole_protocol else PROTOCOL_DEALS
    standing: Sequence[Deal] = StandingDeals(pulka) if deals is None else deals
    made = Shared(pulka, standing, corrections, scored)
    # Asked only by the parts that read the state: a body shared from the cache needs none.
    state = made.state
    seating = seating if seating is not None else Seating.of(pulka)
    seats = seating.of_user(request.user)
    # Proposals and their answers move the version (corrections.py, abandon.py).
    proposal = render_cache.versioned(pulka, "proposal", lambda: recording.latest_proposal(pulka))
    pending = proposal is not None and proposal.status == ForgottenDeal.Status.PENDING
    may_propose = bool(seats) and not pending and not pulka.is_frozen
    pencil = pencil_rule.pencil_deal(pulka, request.user, standing)
    # A manual line under the pencil is undone, never changed in the deal form (§3.11).
    changing = pencil is not None and change == pencil.number and not is_manual_row(pencil)
    entry_region = None  # only the empty form of the next deal is the same for everyone
    if entry is not None or conflict is not None:
        pass
    elif changing:
        assert pencil is not None
        before = score_before_last(pulka, made.deals, made.corrections)
        entry = _change_form(pulka, before, pencil, form)
    elif propose and may_propose:
        entry = _propose_form(pulka, state(), len(standing) + 1, form)
    elif undone and "contract" in undone and not pulka.is_frozen and form is None:
        values = values_from_facts(dict(undone), pulka.player_names)
        action = reverse("games:record", args=[pulka.pk])
        entry = entry_form(state(), action, len(standing) + 1, values)
    elif not pulka.is_frozen and form is None:
        entry_region = _next_deal_region(pulka, state, len(standing) + 1)
    elif form is not None and not pulka.is_frozen:
        entry = entry_form(
            state(),
            reverse("games:record", args=[pulka.pk]),
            len(standing) + 1,
            form.typed(),
            form.grouped_errors(),
        )
    banner = None  # without a proposal (forgotten_banner), no state is read
    if proposal is not None:
        last = standing[-1] if standing else None
        banner = forgotten_banner(pulka, proposal, seating, request.user, state(), last)
    pencil_until = pencil_rule.pencil_until(pulka, pencil) if pencil else None
    role = access.role_in_club(request, pulka.club)
    over = entry is None and entry_region is None and conflict is None
    return {
        "pulka": pulka,
        "convention": convention_label(pulka.convention_name),
        "names": tuple(pulka.player_names),
        "finished": pulka.status == Pulka.Status.FINISHED,
        # The screen is kept awake while it runs (static/js/wake.js).
        "running": pulka.status == Pulka.Status.RUNNING,
        "deal_count": len(standing),
        "status_region": status_region(pulka, len(standing)),
        "sheet_region": sheet_region(pulka, made),
        **_protocol(request, pulka, made, seats, pencil, newest),
        "forgotten": banner,
        "may_propose": may_propose and (entry is None or entry.mode == "record"),
        "pencil": pencil,
        "pencil_until": pencil_until,
        "over": over_text(pulka, state(), pencil_until, bool(seats)) if over else "",
        "abandon": abandon_panel(
            pulka,
            request.user,
            seating.seats,
            role,
            lambda p: render_cache.versioned(p, "abandonment", lambda: pending_with_answers(p)),
        ),
        # The manual entry form's link (docs/rules.md §3.11): admins, a tournament's organisers.
        "may_manual": not pulka.is_frozen and access.may_write_as(pulka, role),
        "seating": seating,  # the join panel's (templatetags/joining.py)
        "entry": entry,
        "entry_region": entry_region,
        # Another device's deal and the one sent for it, in the form's place (409).
        "conflict": conflict,
        "notice": notice,
        "poll_url": poll_tickets.poll_url(pulka, poll_tickets.ticket_for(request, pulka)),
        # An admin at the table sees who waits to join (one count, read only for him). It is
        # shown in the page's head, outside every shared region (render_cache.Region), so
        # one viewer's count is never kept for another.
        "waiting_requests": _waiting(pulka, role),
    }


def _next_deal_region(
    pulka: Pulka, state: Callable[[], SheetState], number: int
) -> render_cache.Region:
    """The next deal's empty form: the same for every viewer of a version."""

    def values() -> dict[str, Any]:
        action = reverse("games:record", args=[pulka.pk])
        return {"entry": entry_form(state(), action, number, {}, {})}

    return render_cache.Region(pulka, "entry", "games/_entry_form.html", values)


def _waiting(pulka: Pulka, role: str | None) -> int:
    """How many membership requests wait for this club's admins, for an admin; else 0."""
    if role != Role.ADMIN:
        return 0
    return MembershipRequest.objects.filter(club_id=pulka.club_id).pending().count()


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
