"""``{% shared_each line in lines key %}…{% endshared_each %}``: a loop whose every
item's markup is shared, keyed by what the item shows (issue 16).

A protocol line of an earlier deal looks the same in the next version, unless a
correction or an undo changes it: keyed by the version, every deal made the table
render every line again. Here each item's rendering is kept under ``key`` (a
``render_cache.lasting_key``: the pulka's identity and the language, never its
version), a digest of the template's source, and a digest of the item's own plain
values (``viewer_class.plain``: what it shows, the viewer's buttons on it included).
A new version renders only the items that are new or changed; the rest come from the
cache in one ``get_many``, and the loop's output is the bytes of a plain ``{% for %}``.

The body may read the item and what the key settles (the pulka, the language's words)
and nothing else: no CSRF token, no viewer's own value (the pencil's line is rendered
per request, outside this loop). An item that is not plain data, or an empty key,
renders the loop as usual.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.core.cache import cache
from django.template.base import Node, NodeList, Origin, Parser, Token
from django.utils.safestring import SafeString, mark_safe

from ..presenters.viewer_class import Unshareable, shown_digest
from ..render_cache import source_digest

register = template.Library()


class SharedEachNode(Node):
    def __init__(
        self,
        name: str,
        items: template.base.FilterExpression,
        key: template.base.FilterExpression,
        nodelist: NodeList,
        origin: Origin | None,
    ) -> None:
        self.name, self.items, self.key, self.nodelist = name, items, key, nodelist
        self.source = source_digest(str(origin.name)) if origin is not None else ""

    def _one(self, context: template.Context, item: Any) -> str:
        with context.push({self.name: item}):
            return str(self.nodelist.render(context))

    def render(self, context: template.Context) -> SafeString:
        items: Iterable[Any] = self.items.resolve(context, ignore_failures=True) or ()
        items = list(items)
        prefix = self.key.resolve(context, ignore_failures=True)
        try:
            keys = [f"{prefix}.{self.source}.{shown_digest(item)}" for item in items]
        except Unshareable:
            keys = []
        if not prefix or not keys:
            return mark_safe("".join(self._one(context, item) for item in items))
        found: dict[str, Any] = cache.get_many(keys)
        made: dict[str, str] = {}
        parts = []
        for name, item in zip(keys, items, strict=True):
            markup = found.get(name)
            if not isinstance(markup, str):
                markup = made.get(name) or self._one(context, item)
                made[name] = markup
            parts.append(markup)
        if made:
            cache.set_many(made)
        return mark_safe("".join(parts))


@register.tag("shared_each")
def shared_each(parser: Parser, token: Token) -> SharedEachNode:
    """``{% shared_each item in items key %}``: see the module's docstring."""
    bits = token.split_contents()
    if len(bits) != 5 or bits[2] != "in":
        raise template.TemplateSyntaxError("shared_each takes: item in items key")
    nodelist = parser.parse(("endshared_each",))
    parser.delete_first_token()
    return SharedEachNode(
        bits[1],
        parser.compile_filter(bits[3]),
        parser.compile_filter(bits[4]),
        nodelist,
        parser.origin,
    )
