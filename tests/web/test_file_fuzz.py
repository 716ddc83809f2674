"""Mutated pulka files through the import and the calculator:
never a 500, and whatever is accepted is exactly what the engine makes of the same text.

Each example is a known-answer file; hypothesis deletes keys, puts hostile values
(Unicode digits, 5,000-digit numbers, NaN, deep nesting, wrong types) anywhere in it,
repeats or corrects deals, and cuts the text short.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefscore.games.models import Deal, Pulka
from prefscore.games.presenters import signed
from scoring.engine.errors import ScoringError
from scoring.engine.protocol import score_text
from tests.web.fixtures_club import example_input

pytestmark = pytest.mark.django_db

EXAMPLES = [
    "001-protocol-example.json",
    "004-6.3-sochi-4p-codex-rounding.json",
    "018-6.7d-sochi-misere-caught.json",
    "023-6.9-codex-rounding-3p.json",
]
EN = {"accept-language": "en"}

# Stands for a 5,000-digit number, which json.dumps itself refuses to write.
HUGE = "<5000 digits>"
HOSTILE = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6),
    st.just(HUGE),
    st.sampled_from(["²", "١٢", "７", "6S", "misere", "", "NaN", "-0", "1e999", "A", "A" * 300]),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.lists(st.integers(0, 10), max_size=3),
    st.dictionaries(st.sampled_from(["A", "B", "C", "D", "x"]), st.integers(0, 10), max_size=3),
    st.recursive(st.just([]), lambda inner: st.lists(inner, max_size=1), max_leaves=400),
)


def paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in the JSON document: keys of objects, indices of lists."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*prefix, index))
    return found


def parent_of(document: Any, path: tuple) -> Any:
    for step in path[:-1]:
        document = document[step]
    return document


@st.composite
def mutated_files(draw: st.DrawFn) -> str:
    document = copy.deepcopy(example_input(draw(st.sampled_from(EXAMPLES))))
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in paths(document) if p]
        path = draw(st.sampled_from(places))
        parent = parent_of(document, path)
        action = draw(st.sampled_from(["replace", "delete", "repeat deal", "correct"]))
        if action == "replace":
            parent[path[-1]] = draw(HOSTILE)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(document.get("deals"), list) and document["deals"]:
            deal = draw(st.sampled_from(document["deals"]))
            if action == "repeat deal":
                document["deals"].append(copy.deepcopy(deal))
            else:
                number = draw(st.one_of(st.integers(-1, 12), HOSTILE))
                document["deals"].append({"correct": number, "deal": copy.deepcopy(deal)})
    text = json.dumps(document, ensure_ascii=False).replace(json.dumps(HUGE), "9" * 5000)
    if draw(st.booleans()) and draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return text


def engine_output(text: str) -> dict[str, Any] | None:
    try:
        return score_text(text)
    except (ScoringError, RecursionError, ValueError):
        return None


class Rollback(Exception):
    """Undo one example's rows, so that every example starts from the same club."""


def in_rollback(check) -> None:
    try:
        with transaction.atomic():
            check()
            raise Rollback
    except Rollback:
        pass


FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(text=mutated_files())
def test_the_calculator_never_fails_and_agrees_with_the_engine(club_world, club_client, text):
    client: Client = club_client("ivan")
    expected = engine_output(text)

    response = client.post(reverse("games:calculator"), {"text": text}, headers=EN)

    assert response.status_code == 200
    settlement = response.context.get("settlement")
    if expected is None:
        assert settlement is None
        assert response.context["form"].errors
        return
    assert settlement is not None, response.context["form"].errors
    figures = {row.name: row.exact.signed for row in settlement.rows}
    assert figures == {name: signed(value) for name, value in expected["result"].items()}


@FUZZ
@given(text=mutated_files())
def test_an_import_never_fails_and_stores_what_the_engine_scores(club_world, club_client, text):
    client: Client = club_client("ivan")
    expected = engine_output(text)

    def check() -> None:
        response = client.post(reverse("games:import", args=["friday"]), {"text": text}, headers=EN)
        assert response.status_code in (200, 302)
        if response.status_code == 200:  # refused, or a paper sheet settled: nothing stored
            assert not Pulka.objects.exists() and not Deal.objects.exists()
            refused = bool(response.context["form"].errors)
            assert refused or response.context.get("settlement") is not None
            assert refused or expected is not None
            return
        assert expected is not None, "the import took a file the engine refuses"
        pulka = Pulka.objects.get()
        exported = json.loads(client.get(reverse("games:export", args=[pulka.pk])).content)
        assert exported["sheet"] == expected["sheet"]
        assert exported["result"] == expected["result"]

    assert not Pulka.objects.exists()
    in_rollback(check)
