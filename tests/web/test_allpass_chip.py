"""The entry form's all-pass chip: the real price per trick, the convention's scale applied
(docs/rules.md §3.3: Leningrad's ladder 1, 2, 3 is written ×2 into the gora)."""

import pytest
from django.urls import reverse

from tests.web.fixtures_table import EN, region

pytestmark = pytest.mark.django_db

RU = {"accept-language": "ru"}
ALLPASS = {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}


def entry(client, pulka, headers=EN) -> str:
    html = client.get(reverse("games:sheet", args=[pulka.pk]), headers=headers).content.decode()
    return region(html, "entry")


@pytest.mark.parametrize(
    ("convention", "deals", "english", "russian"),
    [
        ("sochi", [], "all-pass at 1 a trick", "распасы по 1 за взятку"),
        ("sochi", [ALLPASS], "all-pass at 1 a trick", "распасы по 1 за взятку"),
        ("leningrad", [], "all-pass at 2 a trick", "распасы по 2 за взятку"),
        ("leningrad", [ALLPASS], "all-pass at 4 a trick", "распасы по 4 за взятку"),
        ("leningrad", [ALLPASS, ALLPASS], "all-pass at 6 a trick", "распасы по 6 за взятку"),
        ("rostov", [], "all-pass at 5 whists a trick", "распасы по 5 в висты за взятку"),
    ],
)
def test_the_chip_shows_the_price_the_sheet_will_write(
    make_table_pulka, table_client, convention, deals, english, russian
):
    pulka = make_table_pulka(convention=convention, deals=deals)

    assert english in entry(table_client(), pulka)
    assert russian in entry(table_client(), pulka, RU)


def test_the_leningrad_chip_agrees_with_what_the_all_pass_writes(make_table_pulka, table_client):
    pulka = make_table_pulka(convention="leningrad", deals=[ALLPASS])

    html = table_client().get(reverse("games:sheet", args=[pulka.pk]), headers=EN)
    protocol = region(html.content.decode(), "protocol")

    # Anna took the fewest (2): amnesty; Boris and Vera took 2 more at 2 a trick.
    assert "Boris: 4 into the gora for tricks on the all-pass" in protocol
