"""The table screen's shared parts, computed once per pulka version (issue 16).

Every phone at a table asks for the same regions after each deal: the drawn sheet, the
protocol, the status line, the settlement. What they show depends only on the pulka's
stored log, which moves ``Pulka.version`` on every change (a deal, a correction, the
pencil, a forgotten deal's consent, an arbiter's decision, archiving), and on the
page's language. So each is rendered once per (pulka, version, language) and shared
through Django's cache framework (``settings.CACHES``: each worker's memory by default,
the database or Redis when several app servers run; bounded either way).

A key names the pulka by its id *and* its creation time, and carries a digest of the
fields an admin may edit without moving the version (status, names, target,
convention): a restored database or a reused id never meets a stale entry. What differs
from one viewer to the next (the "Correct" and "Arbiter" buttons, the pencil, a form
with what he typed, the poll ticket, the CSRF token) is never in a shared entry: a
viewer's variant is part of the key (``variant``), or the part is rendered per request.
A fragment with a form (the next deal's empty form, the newest protocol line with the
pencil's) is shared with a placeholder for the token, each request putting its own in
(``templatetags/shared_cache.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.context import make_context
from django.template.loader import get_template
from django.utils.html import conditional_escape
from django.utils.translation import get_language

from prefscore.clubs.names import display_name

from .models import Pulka

T = TypeVar("T")

# Bumped when what is cached changes shape, so a deploy never reads an older release's
# entries from a shared cache.
# 2: SheetState.led and the all-pass options; 3: the deal facts of issue 17; 4: PU's
# three options (the Convention in a cached SheetState gains fields); 5: protocol lines
# and the next deal's empty form kept by what they show (``lasting_key``), the form's
# deal number a placeholder; 6: the newest deal's lines put in a shared body per request
# (``viewer_head``).
SCHEMA = 6

# An account's fields never read into a cached entry: the screens name a user by his
# user name only, and a shared cache (Redis, a table) should hold no password hash.
# first_name is the name the account gives itself at the table (clubs/names.py): public.
PRIVATE_USER_FIELDS = ("password", "email", "last_name", "last_login")


def identity(pulka: Pulka) -> str:
    """The pulka's id and creation: a restored database or a reused id never meets the
    entries of another pulka (every key of a pulka's parts starts from it)."""
    created = pulka.created_at.timestamp() if pulka.created_at else 0
    return f"{pulka.pk}.{created:.6f}"


def pulka_key(pulka: Pulka) -> str:
    """The pulka as it stands: id, creation, version and the fields shown beside them.

    A screen asks it for each of its parts: it is made once per state of the instance
    (kept on it with what it was made from, so a change of a field makes it again)."""
    fields = (
        pulka.pk,
        pulka.created_at,
        pulka.version,
        pulka.status,
        tuple(pulka.player_names),
        pulka.target,
        pulka.convention_name,
        pulka.title,
    )
    made = pulka.__dict__.get("_prefscore_key")
    if made is not None and made[0] == fields:
        return made[1]  # type: ignore[no-any-return]
    shown = repr(
        (pulka.status, pulka.player_names, pulka.target, pulka.convention_name, pulka.title)
    )
    digest = hashlib.blake2b(shown.encode(), digest_size=8).hexdigest()
    found = f"{identity(pulka)}.{pulka.version}.{digest}"
    pulka.__dict__["_prefscore_key"] = (fields, found)
    return found


def key(pulka: Pulka, part: str, *variant: object, language: bool = True) -> str:
    """The cache key of one part of the pulka's screens in the page's language."""
    words = (get_language() or "") if language else "-"
    tail = ".".join(str(v) for v in variant)
    return f"prefscore.{SCHEMA}-{release()}.{part}.{pulka_key(pulka)}.{words}.{tail}"


def lasting_key(pulka: Pulka, part: str, *variant: object) -> str:
    """The key of a part that outlives a version: named by the pulka's identity (id and
    creation), the release (``release``) and the language, never its version, the
    caller adding a digest of what the part shows (a protocol line, the next deal's
    empty form). A new version finds every such part that looks as it did, and a
    changed one misses by itself."""
    tail = ".".join(str(v) for v in variant)
    words = get_language() or ""
    return f"prefscore.{SCHEMA}-{release()}.{part}.{identity(pulka)}.{words}.{tail}"


@lru_cache(maxsize=1)
def release() -> str:
    """A digest of this release's markup and words: every template of the project's
    folders and every compiled catalogue (``locale/*/django.mo``), read once per process.

    In every key, so that a deploy never reads the release before's markup from a shared
    cache (Redis, a table) that outlived it: neither a version's regions (the same
    version is shown again after a deploy) nor a part kept by what it shows, whose
    digest has none of the words its template translates. ``SCHEMA`` still marks a
    change of the cached objects' shape, which no file of these says."""
    digest = hashlib.blake2b(digest_size=6)
    named: list[Any] = [*settings.TEMPLATES[0].get("DIRS", []), *settings.LOCALE_PATHS]  # type: ignore[misc]
    for folder in map(Path, named):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".html", ".mo") and path.is_file():
                # Named from its folder: app servers in other places share their keys.
                digest.update(path.relative_to(folder).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


@lru_cache(maxsize=64)
def source_digest(path: str) -> str:
    """A template file's digest, for the keys that outlive a version: a deploy that
    changes the markup never reads an earlier release's from a shared cache (Redis, a
    table), where a version's key would have moved on by itself."""
    try:
        source = Path(path).read_bytes()
    except OSError:
        source = path.encode()
    return hashlib.blake2b(source, digest_size=6).hexdigest()


def template_digest(name: str) -> str:
    """``source_digest`` of the template Django loads as ``name``."""
    found: Any = get_template(name)  # the Django backend's, whose template has an origin
    return source_digest(str(found.template.origin.name))


def seconds() -> int | None:
    """How long an entry is kept: the cache's own TIMEOUT (``CACHE_SECONDS``)."""
    timeout = settings.CACHES["default"].get("TIMEOUT", 300)
    return None if timeout is None else int(timeout)


def versioned(pulka: Pulka, part: str, read: Callable[[], T]) -> T:
    """What the database holds for the pulka that only a change moving its version
    alters (a forgotten deal's proposal and answers, a proposal to abandon it), read
    once per version: ``read`` may return None, which is kept too."""
    (found,) = shared(pulka, part, lambda: (read(),), language=False)
    return found


def prefetch(*names: str) -> None:
    """Read these entries in one round trip for the ``get`` calls that follow in this
    request (``SharedRedisCache.prefetch``); with each worker's own cache, nothing."""
    ahead = getattr(cache, "prefetch", None)
    if ahead is not None:
        ahead([name for name in names if name])


def pending_keys(pulka: Pulka) -> tuple[str, str]:
    """The keys under which ``versioned`` keeps the version's forgotten-deal proposal and
    its proposal to abandon: every screen and every record reads both."""
    return key(pulka, "proposal", language=False), key(pulka, "abandonment", language=False)


def prefetch_screen(pulka: Pulka, newest: int | None) -> None:
    """The parts of the version that the table screen reads one after another before it
    knows its body's key (``presenters.table_context``): the last deal, the proposals,
    the next deal's form digest and the newest deal's lines. A key named here that the
    screen no longer reads costs nothing but its share of the round trip."""
    prefetch(
        key(pulka, "last-deal", language=False),
        *pending_keys(pulka),
        key(pulka, "entry-digest"),
        key(pulka, "protocol-head", newest),
    )


def shared(
    pulka: Pulka, part: str, make: Callable[[], T], *variant: object, language: bool = True
) -> T:
    """The part from the cache, or made now and kept for every other device and worker.

    Objects are pickled by the shared backends: ``make`` returns plain data (strings,
    numbers, the presenters' frozen dataclasses, the engine's state). ``language``
    False shares one entry between the languages (the export, the engine's state).
    """
    name = key(pulka, part, *variant, language=language)
    found: Any = cache.get(name)
    if found is None:
        found = make()
        cache.set(name, found)
    return found  # type: ignore[no-any-return]


# Letters only, as shared_cache's CSRF placeholder: escaping leaves them as they are.
CSRF_PLACEHOLDER = "prefscoreSharedCsrfTokenPlaceholder"
POLL_PLACEHOLDER = "prefscoreSharedPollAddressPlaceholder"


NAME_PLACEHOLDER = "prefscoreSharedViewerNamePlaceholder"
# The newest deal's lines in a shared body (templatetags/shared_cache.py, viewer_part):
# the pencil's holder and the others share the body, each request puts in its own.
HEAD_PLACEHOLDER = "prefscoreSharedViewerHeadPlaceholder"
# Set in the context of a shared body's rendering (shared_page, shared_partials).
SHARING = "prefscore_shared_body"
HEAD_TEMPLATE = "games/_protocol.html#head"
# The shared empty form's deal number (presenters/next_deal.py), put in by shared_cache.
NUMBER_PLACEHOLDER = "prefscoreSharedDealNumberPlaceholder"


class _Viewer:
    """Who the shared page names in its head: a placeholder, each request's own name put
    in its place. The page's templates ask nothing else of ``user``."""

    is_authenticated = True

    def get_username(self) -> str:
        return NAME_PLACEHOLDER


def shared_page(request: HttpRequest, template: str, context: Mapping[str, Any], name: str) -> str:
    """The whole page, shared under ``name`` (a viewer class's key, with the page's
    address) by every viewer who sees the same: rendered once with placeholders for
    the CSRF token, the poll's address and the user's name, which each request fills
    with its own (``shared_partials``)."""
    name = f"{name}.{hashlib.blake2b(request.get_full_path().encode(), digest_size=8).hexdigest()}"
    prefetch(name, context.get("protocol_head_key", ""))
    found = cache.get(name)
    if not isinstance(found, str):
        found = _render(request, template, {**context, "poll_url": POLL_PLACEHOLDER}, True)
        cache.set(name, found)
    head = partial(viewer_head, request, context)
    return _fill(request, found, context["poll_url"], display_name(request.user), head)


def _render(
    request: HttpRequest, template: str, values: Mapping[str, Any], viewer: bool = False
) -> str:
    """``template`` with the CSRF token's placeholder above the context processors' token
    (and the viewer's, above their user)."""
    made_template: Any = get_template(template)
    made = make_context(dict(values), request, autoescape=made_template.backend.engine.autoescape)
    made.push(csrf_token=CSRF_PLACEHOLDER, **({"user": _Viewer(), SHARING: True} if viewer else {}))
    return str(made_template.template.render(made))


# What every placeholder begins with: a shared rendering is cut there once, each piece
# then begins with the rest of one placeholder's name (or with none, left as it was).
_PREFIX = "prefscoreShared"


def _fill(
    request: HttpRequest,
    html: str,
    poll_url: str,
    user_name: str = "",
    head: Callable[[], str] | None = None,
) -> str:
    """A shared rendering with this request's own poll address, CSRF token, name and
    newest lines (``head``): one pass over it (a 100-deal body is 100 KB), not one per
    placeholder."""
    values = {
        POLL_PLACEHOLDER: lambda: conditional_escape(poll_url),
        # A fresh render asks for the token only when it shows one (get_token marks the
        # CSRF cookie for the answer): so does this.
        CSRF_PLACEHOLDER: lambda: get_token(request),
        NAME_PLACEHOLDER: lambda: conditional_escape(user_name),
        HEAD_PLACEHOLDER: head or (lambda: HEAD_PLACEHOLDER),
    }
    made: dict[str, str] = {}  # each made once: one token for every form, as a render
    pieces = html.split(_PREFIX)
    filled = [pieces[0]]
    for piece in pieces[1:]:
        for placeholder, value in values.items():
            rest = placeholder[len(_PREFIX) :]
            if piece.startswith(rest):
                if placeholder not in made:
                    made[placeholder] = value()
                filled += (made[placeholder], piece[len(rest) :])
                break
        else:
            filled += (_PREFIX, piece)
    return "".join(filled)


def shared_partials(
    request: HttpRequest,
    template: str,
    names: Sequence[str],
    context: Mapping[str, Any],
    name: str,
) -> str:
    """The partials of ``template`` one after another, as out-of-band swaps, shared
    under ``name`` (a viewer class's key, ``presenters.viewer_class``) by every viewer
    who sees the same: rendered once with placeholders for the CSRF token and the poll's
    address, which each request fills with its own (the bytes of a fresh render, but for
    the token's mask, which differs on every render anyway)."""
    prefetch(name, context.get("protocol_head_key", ""))  # the body and its newest lines
    found = cache.get(name)
    if not isinstance(found, str):
        values = {**context, "oob": True, "poll_url": POLL_PLACEHOLDER}
        found = _render_partials(request, template, names, values)
        cache.set(name, found)
    return _fill(request, found, context["poll_url"], head=partial(viewer_head, request, context))


def viewer_head(request: HttpRequest, context: Mapping[str, Any]) -> str:
    """The newest deal's lines as this viewer sees them, for a shared body's placeholder:
    shared by every viewer who may do the same on them (``protocol_head_key``), rendered
    once with the CSRF token's placeholder, filled with this request's token."""
    name = context["protocol_head_key"]
    found = cache.get(name)
    if not isinstance(found, str):
        found = _render(request, HEAD_TEMPLATE, context)
        cache.set(name, found)
    return _fill(request, found, context["poll_url"])


def _render_partials(
    request: HttpRequest, template: str, names: Sequence[str], values: Mapping[str, Any]
) -> str:
    """The partials one after another in one context, bound once: the context processors
    run once for all of them, not once per partial (a sixth of a small region's cost).
    Each partial renders in a level of its own, so nothing one of them sets (``{% ... as
    name %}``) reaches the next, as with a context of its own."""
    parts = [get_template(f"{template}#{part}").template for part in names]  # type: ignore[attr-defined]
    made = make_context(dict(values), request, autoescape=parts[0].engine.autoescape)
    made.push(csrf_token=CSRF_PLACEHOLDER, **{SHARING: True})
    rendered = []
    with made.bind_template(parts[0]):
        for part in parts:
            with made.push():
                rendered.append(str(part.render(made)))
    return "".join(rendered)


__all__ = [
    "CSRF_PLACEHOLDER",
    "HEAD_PLACEHOLDER",
    "NAME_PLACEHOLDER",
    "NUMBER_PLACEHOLDER",
    "POLL_PLACEHOLDER",
    "PRIVATE_USER_FIELDS",
    "SCHEMA",
    "SHARING",
    "key",
    "lasting_key",
    "pulka_key",
    "seconds",
    "shared",
    "shared_page",
    "shared_partials",
    "source_digest",
    "template_digest",
    "versioned",
    "viewer_head",
]
