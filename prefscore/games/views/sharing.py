"""A finished pulka's result, shared (docs/design.md, "Sharing a result").

- ``card``: the members' card of a finished pulka (the share panel downloads and shares it);
- ``result_link``: a player at the table or a club admin makes the result public by a
  link, or takes the link back;
- ``result`` and ``result_card``: the public page and its card, for anyone holding the
  link; 404 for a link unknown or taken back, with no word on why;
- ``watch_settlement``: the settlement a spectator link's holder sees once the pulka is
  over (the figures of the sheet he already watches).

Each card is drawn once per version, language and figure (``prefscore.cards.store``);
a request asks only for its key, and a copy held answers 304.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from prefscore.cards import store
from prefscore.cards.layout import Card
from prefscore.web.htmx import HtmxHttpRequest, redirect_to, render_page

from .. import joining, presenters, render_cache, services, sharing
from ..access import pulka_for
from ..models import Pulka
from ..presenters.card import played_on, pulka_card
from ..presenters.sharing import result_preview
from ..seating import Seating
from .spectator import _private, _watched


def settled(pulka: Pulka) -> presenters.SettlementView:
    """The settlement as the settlement page has it: once per version (render_cache)."""

    def settle() -> tuple[presenters.SettlementView, int]:
        scored = services.score(pulka)
        return presenters.settlement_view(scored, None), len(scored.records)

    settlement, _count = render_cache.shared(pulka, "settlement", settle, None)
    return settlement


def card_response(request: HtmxHttpRequest, card: Card, *, public: bool) -> HttpResponse:
    """The card's kept file, drawn now if never drawn; 304 for the copy held."""
    etag = f'"{card.key()}"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(store.kept(card).read_bytes(), content_type="image/png")
    response["ETag"] = etag
    if public:  # asked again each time (a 304 costs nothing): a link taken back stops at once
        patch_cache_control(response, no_cache=True, public=True)
    # A member's card is the club's: private, no-store (PrivateCacheMiddleware), as the
    # settlement it shows.
    response["X-Robots-Tag"] = "noindex"
    return response


def _finished(pulka: Pulka) -> Pulka:
    if pulka.status != Pulka.Status.FINISHED:
        raise Http404(_("The pulka is not over: it has no result card yet."))
    return pulka


@login_required
@require_safe
def card(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    pulka = _finished(pulka_for(request, pk))
    return card_response(request, pulka_card(pulka, settled(pulka)), public=False)


@login_required
@require_POST
def result_link(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """``action=share``: a new public link (an earlier one stops); ``revoke``: none."""
    pulka = pulka_for(request, pk)
    role = pulka.club.role_of(request.user)
    if not joining.may_manage_links(pulka, request.user, role, Seating.of(pulka)):
        raise PermissionDenied(
            _("Only the players at this table and the club's admins share its result.")
        )
    action = request.POST.get("action")
    if action == "share":
        try:
            sharing.share_result(pulka, request.user)
        except sharing.NotFinished:
            raise PermissionDenied(
                _("The pulka is not over: its result is shared once it is.")
            ) from None
    elif action == "revoke":
        sharing.revoke_result(pulka, request.user)
    else:
        return render_page(request, "errors/400.html", {}, status=400)
    return redirect_to(request, reverse("games:settlement", args=[pulka.pk]) + "#share")


def _shared(token: str) -> Pulka:
    pulka = sharing.pulka_for_result(token)
    if pulka is None:
        raise Http404(_("This page does not exist."))
    return pulka


def _public_page(request: HtmxHttpRequest, pulka: Pulka, page: str, card_url: str) -> HttpResponse:
    settlement = settled(pulka)
    context = {
        "pulka": pulka,
        "settlement": settlement,
        "played_on": played_on(pulka),
        "preview": result_preview(request, pulka, settlement, page, card_url),
        "card_url": card_url,
    }
    response = render_page(request, "games/result.html", context)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    patch_cache_control(response, no_cache=True, private=True)
    return response


@require_safe
def result(request: HtmxHttpRequest, token: str) -> HttpResponse:
    pulka = _shared(token)
    page, card_url = (reverse(name, args=[token]) for name in ("games:result", "games:result_card"))
    return _public_page(request, pulka, page, card_url)


@require_safe
def result_card(request: HtmxHttpRequest, token: str) -> HttpResponse:
    pulka = _shared(token)
    return card_response(request, pulka_card(pulka, settled(pulka)), public=True)


@require_safe
def watch_settlement(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A spectator's settlement: the finished pulka's result, as the shared page shows it
    (without a card of its own: the card is shared by the table, not by the spectator
    link). Before the end it answers 404: a running sheet has no result."""
    pulka = _watched(token)
    if pulka.status != Pulka.Status.FINISHED:
        raise Http404(_("The pulka is not over: it has no result yet."))
    settlement = settled(pulka)
    context = {"pulka": pulka, "settlement": settlement, "played_on": played_on(pulka)}
    return _private(render_page(request, "games/result.html", context))
