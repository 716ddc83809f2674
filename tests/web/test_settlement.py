"""Settlement at any moment (games:settlement): both Кодекс methods, whole whists by
4.2.12, money and the shortest list of payments."""

import re

import pytest
from django.urls import reverse

from prefscore.games.models import Pulka
from scoring.engine.protocol import score_text
from tests.web.fixtures_table import EN, HTMX, region

pytestmark = pytest.mark.django_db

# docs/protocol.md, "Output": the first two deals of its input (Sochi, target 10, stake 0.1).
EXAMPLE = [
    {"contract": "6S", "declarer": "A", "whists": {"B": "whist", "C": "pass"},
     "tricks": {"A": 6, "B": 3, "C": 1}},
    {"contract": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}},
]  # fmt: skip


@pytest.fixture
def example(make_table_pulka) -> Pulka:
    return make_table_pulka(("A", "B", "C"), deals=EXAMPLE, stake="0.1")


def url(pulka: Pulka, query: str = "") -> str:
    return reverse("games:settlement", args=[pulka.pk]) + query


def results(html: str, kind: str) -> list[str]:
    return re.findall(rf'data-result="{kind}">([^<]*)<', html)


def test_the_settlement_gives_the_exact_and_whole_results_and_the_money(example, table_client):
    response = table_client().get(url(example), headers=EN)

    assert response.status_code == 200
    html = response.content.decode()
    assert results(html, "exact") == ["45.33", "−8.67", "−36.67"]
    assert results(html, "whole") == ["45", "−8", "−37"]
    assert results(html, "money") == ["4.5", "−0.8", "−3.7"]


def test_the_settlement_equals_the_engines_known_answer(example, table_client):
    import json

    known = score_text(json.dumps({"convention": "sochi", "players": ["A", "B", "C"],
                                   "target": 10, "stake": 0.1, "deals": EXAMPLE}))  # fmt: skip
    html = table_client().get(url(example), headers=EN).content.decode()

    assert results(html, "whole") == [
        str(v).replace("-", "−") for v in known["result_whole"].values()
    ]
    assert results(html, "money") == [str(v).replace("-", "−") for v in known["money"].values()]


def test_both_kodeks_methods_are_shown_and_agree(example, table_client):
    html = table_client().get(url(example), headers=EN).content.decode()

    assert results(html, "pairwise") == ["45.33", "−8.67", "−36.67"]
    assert results(html, "average") == ["45.33", "−8.67", "−36.67"]
    assert "Method 1: pair by pair" in html and "Method 2: the average mountain" in html
    assert "Amnesty: take the smallest gora, 7, off every gora." in html
    assert "The average mountain is 5.33" in html


def test_the_steps_show_the_converted_gora_and_the_mountain_whists(example, table_client):
    html = table_client().get(url(example), headers=EN).content.decode()

    # A: pulya 3 → 7 carried; B: gora 4 + 10; C: gora 6 + 10 (docs/protocol.md: 7, 14, 16 before
    # the amnesty of 7 gives 0, 7, 9).
    rows = re.findall(
        r'<th scope="row"><bdi>([ABC])</bdi></th>\s*((?:<td class="num">[^<]*</td>\s*){5})', html
    )
    cells = {name: re.findall(r'<td class="num">([^<]*)</td>', body) for name, body in rows[:3]}
    assert cells["A"] == ["3", "0", "7", "0", "0"]
    assert cells["B"] == ["0", "4", "14", "7", "23.33"]
    assert cells["C"] == ["0", "6", "16", "9", "30"]


def test_whole_whists_show_who_adjusted_by_rule_4_2_12(example, table_client):
    """The amnestied goras 0/7/9: method 1 cannot divide B's 7, so B adjusts."""
    html = table_client().get(url(example), headers=EN).content.decode()

    assert "B: gora −1; whists A, C → B: +3 each." in html
    assert re.search(r'id="first-seat-1" value="1" checked', html)


def test_the_table_may_choose_who_adjusts(example, table_client):
    html = table_client().get(url(example, "?first_seat=1"), headers=EN).content.decode()

    assert "B: gora −1; whists A, C → B: +3 each." in html
    assert re.search(r'id="first-seat-1" value="1" checked', html)
    assert sum(int(v.replace("−", "-")) for v in results(html, "whole")) == 0


@pytest.mark.parametrize("value", ["x", "99", "-1", "", "1.5", "٣"])
def test_a_strange_first_seat_falls_back_to_the_default(value, example, table_client):
    response = table_client().get(url(example, f"?first_seat={value}"), headers=EN)

    assert response.status_code == 200
    assert "B: gora −1;" in response.content.decode()


def test_the_table_may_choose_the_first_seat(example, table_client):
    html = table_client().get(url(example, "?first_seat=0"), headers=EN).content.decode()

    assert "A: gora −1; whists B, C → A: +3 each." in html
    assert results(html, "whole") == ["46", "−9", "−37"]


def test_the_shortest_payments_are_listed_in_whists_and_money(example, table_client):
    html = region(table_client().get(url(example), headers=EN).content.decode(), "settlement")

    listed = re.search(r'<ul class="payments">(.*?)</ul>', html, re.S)
    payments = re.findall(r"<li>([^<]*)</li>", listed.group(1) if listed else "")
    assert payments == ["C → A: 37 whists, 3.7 in money", "B → A: 8 whists, 0.8 in money"]


def test_the_russian_payments_need_no_declension_of_names(example, table_client):
    html = table_client().get(url(example), headers={"accept-language": "ru"}).content.decode()

    assert "C → A: в вистах 37, деньгами 3,7" in html
    assert "B: гора −1; висты A, C → B: по +3." in html
    assert "платит A" not in html and "против A" not in html


def test_a_running_pulka_is_settled_as_if_stopped_now(example, table_client):
    html = table_client().get(url(example), headers=EN).content.decode()

    assert "Settled as if the players stopped now (deals so far: 2)" in html


def test_without_a_stake_there_is_no_money(make_table_pulka, table_client):
    pulka = make_table_pulka(("A", "B", "C"), deals=EXAMPLE)

    html = table_client().get(url(pulka), headers=EN).content.decode()

    assert results(html, "money") == []
    assert "B → A: 8 whists" in html


def test_an_empty_pulka_settles_to_nothing(make_table_pulka, table_client):
    pulka = make_table_pulka()

    html = table_client().get(url(pulka), headers=EN).content.decode()

    assert results(html, "whole") == ["0", "0", "0"]
    assert "Nobody owes anybody anything." in html


def test_the_sheet_links_to_the_settlement(example, table_client):
    html = table_client().get(reverse("games:sheet", args=[example.pk])).content.decode()

    assert f'href="{url(example)}"' in html


def test_with_htmx_only_the_settlement_region_is_answered(example, table_client):
    response = table_client().get(url(example, "?first_seat=2"), headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html and html.lstrip().startswith('<div id="settlement"')
    assert "C: gora −1;" in html


def test_the_settlement_speaks_russian_by_default(example, table_client):
    html = table_client().get(url(example)).content.decode()

    assert "45,33" in html and "Метод 1" in html


def test_the_settlement_is_refused_to_outsiders_and_anonymous(example, table_client):
    assert table_client("olaf").get(url(example)).status_code == 403
    assert table_client("olaf").get(url(example), headers=HTMX).status_code == 403
    anonymous = table_client("anonymous").get(url(example))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    anonymous = table_client("anonymous").get(url(example), headers=HTMX)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))


def test_an_unknown_pulka_has_no_settlement(table_client):
    assert table_client().get(reverse("games:settlement", args=[999999])).status_code == 404


def test_the_settlement_answers_405_to_a_post(example, table_client):
    assert table_client().post(url(example)).status_code == 405


def test_a_right_to_left_name_in_a_payment_stands_apart_from_the_figures():
    """A payment's sentence is made in Python: each name is isolated (FSI … PDI) so that
    an Arabic name does not carry the arrow and the whists to its side."""
    from django.utils import translation

    from prefscore.clubs.names import FSI, PDI
    from prefscore.games.presenters.settlement import _payment
    from scoring.engine.settlement import Payment

    with translation.override("en"):
        line = _payment(Payment(payer=0, payee=1, amount=12), ["أحمد", "Anna"], None)

    assert line == f"{FSI}أحمد{PDI} → Anna: 12 whists"
