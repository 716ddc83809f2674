"""The next deal's empty form, shared by what it shows (issue 16).

The empty form of the next deal is the same for every viewer of a version, and it
depends on the version only through who deals and who plays, the lowest contract, the
all-pass price and the convention: the deal's number aside, the form of deal 12 at a
table of four is the form of deal 8 whenever the sheet stands alike. So its markup is
kept under a key of what it shows (``render_cache.lasting_key`` and a digest of the
form, its number a placeholder), never of the version, and each request puts the
number in, as it puts its CSRF token (``templatetags/shared_cache``): a new version
renders the form only when it shows something new.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from scoring.engine.sheet import SheetState

from .. import render_cache
from ..models import Pulka
from .entry import EntryForm, entry_form
from .viewer_class import shown_digest


def next_deal_form(
    pulka: Pulka, state: Callable[[], SheetState], number: int
) -> tuple[EntryForm, str]:
    """The empty form of deal ``number``, its number the placeholder, and the key of its
    rendering. The digest is read once per version and language (a few bytes); the
    form itself is made only when a rendering is not in the cache, and ``state`` (the
    engine's fold, dear to take out of the cache) read only then."""
    made: list[EntryForm] = []

    def form() -> EntryForm:
        if not made:
            built = entry_form(state(), reverse("games:record", args=[pulka.pk]), number, {}, {})
            made.append(dataclasses.replace(built, number=render_cache.NUMBER_PLACEHOLDER))
        return made[0]

    digest = render_cache.shared(pulka, "entry-digest", lambda: shown_digest(form()))
    # Lazy: a page or a rendering already shared (viewer_class, shared_cache) never reads it.
    entry = _LazyForm(form)
    markup = render_cache.template_digest("games/_entry_form.html")
    key = render_cache.lasting_key(pulka, "entry-html", digest, markup)
    return entry, key  # type: ignore[return-value]


class _LazyForm(SimpleLazyObject):
    """A form made when read: the page's ``{% if entry %}`` asks only whether there is
    one (a form always is), which need not make it."""

    def __bool__(self) -> bool:
        return True


__all__ = ["next_deal_form"]
