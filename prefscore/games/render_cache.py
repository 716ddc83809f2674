"""The table screen's cache: each version's fold and regions, named by the release.

The rules are stated once, in docs/design.md, "How the table screen is cached":

- a key names the release (``release``: a digest of every file deployed), the pulka as
  it stands (``pulka_key``: its identity, version and the fields an admin may edit
  without moving the version), the part and the page's language;
- a shared region (``Region``) is rendered by ``render_settled`` from a context holding
  only what the version settles (``Settled``): a request, a user, messages, a CSRF
  token or a form in it fail loudly, so nothing of one viewer can reach another's page;
- the view puts the regions into each viewer's page as values: no string of a shared
  region is searched or replaced afterwards;
- under DEBUG nothing is kept: every change of code or template shows on the next
  request.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.template import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from .models import Pulka

T = TypeVar("T")

# What is deployed: the code of the screen and of the rules, the templates, the compiled
# catalogues and the static files. Digested as files, so a release that changes any of
# them (a presenter, an engine rule, a word) names new keys in every cache it shares.
BASE = Path(settings.BASE_DIR)
RELEASE_ROOTS: tuple[Path, ...] = (
    BASE / "prefscore",
    BASE / "scoring",
    BASE / "templates",
    BASE / "locale",
    BASE / "static",
)
# Made by running, not deployed: never part of the digest.
_NOT_DEPLOYED = ("__pycache__",)
_SKIPPED_SUFFIXES = (".pyc", ".po")

# An account's fields never read into a cached entry: the screens name a user by his
# user name only, and a shared cache (Redis, a table) should hold no password hash.
# first_name is the name the account gives itself at the table (clubs/names.py): public.
PRIVATE_USER_FIELDS = ("password", "email", "last_name", "last_login")

# Names a shared region's context never answers: what one viewer's request brings.
PER_VIEWER = frozenset(
    {"request", "user", "messages", "perms", "csrf_token", "form", "poll_url", "seating"}
)


class PerViewerValue(RuntimeError):
    """A shared region asked for something of one viewer's (``PER_VIEWER``)."""


def release() -> str:
    """The release, as a digest of every deployed file (``RELEASE_ROOTS``): read once per
    process, and on every call under DEBUG, where an edit shows on the next request."""
    if settings.DEBUG:
        return digest_files(RELEASE_ROOTS)
    return _release()


@lru_cache(maxsize=1)
def _release() -> str:
    return digest_files(RELEASE_ROOTS)


def digest_files(roots: Iterable[Path]) -> str:
    """A digest of the files under ``roots``, each named from its root, so that app
    servers in other folders share their keys."""
    digest = hashlib.blake2b(digest_size=8)
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and _deployed(path, root):
                digest.update(f"{root.name}/{path.relative_to(root).as_posix()}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def _deployed(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts
    return path.suffix not in _SKIPPED_SUFFIXES and not any(p in _NOT_DEPLOYED for p in parts)


def identity(pulka: Pulka) -> str:
    """The pulka's id and creation: a restored database or a reused id never meets the
    entries of another pulka."""
    created = pulka.created_at.timestamp() if pulka.created_at else 0
    return f"{pulka.pk}.{created:.6f}"


def pulka_key(pulka: Pulka) -> str:
    """The pulka as it stands: identity, version, and a digest of the fields shown
    beside them that an admin may edit without moving the version."""
    shown = (
        pulka.status,
        pulka.player_names,
        pulka.target,
        pulka.convention_name,
        pulka.title,
        pulka.title_parts,  # the link to the other sheet of a table played on short (§4.9)
    )
    digest = hashlib.blake2b(repr(shown).encode(), digest_size=8).hexdigest()
    return f"{identity(pulka)}.{pulka.version}.{digest}"


def key(pulka: Pulka, part: str, *variant: object, language: bool = True) -> str:
    """The cache key of one part of the pulka's screens (in the page's language)."""
    words = (get_language() or "") if language else "-"
    tail = ".".join(str(v) for v in variant)
    return f"prefscore.{release()}.{part}.{pulka_key(pulka)}.{words}.{tail}"


def seconds() -> int | None:
    """How long an entry is kept: the cache's own TIMEOUT (``CACHE_SECONDS``)."""
    timeout = settings.CACHES["default"].get("TIMEOUT", 300)
    return None if timeout is None else int(timeout)


def shared(
    pulka: Pulka, part: str, make: Callable[[], T], *variant: object, language: bool = True
) -> T:
    """The part from the cache, or made now and kept for every other device and worker;
    under DEBUG made every time. ``make`` returns plain, picklable data; ``language``
    False shares one entry between the languages (the fold, the export)."""
    if settings.DEBUG:
        return make()
    name = key(pulka, part, *variant, language=language)
    found: Any = cache.get(name)
    if found is None:
        found = make()
        cache.set(name, found)
    return found  # type: ignore[no-any-return]


def keep(pulka: Pulka, parts: Mapping[str, object]) -> None:
    """Parts of the version, in no language, kept now: the fold a change has just made,
    so that no device of the version folds it again (``recording``)."""
    if not settings.DEBUG:
        names = {key(pulka, part, language=False): value for part, value in parts.items()}
        cache.set_many(names, timeout=seconds())


def versioned(pulka: Pulka, part: str, read: Callable[[], T]) -> T:
    """What only a change moving the version alters, read once per version: ``read``
    may return None, which is kept too."""
    (found,) = shared(pulka, part, lambda: (read(),), language=False)
    return found


class Settled(Context):
    """A shared region's context: only the values given, and a loud refusal of any
    name of ``PER_VIEWER``, asked for by a variable, a tag or a loop."""

    def __getitem__(self, name: Any) -> Any:
        if name in PER_VIEWER:
            raise PerViewerValue(f"a shared region asked for {name!r}")
        return super().__getitem__(name)

    def get(self, name: Any, otherwise: Any = None) -> Any:
        if name in PER_VIEWER:
            raise PerViewerValue(f"a shared region asked for {name!r}")
        return super().get(name, otherwise)

    def __contains__(self, name: Any) -> bool:
        if name in PER_VIEWER:
            raise PerViewerValue(f"a shared region asked for {name!r}")
        return bool(super().__contains__(name))


def render_settled(template_name: str, values: Mapping[str, Any]) -> SafeString:
    """``template_name`` rendered from ``values`` alone (``Settled``): no context
    processor runs, so no request, user or token is in reach."""
    made: Any = get_template(template_name)  # the Django backend's: .template is the engine's
    for name in values:
        if name in PER_VIEWER:
            raise PerViewerValue(f"a shared region was given {name!r}")
    context = Settled(dict(values), autoescape=made.template.engine.autoescape)
    return mark_safe(str(made.template.render(context)))


class Region:
    """A shared region in a viewer's page: rendered when the page shows it, once per
    version (and ``variant``) from the cache. Its template reads ``values()`` only."""

    def __init__(
        self,
        pulka: Pulka,
        part: str,
        template_name: str,
        values: Callable[[], Mapping[str, Any]],
        *variant: object,
    ) -> None:
        self.pulka, self.part, self.template_name = pulka, part, template_name
        self.values, self.variant = values, variant
        self._html: SafeString | None = None

    def html(self) -> SafeString:
        if self._html is None:
            made = shared(self.pulka, self.part, self._render, *self.variant)
            self._html = mark_safe(made)
        return self._html

    def _render(self) -> str:
        return str(render_settled(self.template_name, self.values()))

    def __html__(self) -> SafeString:
        return self.html()

    def __str__(self) -> str:
        return self.html()

    def __bool__(self) -> bool:
        return True


__all__ = [
    "PER_VIEWER",
    "PRIVATE_USER_FIELDS",
    "PerViewerValue",
    "Region",
    "Settled",
    "digest_files",
    "identity",
    "keep",
    "key",
    "pulka_key",
    "release",
    "render_settled",
    "seconds",
    "shared",
    "versioned",
]
