"""What a spectator sees (docs/design.md, "Joining a table, and watching it"): the sheet,
live, and nothing else.

The drawn sheet, its plain table, the protocol and the status line, as the players see
them, but with nobody's account: the protocol's "recorded by", "corrected by" and the
arbiter's notes name the club's members, which are not the sheet. No entry form, no
pencil, no correction buttons, no links to the club's other pages.
"""

from __future__ import annotations

import dataclasses
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from scoring.conventions import convention_label

from .. import services
from ..models import Pulka
from .protocol import ProtocolEvent, ProtocolLine, protocol_lines
from .sheet import draw_sheet, paper_of, sheet_table


def spectator_poll_url(token: str, version: int) -> str:
    return f"{reverse('games:watch_poll', args=[token])}?{urlencode({'v': version})}"


def _without_accounts(line: ProtocolLine | ProtocolEvent) -> ProtocolLine | ProtocolEvent:
    if isinstance(line, ProtocolLine):
        return dataclasses.replace(line, recorded_by="", corrected_by=(), pencil=False)
    return dataclasses.replace(line, note="")


def spectator_context(pulka: Pulka, token: str) -> dict[str, Any]:
    """The spectator page's regions: two queries (deals, corrections), whatever the deals."""
    deals = services.load_deals(pulka)
    corrections = services.load_corrections(pulka)
    scored = services.score(pulka, deals, corrections)
    paper = paper_of(scored)
    protocol = protocol_lines(
        scored, deals, None, paper=paper, corrections=services.in_log_order(corrections)
    )
    return {
        "pulka": pulka,
        "title": str(pulka),
        "convention": convention_label(pulka.convention_name),
        "names": scored.pulka.names,
        "finished": pulka.status == Pulka.Status.FINISHED,
        "archived": pulka.status == Pulka.Status.ARCHIVED,
        "deal_count": len(deals),
        "drawn": draw_sheet(scored, paper),
        "sheet_figures": sheet_table(scored, paper),
        # games/_protocol.html's parts (presenters/table.py): every line, none shared.
        "protocol_head": tuple(_without_accounts(line) for line in protocol),
        "protocol_hidden": 0,
        "poll_url": spectator_poll_url(token, pulka.version),
        # Once the pulka is over, its result (views/sharing.py, watch_settlement).
        "settlement_url": reverse("games:watch_settlement", args=[token]),
    }
