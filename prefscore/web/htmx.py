"""How every view answers a browser, with htmx or without it.

One URL serves a whole page and, to htmx, a region of it: a partial of the page's
template (django-template-partials' ``template#partial`` names). So every answer
carries ``Vary: HX-Request``, and caches keep the two apart. htmx asks for the whole
page again when it restores a page from history, or for a boosted link; both get it.

A change that succeeded sends the browser on (POST/redirect/GET): ``HX-Redirect`` for
htmx, which would otherwise follow a plain redirect inside its XMLHttpRequest and swap
the next page into a region, a plain redirect without it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.context import make_context
from django.template.loader import get_template
from django.utils.cache import patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware: it has ``request.htmx``."""

    htmx: HtmxDetails


def swaps_region(request: HtmxHttpRequest) -> bool:
    """An htmx request that swaps a region; a history restore or a boosted link wants
    the whole page."""
    htmx = request.htmx
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request


def invalid_status(request: HtmxHttpRequest) -> int:
    """The status of a form shown again with its errors: 422 for htmx (the table's
    script swaps it in all the same), 200 for a plain page, which a browser shows as
    any other."""
    return 422 if request.htmx else 200


def vary(response: HttpResponse) -> HttpResponse:
    """Mark an answer that depends on whether htmx asked for it."""
    patch_vary_headers(response, ("HX-Request",))
    return response


def render_page(
    request: HtmxHttpRequest,
    template: str,
    context: Mapping[str, Any],
    partials: str | Sequence[str] = (),
    *,
    status: int = 200,
    oob: bool = False,
) -> HttpResponse:
    """The whole page, or only its ``partials`` for an htmx request that swaps them.

    ``partials`` names one partial of ``template``, or several rendered one after the
    other; ``oob`` renders them as out-of-band swaps (their templates read ``oob`` to
    mark themselves ``hx-swap-oob``), which htmx puts in place each by its id.
    """
    names = (partials,) if isinstance(partials, str) else tuple(partials)
    if not names or not swaps_region(request):
        return vary(render(request, template, context, status=status))
    return vary(render_partials(request, template, names, context, status=status, oob=oob))


def render_partials(
    request: HtmxHttpRequest,
    template: str,
    names: Sequence[str],
    context: Mapping[str, Any],
    *,
    status: int = 200,
    oob: bool = False,
) -> HttpResponse:
    """Partials of ``template``, one after another, whoever asked (the poll's answer).

    One context, bound once: the context processors run once for all the partials, not
    once each. Each partial renders in a level of its own, so nothing one of them sets
    (``{% ... as name %}``) reaches the next."""
    values = {**context, "oob": True} if oob else dict(context)
    parts = [get_template(f"{template}#{name}").template for name in names]  # type: ignore[attr-defined]
    if not parts:
        return vary(HttpResponse("", status=status))
    made = make_context(values, request, autoescape=parts[0].engine.autoescape)
    rendered = []
    with made.bind_template(parts[0]):
        for part in parts:
            with made.push():
                rendered.append(str(part.render(made)))
    return vary(HttpResponse("".join(rendered), status=status))


def redirect_to(request: HtmxHttpRequest, url: str, *, htmx_status: int = 200) -> HttpResponse:
    """Send the browser to ``url``: ``HX-Redirect`` for htmx, else a plain 302.

    ``url`` is a URL, never guessed from a name (callers ``reverse`` theirs), so a
    ``next`` a user typed goes where it says. ``htmx_status`` is 204 where the caller
    wants to say that nothing is left to swap.
    """
    if request.htmx:
        return vary(HttpResponseClientRedirect(url, status=htmx_status))
    return vary(HttpResponseRedirect(url))
