"""Names in templates: ``{{ user|display_name }}``, an account as people call it, and
``{{ name|isolate }}``, a name put into a translated sentence (clubs/names.py).

A standalone name is put in ``<bdi>``; a name inside ``{% blocktranslate %}`` cannot be
(the sentence is one message, and the name may sit in an attribute, an aria-label or a
confirmation), so it goes through ``isolate``: FSI … PDI around it, which browsers and
screen readers treat as ``<bdi>`` does (docs/design.md, "Names, languages and taps").
"""

from __future__ import annotations

from django import template

from ..names import display_name as _display_name
from ..names import isolate as _isolate

register = template.Library()


@register.filter
def display_name(user: object) -> str:
    return _display_name(user)


@register.filter
def isolate(name: object) -> str:
    """The name between the Unicode isolates, unless it is left-to-right letters only."""
    return _isolate(str(name)) if name is not None and name != "" else ""
