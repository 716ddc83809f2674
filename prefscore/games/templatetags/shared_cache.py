"""``{% shared_cache key %}…{% endshared_cache %}``: a fragment shared by every viewer, its
forms' CSRF tokens each viewer's own (issue 16).

Django's ``{% cache %}`` would keep the first viewer's CSRF token in the fragment and
serve it to everyone, whose posts would then be refused. This tag renders the fragment
once with a placeholder for the token, keeps that in the cache under ``key`` (a
``render_cache.key``, which names the pulka's version and the language), and puts the
request's own ``{% csrf_token %}`` in place of the placeholder on every request: the
bytes are those of a fresh render. An empty key renders the fragment as usual: the
caller says so for a fragment that holds one viewer's data (a form with his typed
values, a refusal's message).
"""

from __future__ import annotations

from django import template
from django.core.cache import cache
from django.template.base import Node, NodeList, Parser, Token
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import SafeString, mark_safe

# Letters only: the token's <input> escapes its value, and a placeholder must come out
# of it unchanged to be found again.
from ..render_cache import CSRF_PLACEHOLDER as PLACEHOLDER

register = template.Library()


class SharedCacheNode(Node):
    def __init__(self, nodelist: NodeList, key: template.base.FilterExpression) -> None:
        self.nodelist = nodelist
        self.key = key

    def render(self, context: template.Context) -> SafeString:
        name = self.key.resolve(context)
        if not name:
            return self.nodelist.render(context)
        found = cache.get(name)
        if not isinstance(found, str):
            with context.push(csrf_token=PLACEHOLDER):
                found = str(self.nodelist.render(context))
            cache.set(name, found)
        if PLACEHOLDER not in found:
            return mark_safe(found)
        placeholder = CsrfTokenNode().render(template.Context({"csrf_token": PLACEHOLDER}))
        return mark_safe(found.replace(placeholder, CsrfTokenNode().render(context)))


@register.tag("shared_cache")
def shared_cache(parser: Parser, token: Token) -> SharedCacheNode:
    """``{% shared_cache key %}``: see the module's docstring."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("shared_cache takes one argument: the key")
    nodelist = parser.parse(("endshared_cache",))
    parser.delete_first_token()
    return SharedCacheNode(nodelist, parser.compile_filter(bits[1]))
