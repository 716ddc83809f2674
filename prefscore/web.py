"""How every view answers a browser, with htmx or without it; and what every request
passes through on the way (the site's own middleware and session store, below).

One URL serves a whole page and, to htmx, a region of it: a partial of the page's
template (django-template-partials' ``template#partial`` names). So every answer
carries ``Vary: HX-Request``, and caches keep the two apart. htmx asks for the whole
page again when it restores a page from history, or for a boosted link; both get it.

A change that succeeded sends the browser on (POST/redirect/GET): ``HX-Redirect`` for
htmx, which would otherwise follow a plain redirect inside its XMLHttpRequest and swap
the next page into a region, a plain redirect without it.

This module sits below every app: it imports Django and django-htmx only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models import Model
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render
from django.template.context import Context, make_context
from django.template.loader import get_template
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
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


# The most digits of an id from a URL or a form: every id below 10**18 fits the 64-bit
# signed integers of SQLite and PostgreSQL (2**63 has 19 digits), so a longer one can
# name no row and never reaches the database (which would fail with OverflowError).
ID_DIGITS = 18


class IdConverter:
    """``<id:pk>`` in every URL pattern: an id of at most ``ID_DIGITS`` digits; a longer
    one matches no pattern, so it is a 404 on every database."""

    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


class IdsChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]  # generic only in the stubs
    """Rows picked by id in a form; an id that is no bounded whole number is the field's
    error (``request_int``), never a query with it."""

    def _check_values(self, value: Any) -> Any:
        for item in value:
            if request_int(str(item), max_digits=ID_DIGITS) is None:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": item},
                )
        return super()._check_values(value)  # type: ignore[misc]


def request_int(value: object, *, max_digits: int = 9) -> int | None:
    """A whole number a request carries (a query parameter, a form field), else None.

    ASCII digits only, at most ``max_digits`` of them: ``"²".isdigit()`` is true but
    ``int("²")`` fails, ``int("٣")`` is 3, and a 5,000-digit string is beyond what
    ``int`` converts. Every integer read from a request goes through here, so none of
    these can reach ``int`` and give a 500.
    """
    if not isinstance(value, str) or not 0 < len(value) <= max_digits:
        return None
    return int(value) if value.isascii() and value.isdigit() else None


def fixed_words(template_name: str) -> SafeString:
    """A template of the site's fixed words (the outbox's and the network's, read by
    static/js), in the active language: it is rendered from an empty context, so no value
    of a request or a viewer is in reach, and once per process and language, since
    nothing else it shows can change while the process runs. Under DEBUG, on every call,
    so that an edit shows on the next request."""
    if settings.DEBUG:
        return _fixed_words(template_name)
    return _kept_words(template_name, get_language())


@lru_cache(maxsize=32)
def _kept_words(template_name: str, _language: str) -> SafeString:
    return _fixed_words(template_name)


class NotFixed(RuntimeError):
    """A template of fixed words asked for a value it was not given: it is no such template."""


class _Empty(Context):
    """A context that holds only what the template sets itself (a ``count``'s counter),
    and refuses loudly what it does not hold, rather than rendering it empty."""

    def __getitem__(self, name: Any) -> Any:
        try:
            return super().__getitem__(name)
        except KeyError:
            raise NotFixed(f"a template of fixed words asked for {name!r}") from None


def _fixed_words(template_name: str) -> SafeString:
    made: Any = get_template(template_name)  # the Django backend's: .template is the engine's
    return mark_safe(str(made.template.render(_Empty(autoescape=True))))


# --- one row by its key, in one plain statement ------------------------------------------
#
# What every signed-in request reads (the user, for ``request.user``) costs, through the
# ORM, more CPU building the query than the database takes to answer it (bench/cpu.py,
# docs/benchmarks.md), as the session's read did: so it is one statement, made once per
# model and database from the model's own fields, its row turned into an instance with the
# ORM's own converters (``Model.from_db``), as a queryset would.

_ROWS: dict[tuple[type[Model], str], tuple[str, list[str], tuple[Any, ...]]] = {}


def row_by_pk(model: type[Model], pk: Any) -> Any:
    """``model``'s row ``pk`` as ``model._default_manager.get(pk=pk)`` gives it, or None."""
    alias = router.db_for_read(model)
    connection = connections[alias]
    made = _ROWS.get((model, alias))
    if made is None:
        made = _ROWS[(model, alias)] = _statement(model, connection)
    sql, names, converters = made
    key = model._meta.pk.get_db_prep_value(pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for position, found, col in converters:
        for convert in found:
            values[position] = convert(values[position], col, connection)
    return model.from_db(alias, names, values)


def _statement(model: type[Model], connection: Any) -> tuple[str, list[str], tuple[Any, ...]]:
    meta = model._meta
    fields = meta.concrete_fields
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    sql = f"SELECT {columns} FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = %s"
    converters = []
    for position, field in enumerate(fields):
        col = field.get_col(meta.db_table)
        found = (*connection.ops.get_db_converters(col), *col.get_db_converters(connection))
        if found:
            converters.append((position, found, col))
    return sql, [field.attname for field in fields], tuple(converters)


class PlainUserRead(ModelBackend):
    """``ModelBackend`` with the user read by :func:`row_by_pk`: every signed-in request
    reads him (``get_user``); an inactive account is refused as ``ModelBackend`` refuses it."""

    def get_user(self, user_id: Any) -> Any:
        user = row_by_pk(get_user_model(), user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


# --- compressed HTML and JSON answers (README, "Compression") ---------------------------
#
# Compressed HTML and JSON answers (README, "Compression").
#
# Django's ``GZipMiddleware`` for the answers a page waits for: the table screen's HTML (a
# poll after a deal is about 46 KB, 7 KB gzipped) and the JSON exports. Not for the event
# stream, where gzip would hold each small event back in its buffer, nor for static files,
# which WhiteNoise serves already compressed, nor for anything else.
#
# BREACH (guessing a secret from the compressed size of answers that also reflect the
# attacker's input) is weighed in the README: the CSRF token is masked afresh in every
# answer (Django), Django's gzip adds random bytes to each answer's header ("Heal The
# Breach"), the poll ticket is worthless without the session cookie beside it, and the
# session cookie itself is never in a body.

COMPRESSED_TYPES = ("text/html", "application/json")


class CompressionMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        content_type = response.get("Content-Type", "").split(";")[0].strip().lower()
        if content_type not in COMPRESSED_TYPES:
            return response
        return super().process_response(request, response)


# --- the Content-Security-Policy and caching headers on every response ------------------
#
# The Content-Security-Policy and caching headers on every response.
#
# The policy (``settings.CONTENT_SECURITY_POLICY``) allows scripts, styles and images only
# from the site itself: no inline ``<script>``, no ``on*=`` attributes, no ``style=``
# attributes, no framing. Templates follow it: htmx is a static file
# (``{% htmx_script %}``), and base.html turns off the indicator styles htmx would
# otherwise inject inline (the ``htmx-config`` meta tag); prefscore.css styles the
# indicators instead.
#
# Django 6 has CSP built in; until then this is the whole of it.

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        # A view that needs a different policy sets its own header; none does yet.
        if HEADER not in response.headers:
            response.headers[HEADER] = settings.CONTENT_SECURITY_POLICY
        return response


CACHE_CONTROL = "Cache-Control"
PRIVATE = "private, no-store"


class PrivateCacheMiddleware:
    """``Cache-Control: private, no-store`` on every answer but the public ones.

    A shared club tablet must not keep a person's pages and exports (the sheet, the
    settlement, ``export.json``, ``results.csv``, ``my-data.json``) in its cache after he
    signs out, and no proxy may keep them at all. So the rule is the header, and the
    exceptions are listed: ``PUBLIC_VIEW_NAMES`` (``settings``), pages that show nobody's
    data, when asked by someone not signed in. A view that sets its own Cache-Control
    (``never_cache``) keeps it. Static files never come here: WhiteNoise, before this in
    ``MIDDLEWARE``, answers them with its long cache headers.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if CACHE_CONTROL not in response.headers and not _public(request):
            response.headers[CACHE_CONTROL] = PRIVATE
        return response


def _public(request: HttpRequest) -> bool:
    match = request.resolver_match
    if match is None or match.view_name not in settings.PUBLIC_VIEW_NAMES:
        return False
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


# --- whose page it is (docs/design.md, "Never lose a deal"; prefscore/offline.py) -------

ACCOUNT_HEADER = "X-Prefscore-Account"


class AccountMiddleware:
    """Marks each HTML page with its account (``ACCOUNT_HEADER``; empty when signed out)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # Whole pages only: the worker keeps no htmx answer (a poll, a region), and a
        # spectator's poll reads no session for it.
        if "HX-Request" not in request.headers and response.get("Content-Type", "").startswith(
            "text/html"
        ):
            user = getattr(request, "user", None)
            pk = user.pk if user is not None and user.is_authenticated else None
            response[ACCOUNT_HEADER] = "" if pk is None else str(pk)
        return response


# --- sessions in the database, read with one plain statement -----------------------------
#
# Sessions in the database, read with one plain statement.
#
# Django's own database sessions, but for the read that every signed-in request makes:
# through the ORM, building that one-row query costs about a millisecond of CPU, more than
# the database's answer (bench/cpu.py). The statement is the same (the session's key, not
# yet expired), written once; saving, expiring and deleting stay Django's.
#
# Why not sessions in the cache (``cached_db``) or in a signed cookie: with each worker's
# own memory as the cache (the default, ``CACHE_URL`` unset) a session ended on one
# worker (signing out, a changed password's other sessions) would live on in the others'
# memory until it expired there; a signed cookie cannot be ended at all before its expiry
# (signing out does not stop a copy of it). A database row is ended everywhere at once.


class SessionStore(db.SessionStore):
    """``django.contrib.sessions.backends.db`` with its read in plain SQL."""

    def _get_session_from_db(self) -> Any:
        model = self.model
        alias = router.db_for_read(model)
        connection = connections[alias]
        quote = connection.ops.quote_name
        sql = (
            f"SELECT {quote('session_data')} FROM {quote(model._meta.db_table)}"
            f" WHERE {quote('session_key')} = %s AND {quote('expire_date')} > %s"
        )
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.session_key, now])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return model(session_key=self.session_key or "", session_data=row[0])
