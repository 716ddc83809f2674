"""A tournament table's title is worded in the page's language, whatever the language
of the round's publication (games/titles.py, docs/tournaments.md §4.11).
"""

from __future__ import annotations

import importlib
import json
import re

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from prefscore.games.models import Pulka
from prefscore.tournaments.models import Round
from tests.web.fixtures_tournaments import client_as, url

pytestmark = pytest.mark.django_db

CYRILLIC = re.compile("[\u0400-\u04ff]")
MIGRATION = importlib.import_module("prefscore.games.migrations.0005_title_parts")


def _publish_in_russian(world, cup) -> list[Pulka]:
    client = client_as(world, "organiser", "ru")
    client.post(url("draw", cup))
    draft = cup.rounds.get(status=Round.Status.DRAFT)
    assert client.post(url("publish_round", cup, number=draft.number)).status_code == 302
    return list(Pulka.objects.filter(tournament=cup).order_by("pk"))


def _numbers(cup) -> dict[int, int]:
    tables = Round.objects.get(tournament=cup, number=1).tables
    return {spec["pulka"]: number for number, spec in enumerate(tables, start=1)}


def test_a_table_published_in_russian_is_titled_in_english_on_english_pages(tournament_world, cup):
    pulkas = _publish_in_russian(tournament_world, cup)
    numbers = _numbers(cup)
    assert all("тур 1" in p.title for p in pulkas)  # the stored text, as before
    member = client_as(tournament_world, "member", "en")

    for pulka in pulkas:
        title = f"Spring cup · round 1 · table {numbers[pulka.pk]}"
        sheet = member.get(reverse("games:sheet", args=[pulka.pk])).content.decode()
        heading = re.search(r'<h1 class="table-page__title">(.*?)</h1>', sheet, re.S)
        assert heading and title in heading.group(1)
        exported = json.loads(member.get(reverse("games:export", args=[pulka.pk])).content)
        assert exported["title"] == title
        settlement = member.get(reverse("games:settlement", args=[pulka.pk])).content.decode()
        assert title in settlement
    home = member.get(reverse("clubs:club", args=[cup.club.slug])).content.decode()
    cards = re.findall(r'class="pulka-card__title">(.*?)</span>', home, re.S)
    assert cards and not any(CYRILLIC.search(card) for card in cards)
    assert any("Spring cup · round 1 · table" in card for card in cards)
    organiser = client_as(tournament_world, "organiser", "en")
    close = organiser.get(
        reverse(
            "tournaments:close_table",
            kwargs={"club": cup.club.slug, "slug": cup.slug, "pulka": pulkas[0].pk},
        )
    ).content.decode()
    assert f"Spring cup · round 1 · table {numbers[pulkas[0].pk]}" in close
    assert "тур" not in close and "стол " not in close


def test_the_same_table_is_titled_in_russian_on_russian_pages(tournament_world, cup):
    pulkas = _publish_in_russian(tournament_world, cup)
    with translation.override("en"):
        english = str(pulkas[0])
    with translation.override("ru"):
        russian = str(pulkas[0])
    assert "round 1" in english and not CYRILLIC.search(english.replace("Spring cup", ""))
    assert "тур 1" in russian and russian != english


def test_tables_published_before_get_their_facts_from_the_draw_or_their_title(
    tournament_world, cup
):
    pulkas = _publish_in_russian(tournament_world, cup)
    numbers = _numbers(cup)
    Pulka.objects.filter(tournament=cup).update(title_parts=None)
    # A table the draw no longer names keeps the number its stored title ends with.
    tables = Round.objects.get(tournament=cup, number=1)
    tables.tables = [
        {**spec, "pulka": None} if n == 0 else spec for n, spec in enumerate(tables.tables)
    ]
    tables.save(update_fields=["tables"])

    MIGRATION.tables_get_their_facts(apps, None)

    with translation.override("en"):
        for pulka in Pulka.objects.filter(tournament=cup):
            assert pulka.title_parts["table"] == numbers[pulka.pk]
            assert str(pulka) == f"Spring cup · round 1 · table {numbers[pulka.pk]}"
    assert len(pulkas) == 3


@pytest.mark.parametrize(
    ("stage", "place", "english", "russian"),
    [
        ("qualifying", None, "Cup · round 3 · table 2", "Cup · тур 3 · стол 2"),
        ("final", None, "Cup · Final · table 2", "Cup · Финал · стол 2"),
        ("final", 2, "Cup · Final, round 2 · table 2", "Cup · Финал, тур 2 · стол 2"),
        ("semifinal", 1, "Cup · Semi-final, round 1 · table 2", "Cup · Полуфинал, тур 1 · стол 2"),
    ],
)
def test_the_title_is_worded_from_its_facts_in_each_language(stage, place, english, russian):
    from prefscore.games.titles import table_parts, table_title

    parts = table_parts("Cup", 3, stage, place, 2)
    with translation.override("en"):
        assert table_title(parts) == english
    with translation.override("ru"):
        assert table_title(parts) == russian
    assert table_title(None) == "" and table_title({"name": "Cup"}) == ""
