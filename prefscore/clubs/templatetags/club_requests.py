"""``{% requests_panel club as panel %}``: the admins' panel of the members page.

The members page's view belongs to ``member_views``; the panel brings its own context
through this tag, so that the page needs one include line.
"""

from __future__ import annotations

from django import template

from ..models import Club
from ..request_views import panel_context

register = template.Library()


@register.simple_tag
def requests_panel(club: Club) -> dict[str, object]:
    return panel_context(club)
