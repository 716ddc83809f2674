"""The sheet screen's chart: each player's balance after every deal."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from prefscore.games import services
from prefscore.games.presenters.numbers import sampled, signed
from scoring.engine.settlement import exact_result
from tests.web.fixtures_table import EN, HTMX, legal_deals

pytestmark = pytest.mark.django_db


def test_the_sheet_draws_a_line_per_player_ending_at_the_settlement(make_table_pulka, table_client):
    names = ("Anna", "Boris", "Vera")
    pulka = make_table_pulka(names, deals=legal_deals(names, 6))

    response = table_client("anna").get(reverse("games:sheet", args=[pulka.pk]), headers=EN)

    html = response.content.decode()
    assert html.count('class="chart__line chart__series--') == 3
    assert "Balance after each deal" in html
    scored = services.score(pulka)
    final = exact_result(scored.totals, scored.state.convention)
    last_row = response.context["balance"].rows[-1]
    assert last_row.number == 6
    assert last_row.balances == tuple(signed(Fraction(v)) for v in final)


def test_the_chart_comes_with_the_sheet_after_a_deal(make_table_pulka, table_client):
    names = ("Anna", "Boris", "Vera")
    pulka = make_table_pulka(names, deals=legal_deals(names, 2))
    client = table_client("anna")
    record = reverse("games:record", args=[pulka.pk])
    form = {"number": "3", "contract": "allpass", "tricks_0": "3", "tricks_1": "3", "tricks_2": "4"}

    html = client.post(record, form, headers={**EN, **HTMX}).content.decode()

    assert 'id="balance-chart-title"' in html
    assert '<th scope="row">3</th>' in html


def test_a_long_pulka_draws_at_most_120_points_a_line():
    picked = sampled(2000)

    assert len(picked) <= 121 and picked[0] == 0 and picked[-1] == 1999
    assert sampled(5) == [0, 1, 2, 3, 4]


def test_a_pulka_with_no_deal_has_no_chart(make_table_pulka, table_client):
    pulka = make_table_pulka()

    response = table_client("anna").get(reverse("games:sheet", args=[pulka.pk]), headers=EN)

    assert response.context["balance"] is None or not response.context["balance"]
    assert "Balance after each deal" not in response.content.decode()
