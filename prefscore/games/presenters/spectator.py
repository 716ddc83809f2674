"""What a spectator sees (docs/design.md, "Joining a table, and watching it"): the sheet,
live, and nothing else.

The status line, the drawn sheet and the protocol are the table's own regions
(``presenters/regions.py``), the same templates from the same values, but with nobody's
account: the protocol's "recorded by", "corrected by" and the arbiter's notes name the
club's members, which are not the sheet. No entry form, no pencil, no correction
buttons, no links to the club's other pages (the status line's are left out).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from ..models import Pulka
from .protocol import LineActions
from .regions import Shared, StandingDeals, protocol_regions, sheet_region, status_region


def spectator_poll_url(token: str, version: int) -> str:
    return f"{reverse('games:watch_poll', args=[token])}?{urlencode({'v': version})}"


def spectator_context(pulka: Pulka, token: str) -> dict[str, Any]:
    """The spectator page's regions, shared with every other viewer of the version (the
    cache, ``render_cache``): a few queries, whatever the deals."""
    standing = StandingDeals(pulka)
    made = Shared(pulka, standing, None, None)
    return {
        "pulka": pulka,
        "title": str(pulka),
        "status_region": status_region(pulka, len(standing), links=False),
        "sheet_region": sheet_region(pulka, made),
        # Every line: the spectator has no link to the rest (``protocol_hidden``).
        **protocol_regions(pulka, made, LineActions(), None, None, None, accounts=False),
        "poll_url": spectator_poll_url(token, pulka.version),
        # Once the pulka is over, its result (views/sharing.py, watch_settlement).
        "finished": pulka.status == Pulka.Status.FINISHED,
        "settlement_url": reverse("games:watch_settlement", args=[token]),
    }
