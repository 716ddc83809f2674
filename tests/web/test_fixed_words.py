"""The site's fixed words (prefscore.web.words.fixed_words): the outbox's and the network's
words, rendered from an empty context once per process and language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.template import engines
from django.test import Client
from django.urls import reverse

from prefscore.games.models import Pulka
from prefscore.web.words import NotFixed, _Empty, _kept_words, fixed_words
from tests.web.fixtures_table import EN

pytestmark = pytest.mark.django_db


def test_each_language_gets_its_own_words(
    make_table_pulka: Callable[..., Pulka], table_client: Callable[..., Client]
) -> None:
    pulka = make_table_pulka()
    client = table_client("anna")
    url = reverse("games:sheet", args=[pulka.pk])
    english = client.get(url, headers=EN).content.decode()
    russian = client.get(url, headers={"accept-language": "ru"}).content.decode()
    again = client.get(url, headers=EN).content.decode()
    assert 'data-send-now="Send now"' in english and 'data-send-now="Send now"' in again
    assert 'data-send-now="Send now"' not in russian and 'data-send-now="' in russian
    assert 'data-retry="Retry now"' in english and 'data-retry="Retry now"' not in russian
    # The viewer's own part of the outbox stays his: rendered for his request.
    assert 'data-user="anna"' in english and 'data-user="anna"' in russian
    assert english.count('id="net-strings"') == 1 and russian.count('id="net-strings"') == 1


def test_a_template_of_fixed_words_asking_for_a_value_fails_loudly() -> None:
    template = engines["django"].from_string("{{ user.username }}")
    with pytest.raises(NotFixed):
        template.template.render(_Empty(autoescape=True))


def test_under_debug_nothing_is_kept(settings: Any) -> None:
    settings.DEBUG = True
    _kept_words.cache_clear()
    fixed_words("_outbox_words.html")
    assert _kept_words.cache_info().currsize == 0
    settings.DEBUG = False
    fixed_words("_outbox_words.html")
    assert _kept_words.cache_info().currsize == 1
