"""Settlement at any moment: who is up, who owes whom (Кодекс 4.2.12–4.2.14).

Both Кодекс methods step by step, whole whists with the table's choice of who adjusts
(``?first_seat=``, the first seat by default as docs/protocol.md says), money and the
shortest list of payments. A running pulka is settled as if the players stopped now.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_safe

from prefscore.web import HtmxHttpRequest, render_page, request_int

from .. import presenters, services
from ..access import pulka_for


def _seat(value: str, size: int) -> int:
    """The seat who adjusts first; anything unexpected falls back to the first seat."""
    seat = request_int(value, max_digits=1)
    return seat if seat is not None and seat < size else 0


@login_required
@require_safe
def settlement_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    pulka = pulka_for(request, pk)
    scored = services.score(pulka)
    first_seat = _seat(request.GET.get("first_seat", ""), len(scored.pulka.names))
    context = {
        "pulka": pulka,
        "settlement": presenters.settlement_view(scored, first_seat),
        "deal_count": len(scored.records),
    }
    return render_page(request, "games/settlement.html", context, "settlement")
