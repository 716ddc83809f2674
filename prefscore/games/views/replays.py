"""An action the page's outbox sends again is carried out once (docs/design.md, "Never
lose a deal").

Each entry the outbox sends (static/js/outbox.js) carries a client id. A deal keeps
it on its row (``views/entry.py`` tells a replay from another device's deal by it);
every other action of the table (an undo or a change under the pencil, a correction,
a forgotten deal proposed or consented to, a proposal to abandon and its answers, a
manual entry) is remembered by it once carried out (``SentEntry``), so that the same
entry sent again after a lost answer is answered as its success, never judged again:
a second undo would be refused, a second proposal would be a second one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from uuid import UUID

from django.http import HttpResponse

from prefscore.web import HtmxHttpRequest

from ..access import pulka_for
from ..models import SentEntry
from .sheet import changed

View = Callable[..., HttpResponse]


def client_id(request: HtmxHttpRequest) -> UUID | None:
    """The id the page's outbox gave this entry (static/js/outbox.js), if it is one."""
    try:
        return UUID(request.POST.get("client_id", ""))
    except ValueError:
        return None


def once_per_entry(view: View) -> View:
    """``view`` for a POST with a client id: carried out once, its replays answered
    with the table as it stands (its success). Who may not see the pulka is refused
    as the view would refuse him (403/404), replay or not."""

    @wraps(view)
    def wrapper(request: HtmxHttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        sent = client_id(request) if request.method == "POST" else None
        if sent is not None and SentEntry.objects.filter(pulka_id=pk, client_id=sent).exists():
            pulka_for(request, pk)
            return changed(request, pk)
        response = view(request, pk, *args, **kwargs)
        if sent is not None and response.status_code < 400:
            SentEntry.objects.get_or_create(pulka_id=pk, client_id=sent)
        return response

    return wrapper


__all__ = ["client_id", "once_per_entry"]
