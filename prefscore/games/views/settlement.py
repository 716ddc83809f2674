"""Settlement at any moment: who is up, who owes whom (Кодекс 4.2.12–4.2.14).

Both Кодекс methods step by step, whole whists with the table's choice of who adjusts
(``?first_seat=``; by default whoever method 1 cannot divide, docs/rules.md §3.7), money and the
shortest list of payments. A running pulka is settled as if the players stopped now.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_safe

from prefscore.web.htmx import HtmxHttpRequest, render_page
from prefscore.web.integers import request_int

from .. import presenters, render_cache, services
from ..access import pulka_for
from ..presenters.sharing import share_panel_for


def _seat(value: str, size: int) -> int | None:
    """The seat the table chose to adjust first; None (the engine's choice, docs/rules.md
    §3.7) when none or anything unexpected is given."""
    seat = request_int(value, max_digits=1)
    return seat if seat is not None and seat < size else None


@login_required
@require_safe
def settlement_page(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    pulka = pulka_for(request, pk)
    first_seat = _seat(request.GET.get("first_seat", ""), len(pulka.player_names))

    def settle() -> tuple[presenters.SettlementView, int]:
        scored = services.score(pulka)
        return presenters.settlement_view(scored, first_seat), len(scored.records)

    # Once per version, seat and language, for every device and worker (render_cache).
    settlement, deal_count = render_cache.shared(pulka, "settlement", settle, first_seat)
    context = {
        "pulka": pulka,
        "settlement": settlement,
        "deal_count": deal_count,
        # A finished pulka's card and public link (views/sharing.py).
        "share": share_panel_for(request, pulka, settlement),
    }
    return render_page(request, "games/settlement.html", context, "settlement")
