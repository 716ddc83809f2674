"""The site's fixed words: the outbox's and the network's words that static/js reads
(``templates/_outbox_words.html``, ``games/_network.html``), rendered once per process and
language from a context that refuses any value it was not given (docs/design.md, "How the
table screen is cached")."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.conf import settings
from django.template.context import Context
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language


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
