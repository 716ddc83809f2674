"""The paper-pulka calculator as a form: players and convention, then the sheet's grid.

Known answers are docs/rules.md §6's worked examples typed in as a player would; a
hypothesis property checks that the form settles any sheet exactly as the engine does.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefscore.games.models import Pulka
from scoring.engine import settlement as engine
from scoring.engine.conventions import preset
from scoring.engine.settlement import Totals
from scoring.models import Convention as ConventionRecord

pytestmark = pytest.mark.django_db

URL = reverse("games:calculator")
HX = {"HX-Request": "true"}
EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}


def header(names: list[str], convention: str = "sochi", target: int = 20, stake: str = "") -> dict:
    data = {"convention": convention, "target": str(target), "stake": stake}
    data.update({f"name_{n}": name for n, name in enumerate(names, 1)})
    return data


def sheet_data(
    names: list[str],
    pulya: list[int],
    gora: list[int],
    whists: dict[tuple[int, int], int],
    **options: Any,
) -> dict[str, str]:
    """The POST of the grid: the header fields again (hidden) and every box."""
    data = header(names, **options)
    for seat in range(len(names)):
        data[f"pulya_{seat}"] = str(pulya[seat])
        data[f"gora_{seat}"] = str(gora[seat])
        for on in range(len(names)):
            if on != seat:
                data[f"whists_{seat}_{on}"] = str(whists.get((seat, on), ""))
    return data


def results(response) -> dict[str, dict[str, str]]:
    return {
        row.name: {
            "exact": row.exact.signed,
            "whole": row.whole.signed,
            "pairwise": row.pairwise.signed,
            "average": row.average.signed,
            "mountain_circle": row.mountain_circle.signed,
            "money": row.money.signed if row.money else None,
        }
        for row in response.context["settlement"].rows
    }


# docs/rules.md §6.3: Sochi, 4 players С/З/В/Ю, pulyas equal, the minimal sheet.
SIX_THREE = sheet_data(
    ["С", "З", "В", "Ю"],
    [20, 20, 20, 20],
    [5, 10, 20, 16],
    {(0, 1): 2, (2, 0): 10, (3, 0): 42, (2, 1): 50, (3, 1): 78},
    stake="0.01",
)


def test_the_players_step_shows_the_grid_for_those_players(club_world, club_client):
    response = club_client("ivan").get(URL, header(["Анна", "Борис", "Вера"]), headers=EN)

    html = response.content.decode()
    assert response.status_code == 200
    assert response.context["figures_form"].names == ("Анна", "Борис", "Вера")
    assert 'name="whists_0_1"' in html and 'name="whists_2_1"' in html
    assert 'name="whists_0_0"' not in html and 'name="pulya_3"' not in html
    # The header travels with the grid, hidden, and can be changed.
    assert '<input type="hidden" name="name_2" value="Борис"' in html
    assert "edit=1" in html


def test_the_first_visit_shows_the_players_step(club_world, club_client):
    response = club_client("ivan").get(URL, headers=EN)

    assert "figures_form" not in response.context
    html = response.content.decode()
    assert 'id="paper-players"' in html and 'name="name_5"' in html
    assert 'value="sochi"' in html and 'value="leningrad"' in html


def test_the_sochi_example_6_3_settles_through_the_form(club_world, club_client):
    response = club_client("ivan").post(URL, SIX_THREE, headers=EN)

    got = results(response)
    assert {n: r["exact"] for n, r in got.items()} == {
        "С": "+27.5",
        "З": "\u2212102.5",
        "В": "\u221212.5",
        "Ю": "+87.5",
    }
    # Method 1 with the Кодекс rounding: С's gora −1 (docs/rules.md §6.3).
    assert {n: r["whole"] for n, r in got.items()} == {
        "С": "+29",
        "З": "\u2212103",
        "В": "\u221213",
        "Ю": "+87",
    }
    assert got["С"]["money"] == "+0.29" and got["З"]["money"] == "\u22121.03"
    html = response.content.decode()
    assert "С: gora −1; whists З, В, Ю → С: +2 each." in html
    assert 'id="method1-heading"' in html and 'id="method2-heading"' in html
    assert not Pulka.objects.exists()


def test_the_leningrad_example_6_1_gives_the_mountain_circles(club_world, club_client):
    data = sheet_data(["1", "2", "3", "4"], [78, 74, 32, 22], [78, 60, 34, 76], {})
    data.update(convention="leningrad", target="50")

    got = results(club_client("ivan").post(URL, data, headers=EN))

    circles = [got[n]["mountain_circle"] for n in "1234"]
    assert circles == ["+370", "+470", "\u2212110", "\u2212730"]
    assert [got[n]["exact"] for n in "1234"] == circles  # no whists were written


def test_the_piter_example_6_2_gives_the_mountain_whists(club_world, club_client):
    data = sheet_data(["A", "B", "C", "D"], [56, 12, 6, 16], [76, 40, 52, 80], {})
    data.update(convention="leningrad", target="21")

    got = results(club_client("ivan").post(URL, data, headers=EN))

    assert [got[n]["average"] for n in "ABCD"] == ["+530", "+10", "\u2212230", "\u2212310"]


def test_the_russian_page_writes_payments_with_an_arrow(club_world, club_client):
    html = club_client("ivan").post(URL, SIX_THREE, headers=RU).content.decode()

    assert "З → Ю: в вистах 87, деньгами 0,87" in html
    assert "В → С: в вистах 13, деньгами 0,13" in html
    assert "З платит" not in html and "на него" not in html
    assert "висты З, В, Ю → С: по +2" in html


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("gora_0", "abc", "Not a whole number (Анна: gora)."),
        ("gora_0", "1.5", "Not a whole number (Анна: gora)."),
        ("pulya_1", "-3", "A whole number from 0 to 1000000000 (Борис: pulya)."),
        ("whists_2_0", "9" * 5000, "Not a whole number (Вера → Анна: whists)."),
        ("whists_2_0", "2000000000", "A whole number from 0 to 1000000000 (Вера → Анна: whists)."),
    ],
)
def test_a_bad_box_is_named_next_to_it(club_world, club_client, field, value, message):
    data = sheet_data(["Анна", "Борис", "Вера"], [20, 20, 20], [4, 12, 2], {})
    data[field] = value
    for headers in ({}, HX):
        response = club_client("ivan").post(URL, data, headers={**EN, **headers})
        assert response.status_code == 200
        assert response.context["figures_form"].errors[field] == [message]
        assert "settlement" not in response.context
        html = response.content.decode()
        assert f'id="id_{field}_error" role="alert">{message}</span>' in html


def test_a_bad_box_is_named_in_russian(club_world, club_client):
    data = sheet_data(["Анна", "Борис", "Вера"], [20, 20, 20], [4, 12, 2], {})
    data["gora_0"] = "много"

    response = club_client("ivan").post(URL, data, headers=RU)

    assert response.context["figures_form"].errors["gora_0"] == ["Не целое число (Анна: гора)."]


def test_a_typographic_minus_and_spaces_are_read(club_world, club_client):
    data = sheet_data(["Анна", "Борис"], [10, 10], [0, 0], {})
    data["gora_0"] = "\u221210"
    data["whists_1_0"] = "1 000"

    response = club_client("ivan").post(URL, {**data, "target": "10"}, headers=EN)

    totals = response.context["figures_form"].totals(10)
    assert totals.gora == (-10, 0) and totals.whists[1][0] == 1000


@pytest.mark.parametrize(
    ("names", "field", "message"),
    [
        (["Анна"], "name_1", "Type the names of 2 to 5 players."),
        ([], "name_1", "Type the names of 2 to 5 players."),
        (["Анна", "анна"], "name_2", "анна already sits at seat 1."),
    ],
)
def test_the_players_step_refuses_with_a_message(club_world, club_client, names, field, message):
    response = club_client("ivan").get(URL, header(names), headers=EN)

    assert response.context["players_form"].errors[field] == [message]
    assert "figures_form" not in response.context


def test_a_target_that_is_not_a_number_is_named(club_world, club_client):
    response = club_client("ivan").get(URL, {**header(["A", "B"]), "target": "x"}, headers=RU)

    assert response.context["players_form"].errors["target"] == ["Введите целое число."]


def test_a_tampered_header_in_the_grid_post_is_refused(club_world, club_client):
    data = {**SIX_THREE, "name_2": "С"}

    response = club_client("ivan").post(URL, data, headers=EN)

    assert "settlement" not in response.context and "figures_form" not in response.context
    assert response.context["players_form"].errors["name_2"]


def test_another_clubs_convention_is_not_offered(club_world, club_client):
    own = ConventionRecord.objects.get(slug="sochi").duplicate(club_world.club)
    theirs = ConventionRecord.objects.get(slug="sochi").duplicate(club_world.other_club)

    ivan = club_client("ivan")
    offered = dict(ivan.get(URL).context["players_form"].fields["convention"].choices)
    refused = ivan.get(URL, header(["A", "B"], convention=theirs.slug), headers=EN)
    accepted = ivan.get(URL, header(["A", "B"], convention=own.slug), headers=EN)

    assert own.slug in offered and theirs.slug not in offered
    assert "convention" in refused.context["players_form"].errors
    assert "figures_form" in accepted.context


def test_who_adjusts_first_can_be_chosen(club_world, club_client):
    response = club_client("ivan").post(URL, {**SIX_THREE, "first_seat": "3"}, headers=EN)

    # Ю adjusts, lowering first as rule 4.2.12 tries it: Ю +89 instead of С +29.
    html = response.content.decode()
    assert "Ю: gora −1; whists С, З, В → Ю: +2 each." in html
    assert [row.whole.signed for row in response.context["settlement"].rows] == [
        "+27",
        "−103",
        "−13",
        "+89",
    ]


def test_the_grid_under_htmx_returns_the_calculator_region(club_world, club_client):
    response = club_client("ivan").post(URL, SIX_THREE, headers={**EN, **HX})

    html = response.content.decode()
    assert html.lstrip().startswith('<div id="calculator">')
    assert 'id="settlement"' in html and "<html" not in html
    assert response["Vary"] == "HX-Request" or "HX-Request" in response["Vary"]


def test_the_players_step_under_htmx_returns_the_region(club_world, club_client):
    response = club_client("ivan").get(URL, header(["A", "B"]), headers={**EN, **HX})

    html = response.content.decode()
    assert html.lstrip().startswith('<div id="calculator">') and 'id="paper-figures"' in html


def test_the_grid_post_needs_the_csrf_token(club_world, club_client):
    assert club_client("ivan", csrf=True).post(URL, SIX_THREE).status_code == 403


def test_the_players_step_is_a_get_and_needs_no_token(club_world, club_client):
    response = club_client("ivan", csrf=True).get(URL, header(["A", "B"]))

    assert response.status_code == 200 and "figures_form" in response.context


def test_the_file_tab_shows_the_file_form(club_world, club_client):
    response = club_client("ivan").get(URL, {"tab": "file"}, headers=EN)

    html = response.content.decode()
    assert 'name="text"' in html and '<input type="hidden" name="tab" value="file">' in html
    assert 'aria-current="page"' in html


def test_a_json_syntax_error_is_a_translated_message_with_its_place(club_world, club_client):
    text = '{"players": ["A", "B"]\n "target": 10}'
    for headers, message in ((EN, "line 2, column 2"), (RU, "в строке 2, позиция 2")):
        response = club_client("ivan").post(URL, {"tab": "file", "text": text}, headers=headers)
        errors = " ".join(response.context["form"].errors["text"])
        assert message in errors
        assert "Expecting" not in errors and "delimiter" not in errors


# --- the form equals the engine ------------------------------------------------------


@st.composite
def paper_sheets(draw: st.DrawFn) -> tuple[str, Totals, int]:
    size = draw(st.integers(2, 5))
    names = tuple(f"P{seat}" for seat in range(size))
    target = draw(st.integers(1, 60))
    figure = st.integers(0, 400)
    pulya = tuple(draw(figure) for _ in names)
    gora = tuple(draw(st.integers(-50, 400)) for _ in names)
    whists = tuple(tuple(0 if i == j else draw(figure) for j in range(size)) for i in range(size))
    convention = draw(st.sampled_from(["sochi", "leningrad", "rostov"]))
    first_seat = draw(st.integers(0, size - 1))
    return convention, Totals(names, target, pulya, gora, whists), first_seat


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sheet=paper_sheets())
def test_the_form_settles_any_sheet_as_the_engine_does(club_world, sheet):
    convention_name, totals, first_seat = sheet
    client = Client()
    client.force_login(club_world.users["ivan"])
    whists = {(i, j): totals.whists[i][j] for i in range(totals.size) for j in range(totals.size)}
    data = sheet_data(
        list(totals.names),
        list(totals.pulya),
        list(totals.gora),
        whists,
        convention=convention_name,
        target=totals.target,
        stake="0.5",
    )
    data["first_seat"] = str(first_seat)

    view = client.post(URL, data, headers=EN).context["settlement"]

    conv = preset(convention_name)
    whole = engine.whole_result(totals, conv, first_seat).result
    exact = engine.exact_result(totals, conv)
    assert sum(whole) == 0 and sum(exact) == 0
    assert [row.whole.signed for row in view.rows] == [_signed(v) for v in whole]
    assert [row.exact.signed for row in view.rows] == [_signed(v) for v in exact]
    assert [row.money.signed for row in view.rows] == [
        _signed(v, None) for v in engine.money(whole, Decimal("0.5"))
    ]


def _signed(value: Any, places: Any = 2) -> str:
    from django.utils import translation

    from prefscore.games.presenters import signed

    with translation.override("en"):
        return signed(value) if places == 2 else signed(value, places=None)
