"""The engine's errors reach people by their codes, in the page's language.

Every code of ``scoring/engine/errors.py`` has a message in ``scoring/messages.py``, and
no Russian message carries Latin-script words other than the player names it is given.
The examples of the issue (a one-player file, a deal after the pulka is over, NaN in a
file) are checked through the pages that show them.
"""

from __future__ import annotations

import json
import re
import string
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from prefscore.games.forms import DealForm
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from scoring import messages
from scoring.engine import errors
from scoring.engine.conventions import OPTION_NAMES, preset
from scoring.engine.deals import parse_deal
from scoring.engine.errors import DealError, ProtocolError, ScoringError
from scoring.engine.sheet import apply, start
from tests.web.fixtures_club import club_pulka, example_input

PLAYER = "Ann"
# Latin-script words; JSON is the name of the file's format, the same in Russian.
LATIN = re.compile(r"(?!JSON\b)\b[A-Za-z]+")
RU = {"accept-language": "ru"}
NINE = {"contract": "9S", "declarer": "olga", "whists": {"ivan": "pass", "Guest Gena": "pass"}}

# A sample for every parameter the engine gives. English words of the engine (an
# option's name, the allowed values, Python's message) must not show through; the
# person's own input (a name, a quoted value) is sampled in Cyrillic or digits.
SAMPLES: dict[str, Any] = {
    "detail": "Expecting value: line 1 column 1 (char 0)",
    "line": 1,
    "column": 2,
    "name": "поле",
    "value": 7,
    "count": 1,
    "low": 2,
    "high": 5,
    "number": 61,
    "player": PLAYER,
    "what": "whists",
    "contract": "M",
    "level": 8,
    "total": 11,
    "suit": "Ж",
    "allowed": ("greedy", "gentleman"),
    "option": "whist_scale",
    "key": "одиннадцать",
    "missing": ("9", "misere"),
    "presets": ("sochi", "leningrad"),
    "size": 5,
    "players": 7,
    "add": 2,
    "remove": 1,
    "deals": 2000,
    "corrections": 2000,
}
# An unknown option's name is what the person wrote, not one of ours.
# Where JSON broke is a parameter the English leaves to Python's own message.
OVERRIDES: dict[str, dict[str, Any]] = {
    "option.unknown": {"option": "вист"},
    "file.not_json": {"line": 1, "column": 2},
}


def sample_params(code: str) -> dict[str, Any]:
    names = {field for _, field, _, _ in string.Formatter().parse(errors.TEMPLATES[code]) if field}
    params = {name: SAMPLES[name] for name in names}
    return {**params, **OVERRIDES.get(code, {})}


def latin_words(text: str) -> list[str]:
    return LATIN.findall(text.replace(PLAYER, ""))


def test_every_engine_error_code_has_a_message() -> None:
    assert set(errors.TEMPLATES) - set(messages.MESSAGES) == set()
    assert set(messages.MESSAGES) - set(errors.TEMPLATES) == set()


def test_every_place_an_error_names_has_a_message() -> None:
    assert set(errors.PLACES) == set(messages.PLACES)


@pytest.mark.parametrize("code", sorted(errors.TEMPLATES))
def test_the_russian_message_of_every_code_has_no_latin_words(code: str) -> None:
    params = sample_params(code)
    shown: list[ScoringError] = [ScoringError(code, **params), ProtocolError(code, **params)]
    if "number" not in params:  # a file's own "deal N:" is never a DealError's
        shown.append(DealError(code, places=(("correction", 3), ("deal", 61)), **params))
        shown.append(DealError(code, places=(("correction_item", "три"),), **params))
    with translation.override("ru"):
        for error in shown:
            text = messages.message_for(error)
            assert text and latin_words(text) == [], text


@pytest.mark.django_db
@pytest.mark.parametrize("option", OPTION_NAMES)
def test_every_option_named_in_a_file_error_is_named_in_russian(option: str) -> None:
    error = ProtocolError("option.bool", option=option, value=3)
    with translation.override("ru"):
        assert latin_words(messages.message_for(error)) == []


def test_the_english_message_names_the_deal_and_the_correction() -> None:
    error = DealError("deal.pulka_over", "contract", 4, places=(("correction", 2), ("deal", 4)))
    with translation.override("en"):
        assert messages.message_for(error) == (
            "correction of deal 2: deal 4: the pulka is already over."
        )
        assert messages.message_for(error, places=False) == "The pulka is already over."


# --- through the pages -----------------------------------------------------------------


def import_upload(client, data: Any) -> str:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    upload = SimpleUploadedFile("pulka.json", text.encode())
    response = client.post(reverse("games:import", args=["friday"]), {"file": upload}, headers=RU)
    assert response.status_code == 200
    return " ".join(response.context["form"].errors["file"])


def names_of(data: Any) -> list[str]:
    return list(data.get("players", [])) if isinstance(data, dict) else []


def assert_russian(message: str, names: list[str]) -> None:
    for name in names:
        message = message.replace(name, "")
    assert LATIN.findall(message) == [], message


@pytest.mark.django_db
def test_a_file_of_one_player_is_refused_in_russian(club_world, club_client):
    data = {"players": ["A"], "target": 10}

    message = import_upload(club_client("ivan"), data)

    assert message == "Файл не принят: в пульке от 2 до 5 игроков, а не 1."


@pytest.mark.django_db
def test_a_file_with_a_deal_after_the_pulka_is_over_is_refused_in_russian(club_world, club_client):
    data = example_input("009-6.6c-sochi-4p-nine-closes-and-helps.json")
    data["deals"] = data["deals"] + [data["deals"][-1]] * 60
    assert len(data["deals"]) == 61

    message = import_upload(club_client("ivan"), data)

    assert message == "Файл не принят: сдача 2: пулька уже закончена."
    assert_russian(message, names_of(data))


@pytest.mark.django_db
def test_nan_in_a_file_is_refused_in_russian(club_world, club_client):
    message = import_upload(club_client("ivan"), '{"players": ["A", "B", "C"], "target": NaN}')

    assert "недопустимое число" in message
    assert_russian(message, [])


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        "{",
        {"players": ["A", "B", "C"], "target": 0},
        {"players": ["A", "B", "C"], "target": 10, "convention": "покер"},
        {"players": ["A", "B", "C"], "target": 10, "options": {"whist_scale": 0}},
        {"players": ["A", "B", "C"], "target": 10, "options": {"help": "yes"}},
        {"players": ["A", "B", "C"], "target": 10, "deals": [{"contract": "6S"}]},
        {"players": ["A", "B", "C"], "target": 10, "deals": [{"contract": "11"}]},
        {"players": ["A", "B", "C"], "target": 10, "sheet": {"A": {}}},
        {
            "players": ["A", "B", "C"],
            "target": 10,
            "deals": [{"correct": 3, "deal": {"contract": "allpass"}}],
        },
    ],
)
def test_refused_files_are_explained_in_russian(club_world, club_client, data):
    for url in (reverse("games:import", args=["friday"]), reverse("games:calculator")):
        text = data if isinstance(data, str) else json.dumps(data)
        response = club_client("ivan").post(url, {"text": text}, headers=RU)
        message = " ".join(response.context["form"].errors["text"])
        assert message.startswith("Файл"), message
        assert_russian(message, names_of(data))


@pytest.mark.django_db
def test_a_deal_recorded_after_the_pulka_is_over_is_refused_in_russian(club_world, club_client):
    pulka = club_pulka(club_world.club)
    Pulka.objects.filter(pk=pulka.pk).update(target=2)
    record_deal(pulka.pk, NINE, None, 1)  # closes every pulya: the sheet is frozen
    form = {"number": "2", "contract": "6", "suit": "S", "declarer": "0", "word_1": "pass"}

    response = club_client("olga").post(reverse("games:record", args=[pulka.pk]), form, headers=RU)

    assert response.status_code == 409
    assert "Пулька окончена: новые сдачи не записываются." in response.content.decode()


def test_the_entry_form_gives_the_engines_refusal_in_russian():
    state = start(("olga", "ivan", "Guest Gena"), preset("sochi"), 2)
    state, _record = apply(state, parse_deal(NINE))
    with pytest.raises(DealError) as refused:
        apply(state, parse_deal({**NINE, "declarer": "ivan"}))
    form = DealForm(state, {"number": "2", "contract": "9", "suit": "S", "declarer": "1"})

    with translation.override("ru"):
        form.is_valid()
        form.add_engine_error(refused.value)
        shown = " ".join(message for group in form.grouped_errors().values() for message in group)

    assert "Пулька уже закончена." in shown
    assert_russian(shown, ["olga", "ivan", "Guest Gena"])
