"""``{% join_panel as panel %}``: the sheet's join panel (``presenters.joining``).

The sheet's context is the table's (``presenters.table_context``); the panel brings its
own through this tag, so that ``games/sheet.html`` needs one include line. It is drawn
with the whole page only: no poll or htmx swap renders it.
"""

from __future__ import annotations

from typing import Any

from django import template

from ..presenters.joining import JoinPanel, join_panel

register = template.Library()


@register.simple_tag(takes_context=True, name="join_panel")
def join_panel_tag(context: dict[str, Any]) -> JoinPanel | None:
    if context.get("join_panel") is not None:  # made by the view, which keys the page by it
        panel: JoinPanel = context["join_panel"]
        return panel
    request, pulka = context.get("request"), context.get("pulka")
    if request is None or pulka is None:
        return None
    return join_panel(request, pulka, context.get("seating"))
