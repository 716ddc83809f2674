"""The three regions every page that shows a sheet has: the status line, the drawn sheet
and the protocol (docs/design.md, "Joining a table, and watching it").

Each region is one presenter here and one template: ``games/_status.html``,
``games/_sheet_body.html`` and ``games/_protocol.html``. The table screen
(``presenters/table.py``) and the spectator page (``presenters/spectator.py``) both take
them from here, so that a sheet reads the same at the table and to a spectator; the words
a region shows are in its template. Each is a ``render_cache.Region``: rendered once per
version (and per variant: what the viewer may do, whether the club's links show) and
shared by every viewer of it.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from functools import partial
from typing import Any

from django.utils.translation import gettext as _

from scoring.conventions import convention_label
from scoring.engine.pulka import ScoredPulka
from scoring.engine.sheet import SheetState
from scoring.engine.stats import balance_after_each_deal

from .. import recording, render_cache, services
from ..models import Correction, Deal, Pulka
from ..titles import other_sheet
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


class Shared:
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
    def standing(self) -> Sequence[Deal]:
        """The standing deals as given: counted without reading them all."""
        return self._deals

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


def status_region(pulka: Pulka, deals: int, *, links: bool = True) -> render_cache.Region:
    """The status line (``games/_status.html``): how the pulka stands, its convention,
    target and deals. ``links``: the club's pages (the settlement, the audit trail, the
    other sheet of a table played on short), which a spectator does not see."""

    def values() -> dict[str, Any]:
        return {
            "pulka_id": pulka.pk,
            "finished": pulka.status == Pulka.Status.FINISHED,
            "archived": pulka.status == Pulka.Status.ARCHIVED,
            "convention": convention_label(pulka.convention_name),
            "target": pulka.target,
            "deals": deals,
            "links": links,
            # The other sheet of a table played on short (§4.9; none at a club pulka).
            **(other_sheet(pulka.title_parts) if links and pulka.title_parts else {}),
        }

    variant = () if links else ("bare",)
    return render_cache.Region(pulka, "status", "games/_status.html", values, *variant)


def sheet_region(pulka: Pulka, made: Shared) -> render_cache.Region:
    """The drawn sheet (``games/_sheet_body.html``): the engine's fold, drawn, with its
    figures, each player's balance after every deal and the manual lines' reasons
    (docs/rules.md §3.11); the same for every viewer."""
    return render_cache.Region(
        pulka, "sheet", "games/_sheet_body.html", lambda: _sheet(made.scored, made.paper)
    )


def _sheet(scored: ScoredPulka, paper: Paper) -> dict[str, Any]:
    return {
        "drawn": draw_sheet(scored, paper),
        "sheet_figures": sheet_table(scored, paper),
        "balance": balance_of(scored),
        "manual_notes": manual_notes(scored),
    }


def balance_of(scored: ScoredPulka) -> BalanceChart | None:
    """The chart of each player's balance, settled as if the pulka stopped after each deal."""
    balances = balance_after_each_deal(scored)
    return balance_chart(scored.pulka.names, balances, signed_remembered(), _("deals"))


def without_accounts(line: ProtocolLine | ProtocolEvent) -> ProtocolLine | ProtocolEvent:
    """A protocol line without the club's accounts: who recorded or corrected a deal and
    the arbiter's notes name the club's members, which a spectator does not see."""
    if isinstance(line, ProtocolLine):
        return dataclasses.replace(line, recorded_by="", corrected_by=(), pencil=False)
    return dataclasses.replace(line, note="")


def protocol_regions(
    pulka: Pulka,
    made: Shared,
    actions: LineActions,
    held: int | None,
    until: Any,
    newest: int | None,
    *,
    accounts: bool = True,
) -> dict[str, Any]:
    """The protocol's parts (``games/_protocol.html``): the newest deal's lines and the
    older ones, each a region shared by every viewer who may do the same on them
    (``actions``; ``held``: the deal whose pencil the viewer holds, until ``until``).
    ``accounts=False`` leaves the club's accounts out (a spectator's)."""
    last = len(made.standing)
    shown = (
        (lambda lines: lines) if accounts else (lambda lines: tuple(map(without_accounts, lines)))
    )
    head = render_cache.shared(
        pulka, "protocol-head", lambda: split_newest(made.lines(newest))[0], newest
    )
    head = shown(head)

    def head_values() -> dict[str, Any]:
        return {"protocol_head": for_viewer(head, actions, held, pulka.pk), "pencil_until": until}

    def tail_values() -> dict[str, Any]:
        lines = shown(split_newest(made.lines(newest))[1])
        return {"protocol_tail": for_viewer(lines, actions, held, pulka.pk)}

    region = partial(render_cache.Region, pulka)
    template = "games/_protocol.html"
    audience = () if accounts else ("bare",)
    return {
        # Read by the template only to know whether there is a line at all.
        "protocol_head": head,
        "protocol_head_region": region(
            "protocol-head-html",
            f"{template}#head",
            head_values,
            newest,
            _head_variant(head, actions, held, until),
            *audience,
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
            *audience,
        ),
        "protocol_hidden": max(0, last - newest) if newest is not None else 0,
    }


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
