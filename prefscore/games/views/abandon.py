"""Abandoning a pulka started by mistake (``prefscore.games.abandon`` has the rules).

``abandon`` is posted by a club admin, who abandons at once, or by a player at the
table, who proposes it; ``abandon_answer`` is each seat's answer. As with the other
actions at the table, htmx gets the table's regions in place, a plain form the sheet
page again; a refusal keeps the page and says why (403 not his to do, 409 not now).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from prefscore.web.htmx import HtmxHttpRequest
from prefscore.web.integers import request_int

from .. import abandon as rules
from ..access import pulka_for
from ..corrections import seats_of
from ..models import Abandonment
from ..services import NotAllowed
from .sheet import changed, once_per_entry, refuse


@login_required
@require_POST
@once_per_entry
def abandon(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Abandon the pulka (a club admin) or propose it to the table (a player at it)."""
    pulka = pulka_for(request, pk)
    refusal = rules.abandon_refusal(pulka, request.user)
    if refusal is not None:
        return refuse(request, pulka, 403 if refusal.forbidden else 409, refusal.message)
    reason = request.POST.get("reason", "")
    if len(reason) > rules.MAX_REASON:
        message = _("The reason is at most %(limit)s characters.") % {"limit": rules.MAX_REASON}
        return refuse(request, pulka, 400, message)
    try:
        rules.abandon(pulka.pk, request.user, reason)
    except NotAllowed as error:
        return refuse(request, pulka, 409, str(error))
    return changed(request, pulka.pk)


@login_required
@require_POST
@once_per_entry
def abandon_answer(request: HtmxHttpRequest, pk: int, abandonment: int) -> HttpResponse:
    """Agree to or refuse abandoning the pulka, for one's own seat or a guest's."""
    pulka = pulka_for(request, pk)
    found = get_object_or_404(Abandonment, pk=abandonment, pulka=pulka)
    seat, choice = request_int(request.POST.get("seat"), max_digits=1), request.POST.get("answer")
    if seat is None or choice not in ("agree", "refuse"):
        return refuse(request, pulka, 400, _("Choose Agree or Refuse."))
    if not seats_of(pulka, request.user):
        return refuse(request, pulka, 403, _("Only the players at this table answer."))
    try:
        rules.answer_abandonment(found.pk, request.user, seat, choice == "agree")
    except NotAllowed as error:
        return refuse(request, pulka, 409, str(error))
    return changed(request, pulka.pk)
