"""``{% fixed_words "_outbox_words.html" %}``: the site's fixed words, kept per language
(``prefscore.web.words.fixed_words``)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from prefscore.web.words import fixed_words as _fixed_words

register = template.Library()


@register.simple_tag
def fixed_words(template_name: str) -> SafeString:
    return _fixed_words(template_name)
