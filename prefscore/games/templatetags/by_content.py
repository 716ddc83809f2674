"""``{% by_content scope value %}…{% endby_content %}``: a piece of the drawn sheet kept by
its content in the worker's memory (``prefscore.games.fragments``, issue 16).

``value`` is every value the piece shows (a presenter's frozen dataclass, or a tuple of
them: hashable and compared by content) and ``scope`` the pulka's identity and the
language (``fragments.scope``), so the piece kept under them is the piece a fresh render
gives, byte for byte, whatever version asks for it. The piece must read nothing but
``value``. An empty scope, or a value that cannot be a key, renders the piece as usual.
"""

from __future__ import annotations

from django import template
from django.template.base import FilterExpression, Node, NodeList, Parser, Token
from django.utils.safestring import SafeString, mark_safe

from .. import fragments

register = template.Library()


class ByContentNode(Node):
    def __init__(self, nodelist: NodeList, scope: FilterExpression, key: FilterExpression) -> None:
        self.nodelist = nodelist
        self.scope, self.key = scope, key

    def render(self, context: template.Context) -> SafeString:
        scope = self.scope.resolve(context)
        name = (scope, self.key.resolve(context))
        try:
            hash(name)
        except TypeError:  # a list or a dict: the presenters make tuples
            scope = ""
        if not scope:
            return self.nodelist.render(context)
        found = fragments.store.get(name)
        if found is None:
            found = str(self.nodelist.render(context))
            fragments.store.put(name, found)
        return mark_safe(found)


@register.tag("by_content")
def by_content(parser: Parser, token: Token) -> ByContentNode:
    """``{% by_content scope key %}``: see the module's docstring."""
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError("by_content takes two arguments: a scope and a value")
    nodelist = parser.parse(("endby_content",))
    parser.delete_first_token()
    return ByContentNode(nodelist, parser.compile_filter(bits[1]), parser.compile_filter(bits[2]))
