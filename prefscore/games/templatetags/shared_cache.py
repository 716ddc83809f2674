"""``{% shared_cache key [number] %}…{% endshared_cache %}``: a fragment shared by every
viewer, its forms' CSRF tokens each viewer's own (issue 16).

Django's ``{% cache %}`` would keep the first viewer's CSRF token in the fragment and
serve it to everyone, whose posts would then be refused. This tag renders the fragment
once with a placeholder for the token, keeps that in the cache under ``key`` (a
``render_cache.key``, which names the pulka's version and the language), and puts the
request's own ``{% csrf_token %}`` in place of the placeholder on every request: the
bytes are those of a fresh render. An empty key renders the fragment as usual: the
caller says so for a fragment that holds one viewer's data (a form with his typed
values, a refusal's message).

``number``, when given, is the deal number the shared fragment shows as a placeholder
(the next deal's empty form, ``presenters/next_deal.py``, kept by what it shows across
versions): each request puts it in, rendered as the template renders a number.
"""

from __future__ import annotations

from django import template
from django.core.cache import cache
from django.template.base import Node, NodeList, Parser, Token, render_value_in_context
from django.template.defaulttags import CsrfTokenNode
from django.utils.safestring import SafeString, mark_safe

# Letters only: the token's <input> escapes its value, and a placeholder must come out
# of it unchanged to be found again.
from ..render_cache import CSRF_PLACEHOLDER as PLACEHOLDER
from ..render_cache import HEAD_PLACEHOLDER, NUMBER_PLACEHOLDER, SHARING

register = template.Library()


class SharedCacheNode(Node):
    def __init__(
        self,
        nodelist: NodeList,
        key: template.base.FilterExpression,
        number: template.base.FilterExpression | None = None,
    ) -> None:
        self.nodelist = nodelist
        self.key = key
        self.number = number

    def render(self, context: template.Context) -> SafeString:
        name = self.key.resolve(context)
        if not name:
            return self.nodelist.render(context)
        found = cache.get(name)
        if not isinstance(found, str):
            with context.push(csrf_token=PLACEHOLDER):
                found = str(self.nodelist.render(context))
            cache.set(name, found)
        if self.number is not None and NUMBER_PLACEHOLDER in found:
            number = render_value_in_context(self.number.resolve(context), context)
            found = found.replace(NUMBER_PLACEHOLDER, number)
        if PLACEHOLDER not in found:
            return mark_safe(found)
        placeholder = CsrfTokenNode().render(template.Context({"csrf_token": PLACEHOLDER}))
        return mark_safe(found.replace(placeholder, CsrfTokenNode().render(context)))


class ViewerPartNode(SharedCacheNode):
    """``shared_cache`` for the part of a shared body that differs between the viewers
    who share it (the newest deal's lines: the pencil's form for its holder, who holds
    it for the others): in a shared body (``render_cache.SHARING``) a placeholder, which
    each request fills with its own (``render_cache.viewer_head``); elsewhere, as
    ``shared_cache``."""

    def render(self, context: template.Context) -> SafeString:
        if context.get(SHARING) and self.key.resolve(context):
            return mark_safe(HEAD_PLACEHOLDER)
        return super().render(context)


@register.tag("viewer_part")
def viewer_part(parser: Parser, token: Token) -> ViewerPartNode:
    """``{% viewer_part key %}…{% endviewer_part %}``: see ``ViewerPartNode``."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("viewer_part takes the key")
    nodelist = parser.parse(("endviewer_part",))
    parser.delete_first_token()
    return ViewerPartNode(nodelist, parser.compile_filter(bits[1]))


@register.tag("shared_cache")
def shared_cache(parser: Parser, token: Token) -> SharedCacheNode:
    """``{% shared_cache key [number] %}``: see the module's docstring."""
    bits = token.split_contents()
    if len(bits) not in (2, 3):
        raise template.TemplateSyntaxError("shared_cache takes the key and, maybe, a number")
    nodelist = parser.parse(("endshared_cache",))
    parser.delete_first_token()
    number = parser.compile_filter(bits[2]) if len(bits) == 3 else None
    return SharedCacheNode(nodelist, parser.compile_filter(bits[1]), number)
