"""Correcting a recorded deal (Кодекс 4.2.7, 4.2.9) through the page: the warning, then
the penalty, and the deadline; what the sheet shows after."""

import re

import pytest
from django.urls import reverse

from prefscore.games.models import Correction, Pulka
from prefscore.games.services import score
from tests.web.fixtures_corrections import (
    ALLPASS,
    RIGHT,
    VERA_RIGHT,
    VERA_WRONG,
    WRONG,
    correct_url,
    correction_form,
    post,
    recorded,
    sheet,
)
from tests.web.fixtures_table import EN, region

pytestmark = pytest.mark.django_db


# --- warning, then penalty, through the page ------------------------------------------------


def test_without_javascript_a_correction_posts_and_redirects_to_the_sheet(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)

    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk])
    assert Correction.objects.get().kind == Correction.Kind.CORRECTION


def test_with_htmx_a_correction_swaps_sheet_protocol_and_form_at_once(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)
    version = pulka.version

    response = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1), True)

    html = response.content.decode()
    assert response.status_code == 200
    for region_id in ("sheet", "protocol", "entry", "poll", "forgotten"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert "Deal 2" in region(html, "entry")  # a fresh form for the next deal
    pulka.refresh_from_db()
    assert pulka.version == version + 1  # every other device's poll sees it


def test_the_first_correction_warns_and_the_sheet_strikes_the_old_figure(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)

    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    html = sheet(seated_client("vera"), pulka)

    svg = region(html, "sheet")
    # Boris's whists on Anna: 8 struck through, then 6, as on paper.
    assert (
        '<tspan class="sheet__struck" text-decoration="line-through">8</tspan>.'
        '<tspan class="sheet__now">6</tspan>'
    ) in svg
    # With 3 tricks Boris is one short of the 4 a whister owes on a 6: 2 into his gora.
    boris = r'<th scope="row"><bdi>Boris</bdi></th>\s*<td>—</td>\s*<td><ins>2</ins></td>\s*<td><del>8</del>\.<ins>6</ins></td>'
    assert re.search(boris, svg)
    protocol = region(html, "protocol")
    assert "Warning, Кодекс 4.2.7: Boris (first correction)" in protocol
    assert "Penalty" not in protocol
    assert '<del class="protocol__struck"' in protocol and ">6♠/=</del>" in protocol
    assert '<span class="protocol__notation">6♠/+1</span>' in protocol
    assert re.search(r"Corrected by vera at \d\d:\d\d \(Кодекс 4.2.7\)\.", protocol)


def test_the_second_correction_favouring_a_player_costs_him_the_over_entry(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    recorded(seated_world, VERA_WRONG, by="vera")

    response = post(seated_client("anna"), correct_url(pulka, 2), correction_form(VERA_RIGHT, 2))
    html = sheet(seated_client("anna"), pulka)

    assert response.status_code == 302
    protocol = region(html, "protocol")
    # Boris over-wrote 2 whists on Vera: she writes 2 on him (4.2.7 a); and with 3 tricks he
    # was one short of the 4 a whister owes on a 6: 2 gora he had not written.
    assert "Penalty, Кодекс 4.2.7: Vera → Boris: 2 whists" in protocol
    assert "Penalty, Кодекс 4.2.7: Boris: 2 into the gora" in protocol
    assert protocol.count("Warning, Кодекс 4.2.7") == 1
    svg = region(html, "sheet")
    assert re.search(
        r'<th scope="row"><bdi>Vera</bdi></th>\s*<td>2</td>\s*<td>—</td>\s*<td>—</td>\s*<td>2</td>',
        svg,
    )
    assert "<title>Boris → Vera: whists: 8\u0336.6</title>" in svg
    # Deal 1's shortfall wrote 2; deal 2's makes it 4 (the 2 struck); the penalty 6.
    assert "<title>Boris: gora: 2\u0336.4.6</title>" in svg
    state = score(pulka).state
    assert state.whists[2][1] == 2 and state.gora[1] == 6 and state.whists[1][2] == 6


def test_penalties_are_listed_where_the_correction_was_made(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    recorded(seated_world, VERA_WRONG, by="vera")
    post(seated_client("anna"), correct_url(pulka, 2), correction_form(VERA_RIGHT, 2))
    recorded(seated_world, ALLPASS, by="boris")

    protocol = region(sheet(seated_client("anna"), pulka), "protocol")

    deal3 = protocol.index('value="3"')
    penalty = protocol.index("Penalty, Кодекс 4.2.7: Vera → Boris: 2 whists")
    deal2 = protocol.index('value="2"')
    warning = protocol.index("Warning, Кодекс 4.2.7: Boris")
    deal1 = protocol.index('value="1"')
    assert deal3 < penalty < deal2 < warning < deal1  # newest first


def test_a_penalty_for_pulya_over_written_goes_into_the_gora(seated_world, seated_client):
    seven = {"contract": "7S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}
    six = {**seven, "contract": "6S"}
    pulka = recorded(seated_world, seven)
    post(seated_client("boris"), correct_url(pulka, 1), correction_form(six, 1))  # warning
    recorded(seated_world, seven)

    post(seated_client("boris"), correct_url(pulka, 2), correction_form(six, 2))
    html = sheet(seated_client("boris"), pulka)

    assert "Penalty, Кодекс 4.2.7: Anna: 2 into the gora" in region(html, "protocol")
    svg = region(html, "sheet")
    assert "<title>Anna: pulya: 4\u0336.2.6\u0336.4</title>" in svg
    assert "<title>Anna: gora: 2</title>" in svg


def test_a_penalty_for_gora_under_written_goes_into_the_gora(seated_world, seated_client):
    made = {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 6, "Boris": 2, "Vera": 2}}  # fmt: skip
    down = {**made, "tricks": {"Anna": 5, "Boris": 3, "Vera": 2}}
    pulka = recorded(seated_world, made)
    post(seated_client("boris"), correct_url(pulka, 1), correction_form(down, 1))
    recorded(seated_world, made)

    post(seated_client("boris"), correct_url(pulka, 2), correction_form(down, 2))
    html = sheet(seated_client("boris"), pulka)

    # Anna wrote 2 pulya instead of 2 gora: 2 pulya over + 2 gora under = 4 into her gora.
    assert "Penalty, Кодекс 4.2.7: Anna: 4 into the gora" in region(html, "protocol")
    # The first correction wrote 2, the second made it 4 (the 2 struck), the penalty 8.
    assert "<title>Anna: gora: 2\u0336.4.8</title>" in region(html, "sheet")


# --- the deadline (4.2.9) ---------------------------------------------------------------------


def test_after_the_next_deal_someone_else_is_refused_and_the_input_kept(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)

    page = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    htmx = post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1), True)

    for response in (page, htmx):
        html = response.content.decode()
        assert response.status_code == 403
        assert "Refused: the wrong record did not favour you" in region(html, "entry")
        assert re.search(r'name="tricks_0" id="tricks_0" value="7"', html)
    assert not Correction.objects.exists()


def test_after_the_next_deal_the_favoured_player_corrects_without_penalty(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    form = region(
        seated_client("boris").get(correct_url(pulka, 1), headers=EN).content.decode(), "entry"
    )

    response = post(seated_client("boris"), correct_url(pulka, 1), correction_form(RIGHT, 1))
    html = sheet(seated_client("boris"), pulka)

    assert "only the player this error favoured may correct it now" in form  # told before
    assert response.status_code == 302
    correction = Correction.objects.get()
    assert correction.kind == Correction.Kind.VOLUNTARY and not correction.penalise
    protocol = region(html, "protocol")
    assert "Warning" not in protocol and "Penalty," not in protocol
    assert "by the player it favoured, without penalty (Кодекс 4.2.9)" in protocol
    assert "<title>Boris → Anna: whists: 8\u0336.6</title>" in region(html, "sheet")


def test_a_finished_pulka_is_corrected_on_its_last_deal_only(seated_world, seated_client):
    tens = [
        {
            "contract": "10",
            "declarer": n,
            "whists": {o: "pass" for o in ("Anna", "Boris", "Vera") if o != n},
        }
        for n in ("Anna", "Boris", "Vera")
    ]
    pulka = recorded(seated_world, *tens)
    assert pulka.status == Pulka.Status.FINISHED

    protocol = region(sheet(seated_client("vera"), pulka), "protocol")
    refused = post(
        seated_client("vera"), correct_url(pulka, 1), correction_form(tens[0], 1, contract="9")
    )

    assert correct_url(pulka, 3) in protocol and correct_url(pulka, 1) not in protocol
    assert refused.status_code == 409
    assert "only an arbiter may correct it now" in refused.content.decode()


def test_a_correction_that_breaks_a_later_deal_says_which(seated_world, seated_client):
    def unplayed(level: str, declarer: str) -> dict:
        others = [n for n in ("Anna", "Boris", "Vera") if n != declarer]
        return {"contract": level, "declarer": declarer, "whists": dict.fromkeys(others, "pass")}

    # Anna and Boris close their pulyas; Vera writes 6, then 2 more. Had deal 3 been a 10,
    # the pulka would have closed before deal 4.
    deals = [unplayed("10", "Anna"), unplayed("10", "Boris"), unplayed("8", "Vera"),
             unplayed("6", "Vera")]  # fmt: skip
    pulka = recorded(seated_world, *deals)

    response = post(
        seated_client("vera"), correct_url(pulka, 3), correction_form(unplayed("10", "Vera"), 3)
    )

    html = response.content.decode()
    assert response.status_code == 200
    assert "With this correction deal 4 would no longer stand: The pulka is already over." in html
    assert not Correction.objects.exists()
