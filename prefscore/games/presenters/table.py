"""The table screen's context: the drawn sheet, the protocol and the entry form.

``table_context`` gathers everything ``games/sheet.html`` shows, for the sheet page, the
poll and every view that answers with the screen's regions (entry, corrections). The
figures come from the engine through the other presenters; the rules (the pencil,
the earlier states of the sheet) from ``services`` and ``replay``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import localize, time_format
from django.utils.translation import gettext as _

from prefscore.clubs.models import MembershipRequest, Role
from prefscore.clubs.names import display_name
from scoring.conventions import convention_label
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import SheetState
from scoring.engine.stats import balance_after_each_deal

from .. import access, poll_tickets, recording, render_cache, services
from .. import pencil as pencil_rule
from ..abandon import pending_with_answers
from ..corrections import tournament_finished
from ..forms import DealForm
from ..manual_entries import is_manual_row
from ..models import Correction, Deal, ForgottenDeal, Pulka
from ..recording import score_before_last
from ..seating import Seating
from ..titles import other_sheet
from .conflict import EntryConflict
from .entry import EntryForm, abandon_panel, entry_form, over_text, values_from_facts
from .numbers import BalanceChart, balance_chart, signed_remembered
from .protocol import (
    LineActions,
    ProtocolEvent,
    ProtocolLine,
    for_viewer,
    manual_notes,
    protocol_lines,
    split_newest,
)
from .sheet import Paper, draw_sheet, paper_of, sheet_table
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


class StandingDeals(Sequence[Deal]):
    """The standing deals, read lazily: the last one alone (one query) answers how many
    there are and who holds the pencil; the whole list is loaded only when a part not
    in the cache needs it. Standing deals are numbered 1…n without gaps (a new deal
    must be number n + 1, an undo withdraws the last one)."""

    def __init__(self, pulka: Pulka) -> None:
        self.pulka = pulka
        # The last deal is the version's too: every device after the first takes it
        # from the cache, in a 1-tuple so that "no deal yet" is cached as well.
        (self.last,) = render_cache.shared(pulka, "last-deal", self._last, language=False)
        self._all: list[Deal] | None = None

    def _last(self) -> tuple[Deal | None]:
        rows = self.pulka.deals.current().select_related("entered_by").order_by("-number")
        fields = (
            "pulka",
            "number",
            "facts",
            "entered_at",
            "entered_by__username",
            "entered_by__first_name",
        )
        return (rows.only(*fields).first(),)

    def all(self) -> list[Deal]:
        if self._all is None:  # the version's log (``recording``), read once
            self._all = list(recording.log_of(self.pulka).deals)
        return self._all

    def __len__(self) -> int:
        return self.last.number if self.last is not None else 0

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int) and self.last is not None and index in (-1, len(self) - 1):
            return self.last
        return self.all()[index]


class _Shared:
    """What every viewer of one version sees, made at most once per request, and only
    when the cache (``render_cache``) does not have the part already."""

    def __init__(
        self,
        pulka: Pulka,
        deals: Sequence[Deal],
        corrections: list[Correction] | None,
        scored: ScoredPulka | None,
    ) -> None:
        self.pulka, self._deals, self._corrections = pulka, deals, corrections
        self._scored = scored
        self._state: SheetState | None = None
        self._paper: Paper | None = None
        self._lines: dict[int | None, tuple[ProtocolLine | ProtocolEvent, ...]] = {}

    @property
    def deals(self) -> list[Deal]:
        deals = self._deals
        return deals.all() if isinstance(deals, StandingDeals) else list(deals)

    @property
    def corrections(self) -> list[Correction]:
        if self._corrections is None:
            if isinstance(self._deals, StandingDeals):
                self._corrections = list(recording.log_of(self.pulka).corrections)
            else:
                self._corrections = services.load_corrections(self.pulka)
        return self._corrections

    @property
    def scored(self) -> ScoredPulka:
        if self._scored is None:
            if isinstance(self._deals, StandingDeals) and self._corrections is None:
                self._scored = recording.log_of(self.pulka).scored
            else:
                self._scored = services.score(self.pulka, self.deals, self.corrections)
        return self._scored

    @property
    def paper(self) -> Paper:
        if self._paper is None:
            self._paper = paper_of(self.scored)
        return self._paper

    def state(self) -> SheetState:
        """The sheet's state now: the engine's fold, once per version (and per request)."""
        if self._scored is not None:
            return self._scored.state
        if self._state is None:
            self._state = render_cache.shared(
                self.pulka, "state", lambda: self.scored.state, language=False
            )
        return self._state

    def lines(self, newest: int | None) -> tuple[ProtocolLine | ProtocolEvent, ...]:
        """The protocol's lines as anyone sees them, before what the viewer may do."""
        if newest not in self._lines:
            self._lines[newest] = protocol_lines(
                self.scored,
                self.deals,
                None,
                paper=self.paper,
                corrections=services.in_log_order(self.corrections),
                newest=newest,
            )
        return self._lines[newest]


def current_state(pulka: Pulka, deals: list[Deal], corrections: list[Correction]) -> SheetState:
    """The sheet's state at the pulka's version, from the cache when a device has seen
    it already: what the entry form checks a new deal against."""
    return _Shared(pulka, deals, corrections, None).state()


def _tail_variant(actions: LineActions, last: int) -> str:
    """What one viewer may do on the protocol's older lines, as a digest: every viewer
    with the same digest sees the same older lines, byte for byte."""
    held = actions.held if actions.held != last else None
    older = (
        sorted(n for n in actions.correctable if n != last),
        actions.arbiter,
        held,
        actions.held_text if held is not None else "",
    )
    return hashlib.blake2b(repr(older).encode(), digest_size=8).hexdigest()


def _protocol(
    request: HttpRequest,
    pulka: Pulka,
    made: _Shared,
    seats: Sequence[int],
    pencil: Deal | None,
    newest: int | None,
) -> dict[str, Any]:
    """The protocol's parts: the newest deal's lines and the older ones, each a region
    shared by every viewer who may do the same on them (``_head_variant``,
    ``_tail_variant``)."""
    deals = made._deals
    actions = line_actions(request, pulka, deals, seats)
    held = pencil.number if pencil is not None else None
    head = render_cache.shared(
        pulka, "protocol-head", lambda: split_newest(made.lines(newest))[0], newest
    )
    last = len(deals)
    until = pencil_rule.pencil_until(pulka, pencil) if pencil is not None else None

    def head_values() -> dict[str, Any]:
        return {"protocol_head": for_viewer(head, actions, held, pulka.pk), "pencil_until": until}

    def tail_values() -> dict[str, Any]:
        lines = split_newest(made.lines(newest))[1]
        return {"protocol_tail": for_viewer(lines, actions, held, pulka.pk)}

    region = partial(render_cache.Region, pulka)
    template = "games/_protocol.html"
    return {
        # Read by the template only to know whether there is a line at all.
        "protocol_head": head,
        "protocol_head_region": region(
            "protocol-head-html",
            f"{template}#head",
            head_values,
            newest,
            _head_variant(head, actions, held, until),
        ),
        "protocol_tail_region": region(
            "protocol-tail",
            f"{template}#tail",
            tail_values,
            newest,
            _tail_variant(actions, last),
            # The viewer's pencil is on the last deal, in the head; were it ever on an
            # older one, his older lines would be his own.
            held if held not in (None, last) else "",
        ),
        "protocol_hidden": max(0, last - newest) if newest is not None else 0,
    }


def _head_variant(
    head: Sequence[ProtocolLine | ProtocolEvent],
    actions: LineActions,
    held: int | None,
    until: Any,
) -> str:
    """What one viewer may do on the newest deal's lines, and the pencil's time, as a
    digest: ``for_viewer``'s only inputs beside the lines, never the lines' repr."""
    numbers = sorted(line.number for line in head if isinstance(line, ProtocolLine))
    may_do = (
        numbers,
        sorted(n for n in actions.correctable if n in numbers),
        actions.arbiter,
        held,
        actions.held_text if actions.held in numbers else "",
        until.isoformat() if until is not None else "",
    )
    return hashlib.blake2b(repr(may_do).encode(), digest_size=12).hexdigest()


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
    made = _Shared(pulka, standing, corrections, scored)
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
        "status_region": render_cache.Region(
            pulka, "status", "games/_status.html", lambda: _status(pulka, len(standing))
        ),
        "sheet_region": render_cache.Region(
            pulka, "sheet", "games/_sheet_body.html", lambda: _sheet(made.scored, made.paper)
        ),
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
        # An admin at the table sees who waits to join (one count, read only for him;
        # a plain number, so that it keys the shared page: presenters/viewer_class.py).
        "waiting_requests": _waiting(pulka, role),
    }


def _status(pulka: Pulka, deals: int) -> dict[str, Any]:
    """The status line's values: the version settles each (``games/_status.html``)."""
    return {
        "pulka_id": pulka.pk,
        "finished": pulka.status == Pulka.Status.FINISHED,
        "archived": pulka.status == Pulka.Status.ARCHIVED,
        "convention": convention_label(pulka.convention_name),
        "status_target": _("to %(target)s") % {"target": localize(pulka.target)},
        "status_deals": _("deals: %(deals)s") % {"deals": localize(deals)},
        # The other sheet of a table played on short (§4.9; none at a club pulka).
        **(other_sheet(pulka.title_parts) if pulka.title_parts else {}),
    }


def _sheet(scored: ScoredPulka, paper: Paper) -> dict[str, Any]:
    """The drawn sheet's values (``games/_sheet_body.html``): the engine's fold, drawn."""
    return {
        "drawn": draw_sheet(scored, paper),
        "sheet_figures": sheet_table(scored, paper),
        # Each player's balance after every deal, drawn with the sheet.
        "balance": balance_of(scored),
        # The manual lines' reasons under the drawn sheet (docs/rules.md §3.11).
        "manual_notes": manual_notes(scored),
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


def balance_of(scored: ScoredPulka) -> BalanceChart | None:
    """The chart of each player's balance, settled as if the pulka stopped after each deal."""
    balances = balance_after_each_deal(scored)
    return balance_chart(scored.pulka.names, balances, signed_remembered(), _("deals"))


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
