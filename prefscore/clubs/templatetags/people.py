"""``{{ user|display_name }}``: an account as people call it (clubs/names.py)."""

from __future__ import annotations

from django import template

from ..names import display_name as _display_name

register = template.Library()


@register.filter
def display_name(user: object) -> str:
    return _display_name(user)
