"""The drawn sheet's pieces kept by their content (``games/fragments.py``, issue 16).

A new version renders only the fields, names and balance rows a deal changed; the rest
come from the worker's memory, and the page is byte for byte the one rendered with
nothing kept. A piece is never shown in another language or on another pulka's sheet,
and the memory they take is bounded.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from prefscore.games import fragments
from prefscore.games.fragments import FragmentStore
from prefscore.games.models import Pulka
from tests.web.fixtures_corrections import (
    ALLPASS,
    RIGHT,
    WRONG,
    correct_url,
    correction_form,
    put_pencil_down,
    recorded,
)
from tests.web.fixtures_table import legal_deals, region

pytestmark = pytest.mark.django_db


def sheet_region(client: Client, pulka: Pulka, language: str = "en") -> str:
    url = reverse("games:sheet", args=[pulka.pk])
    response = client.get(url, headers={"accept-language": language})
    assert response.status_code == 200
    return region(response.content.decode(), "sheet")


def counted_hits() -> Any:
    """The store's ``get``, counting the pieces it found."""
    real = fragments.store.get
    hits = {"found": 0, "asked": 0}

    def get(key: Any) -> str | None:
        found = real(key)
        hits["asked"] += 1
        hits["found"] += found is not None
        return found

    return mock.patch.object(fragments.store, "get", get), hits


def fresh_region(client: Client, pulka: Pulka, language: str = "en") -> str:
    cache.clear()
    fragments.store.clear()
    return sheet_region(client, pulka, language)


def test_a_new_version_renders_from_the_pieces_of_the_one_before_the_fresh_bytes(
    seated_world: Any, seated_client: Any
) -> None:
    names = ("Anna", "Boris", "Vera")
    pulka = recorded(seated_world, *legal_deals(names, 6))
    Pulka.objects.filter(pk=pulka.pk).update(target=1000)
    pulka.refresh_from_db()
    anna = seated_client("anna")
    sheet_region(anna, pulka)  # version 6: every piece rendered and kept
    recorded(seated_world, legal_deals(names, 7)[6])
    cache.clear()  # the version's regions go; the pieces, kept by content, stay
    patch, hits = counted_hits()
    with patch:
        warm = sheet_region(anna, pulka)
    assert hits["found"] >= hits["asked"] // 2 > 0  # most pieces are as they were
    assert hits["found"] < hits["asked"]  # and the deal changed some
    assert warm == fresh_region(anna, pulka)


def test_after_a_correction_the_struck_figures_are_the_fresh_ones(
    seated_world: Any, seated_client: Any
) -> None:
    pulka = recorded(seated_world, WRONG, ALLPASS)
    boris = seated_client("boris")
    sheet_region(boris, pulka)
    response = boris.post(correct_url(pulka, 1), correction_form(RIGHT, 1))
    assert response.status_code in (200, 302)
    put_pencil_down(pulka)
    pulka.refresh_from_db()
    cache.clear()
    warm = sheet_region(boris, pulka)
    assert "sheet__struck" in warm
    assert warm == fresh_region(boris, pulka)


def test_a_piece_is_never_shown_in_another_language(seated_world: Any, seated_client: Any) -> None:
    pulka = recorded(seated_world, *legal_deals(("Anna", "Boris", "Vera"), 4))
    anna = seated_client("anna")
    sheet_region(anna, pulka, "en")
    cache.clear()
    russian = sheet_region(anna, pulka, "ru")
    assert ": gora" not in russian and ": whists" not in russian  # the fields' titles
    assert russian == fresh_region(anna, pulka, "ru")


def test_a_piece_is_never_shown_on_another_pulkas_sheet(
    seated_world: Any, seated_client: Any, make_seated_pulka: Any
) -> None:
    deals = legal_deals(("Anna", "Boris", "Vera"), 3)
    first = recorded(seated_world, *deals)
    anna = seated_client("anna")
    sheet_region(anna, first)
    seated_world.pulka = make_seated_pulka(("Anna", "Boris", "Vera"))
    second = recorded(seated_world, *deals)  # the same figures, another pulka
    patch, hits = counted_hits()
    with patch:
        sheet_region(anna, second)
    assert hits["asked"] > 0 and hits["found"] == 0


def test_the_store_lets_the_least_recently_used_go_past_its_bounds() -> None:
    store = FragmentStore(max_entries=3, max_characters=10)
    for key in "abc":
        store.put(key, "xx")
    assert store.get("a") == "xx"  # a is now the most recently used
    store.put("d", "xx")
    assert store.get("b") is None and len(store) == 3
    store.put("e", "y" * 8)  # 14 characters: the oldest go until it fits
    assert store.size <= 10 and store.get("e") == "y" * 8
    store.put("f", "z" * 50)  # alone past the bound: kept, the newest
    assert store.get("f") == "z" * 50 and len(store) == 1


def test_the_tag_renders_as_usual_without_a_scope_or_with_a_value_that_is_no_key() -> None:
    template = Template(
        "{% load by_content %}{% by_content scope value %}<b>{{ value }}</b>{% endby_content %}"
    )
    for scope, value in (("", ("a",)), ("s", ["a", "list"])):
        first = template.render(Context({"scope": scope, "value": value}))
        assert first == f"<b>{value}</b>".replace("'", "&#x27;")
    assert len(fragments.store) == 0
    kept = template.render(Context({"scope": "s", "value": ("x", 1)}))
    assert kept == "<b>(&#x27;x&#x27;, 1)</b>" and len(fragments.store) == 1


def test_fitted_fields_are_remembered_by_their_figures_and_bounded(monkeypatch: Any) -> None:
    from prefscore.games import drawing
    from prefscore.games.presenters import sheet

    sheet.forget_fits()
    monkeypatch.setattr(sheet, "FITS_KEPT", 2)
    box = drawing.Box(0.0, 0.0, 200.0, 60.0)
    marathon = [str(n) for n in range(1, 2001)]
    fitted = sheet._fit(marathon, box, ())
    assert fitted == drawing.fit_totals(marathon, box, ())  # the same as fitting it now
    assert sheet._fit(list(marathon), box, ()) is fitted  # remembered by its figures
    assert sheet._fit(marathon, box, (3,)) is not fitted  # a struck figure fits anew
    sheet._fit(["1", "2"], box, ())
    assert len(sheet._FITS) == 2  # the least recently used went
    sheet.forget_fits()
