"""Recording a deal from the entry form (games:record)."""

import re

import pytest
from django.urls import reverse

from prefscore.games.models import Deal, Pulka
from tests.web.fixtures_table import EN, HTMX, deal_form, region

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Boris", "Vera")


def record_url(pulka: Pulka) -> str:
    return reverse("games:record", args=[pulka.pk])


def errors_beside(html: str, group: str) -> str:
    return region(html, f"entry-{group}-errors")


def test_a_deal_is_recorded_and_the_browser_is_sent_back_to_the_sheet(
    make_table_pulka, table_client, table_world
):
    pulka = make_table_pulka()

    response = table_client().post(record_url(pulka), deal_form(), headers=EN)

    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk])
    deal = Deal.objects.get(pulka=pulka)
    assert deal.number == 1
    assert deal.entered_by == table_world.users["anna"]
    assert deal.facts == {
        "contract": "6S",
        "declarer": "Anna",
        "whists": {"Boris": "whist", "Vera": "pass"},
        "tricks": {"Anna": 6, "Boris": 3, "Vera": 1},
    }
    pulka.refresh_from_db()
    assert pulka.version == 1


def test_with_htmx_one_answer_swaps_the_sheet_the_protocol_and_a_fresh_form(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()

    response = table_client().post(record_url(pulka), deal_form(), headers=HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    for region_id in ("status", "sheet", "entry", "protocol", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert '<span class="protocol__notation">6♠/=</span>' in html
    assert '<input type="hidden" name="number" value="2">' in html
    assert "<strong>Boris</strong> deals" in html
    assert f"?v={pulka.version + 1}&amp;t=" in html


def test_an_all_pass_records_only_the_tricks_whatever_else_was_ticked(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    form = deal_form(contract="allpass", tricks_0="2", tricks_1="4", tricks_2="4")

    response = table_client().post(record_url(pulka), form)

    assert response.status_code == 302
    assert Deal.objects.get(pulka=pulka).facts == {
        "contract": "allpass",
        "tricks": {"Anna": 2, "Boris": 4, "Vera": 4},
    }


def test_a_contract_nobody_whisted_is_recorded_without_tricks(make_table_pulka, table_client):
    pulka = make_table_pulka()
    form = deal_form(contract="8", suit="", word_1="pass", tricks_0="", tricks_1="", tricks_2="")

    response = table_client().post(record_url(pulka), form)

    assert response.status_code == 302
    assert Deal.objects.get(pulka=pulka).facts == {
        "contract": "8",
        "declarer": "Anna",
        "whists": {"Boris": "pass", "Vera": "pass"},
    }


def test_a_misere_needs_only_the_declarers_tricks(make_table_pulka, table_client):
    pulka = make_table_pulka()
    form = deal_form(
        contract="misere", word_1="", word_2="", tricks_0="0", tricks_1="", tricks_2=""
    )

    response = table_client().post(record_url(pulka), form)

    assert response.status_code == 302
    assert Deal.objects.get(pulka=pulka).facts == {
        "contract": "misere",
        "declarer": "Anna",
        "tricks": {"Anna": 0},
    }


def test_the_four_player_dealer_plays_the_talon_only_on_an_all_pass(make_table_pulka, table_client):
    pulka = make_table_pulka(["Anna", "Boris", "Vera", "Gleb"])
    allpass = {
        "number": "1",
        "contract": "allpass",
        "tricks_0": "1",
        "tricks_1": "3",
        "tricks_2": "3",
        "tricks_3": "3",
    }

    response = table_client().post(record_url(pulka), allpass)

    assert response.status_code == 302
    assert Deal.objects.get(pulka=pulka).facts["tricks"] == {
        "Boris": 3,
        "Vera": 3,
        "Gleb": 3,
        "Anna": 1,
    }


def test_talon_fast_tricks_are_recorded_where_the_convention_writes_them(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(convention="fspr")

    response = table_client().post(record_url(pulka), deal_form(prikup="1"))

    assert response.status_code == 302
    assert Deal.objects.get(pulka=pulka).facts["prikup"] == 1


def test_the_recorded_deal_shows_on_the_sheet_after_the_redirect(make_table_pulka, table_client):
    pulka = make_table_pulka()
    client = table_client()

    response = client.post(record_url(pulka), deal_form(), headers=EN, follow=True)

    html = response.content.decode()
    assert "<title>Boris → Anna: whists: 8</title>" in html
    assert "Deal 2" in html


# --- wrong entries: the message beside its field, what was typed kept, nothing saved ----

WRONG = [
    pytest.param({"tricks_0": "7"}, "tricks", "The tricks add up to 11; they must add up to 10.", id="tricks-not-10"),
    pytest.param({"declarer": ""}, "declarer", "Choose the declarer.", id="missing-declarer"),
    pytest.param({"declarer": "7"}, "declarer", "Choose the declarer among the players.", id="unknown-declarer"),
    pytest.param({"declarer": "<b>"}, "declarer", "Choose the declarer among the players.", id="garbage-declarer"),
    pytest.param({"contract": "8", "word_1": "pass", "word_2": "half", "tricks_0": "", "tricks_1": "", "tricks_2": ""},
                 "whists", "Half-whist is not allowed on this contract (8).", id="half-on-an-8"),
    pytest.param({"contract": "misere", "word_1": "whist", "word_2": "pass", "tricks_1": "", "tricks_2": "", "tricks_0": "0"},
                 "whists", "A misère is not whisted: leave every word empty (—).", id="whists-on-a-misere"),
    pytest.param({"tricks_1": ""}, "tricks", "Boris: enter the tricks.", id="missing-tricks"),
    pytest.param({"tricks_0": "", "tricks_1": "", "tricks_2": ""}, "tricks", "Enter the tricks.", id="no-tricks"),
    pytest.param({"tricks_1": "-1"}, "tricks", "Boris: tricks must be a whole number from 0 to 10.", id="negative-tricks"),
    pytest.param({"tricks_1": "99999999999999999999"}, "tricks", "Boris: tricks must be a whole number from 0 to 10.", id="huge-tricks"),
    pytest.param({"tricks_1": "11"}, "tricks", "Boris: tricks must be a whole number from 0 to 10.", id="eleven-tricks"),
    pytest.param({"tricks_1": "three"}, "tricks", "Boris: tricks must be a whole number from 0 to 10.", id="garbage-tricks"),
    pytest.param({"word_1": "maybe"}, "whists", "Each word is whist, pass or half.", id="garbage-word"),
    pytest.param({"word_1": ""}, "whists", "Boris: choose whist, pass or half.", id="missing-word"),
    pytest.param({"word_2": "whist", "word_0": "whist"}, "whists", "Anna declares: leave his word empty (—).", id="declarer-whists"),
    pytest.param({"contract": "banana"}, "contract", "Choose the contract: 6 to 10, misère or all-pass.", id="garbage-contract"),
    pytest.param({"contract": ""}, "contract", "Choose the contract: 6 to 10, misère or all-pass.", id="missing-contract"),
    pytest.param({"suit": "X"}, "contract", "Choose a suit from the list.", id="garbage-suit"),
    pytest.param({"word_1": "pass"}, "tricks", "Nobody whisted, so the contract is not played: leave the tricks empty.", id="tricks-on-unplayed"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "group", "message"), WRONG)
def test_a_wrong_entry_is_shown_beside_its_field_and_nothing_is_saved(
    fields, group, message, make_table_pulka, table_client
):
    pulka = make_table_pulka()
    form = deal_form(**fields)

    response = table_client().post(record_url(pulka), form, headers=EN)

    assert response.status_code == 200
    html = response.content.decode()
    assert message in errors_beside(html, group).replace("&#x27;", "'")
    assert not Deal.objects.filter(pulka=pulka).exists()
    pulka.refresh_from_db()
    assert pulka.version == 0


@pytest.mark.parametrize(("fields", "group", "message"), WRONG[:4])
def test_with_htmx_a_wrong_entry_answers_422_with_the_form_alone(
    fields, group, message, make_table_pulka, table_client
):
    pulka = make_table_pulka()

    response = table_client().post(record_url(pulka), deal_form(**fields), headers=HTMX)

    assert response.status_code == 422
    html = response.content.decode()
    assert re.search(r'id="entry"[^>]*hx-swap-oob="true"', html)
    assert 'id="sheet"' not in html
    assert message in errors_beside(html, group)
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_what_was_typed_is_kept_beside_the_errors(make_table_pulka, table_client):
    pulka = make_table_pulka()
    form = deal_form(contract="7", suit="H", tricks_0="7", tricks_1="three")

    html = table_client().post(record_url(pulka), form, headers=EN).content.decode()

    entry = region(html, "entry")
    assert re.search(r'id="contract-7" value="7" checked', entry)
    assert re.search(r'id="suit-H"\s+value="H" checked', entry)
    assert re.search(r'id="declarer-0"\s+value="0" checked', entry)
    assert re.search(r'id="word_1-whist"\s+value="whist" checked', entry)
    assert 'id="tricks_0" value="7"' in entry
    assert 'id="tricks_1" value="three"' in entry


def test_a_contract_below_the_exit_ladder_after_an_all_pass_is_refused(
    make_table_pulka, table_client
):
    allpass = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}}
    pulka = make_table_pulka(convention="leningrad", deals=[allpass])
    # Deal 2 is dealt by Boris; Vera declares a 6 when 7 is the lowest allowed.
    form = deal_form(
        2,
        declarer="2",
        word_0="whist",
        word_1="pass",
        word_2="",
        tricks_0="3",
        tricks_1="1",
        tricks_2="6",
    )

    html = table_client().post(record_url(pulka), form, headers=EN).content.decode()

    assert "After the all-passes the lowest contract allowed is 7, not 6♠." in errors_beside(
        html, "contract"
    )
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_form_out_of_date_says_so_above_the_form(make_table_pulka, table_client):
    pulka = make_table_pulka()

    html = (
        table_client().post(record_url(pulka), deal_form(number="x"), headers=EN).content.decode()
    )

    assert "This form is out of date: reload the page." in region(html, "entry")
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_errors_are_shown_in_russian_by_default(make_table_pulka, table_client):
    pulka = make_table_pulka()

    html = table_client().post(record_url(pulka), deal_form(tricks_0="7")).content.decode()

    assert "Взяток в сумме 11, а должно быть 10." in errors_beside(html, "tricks")


# --- two devices, one deal -----------------------------------------------------------


def test_the_second_device_posting_the_same_deal_gets_a_conflict_and_the_sheet(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    first, second = table_client("anna"), table_client("boris")

    assert first.post(record_url(pulka), deal_form(), headers=EN).status_code == 302
    response = second.post(record_url(pulka), deal_form(tricks_0="7", tricks_1="2"), headers=EN)

    assert response.status_code == 409
    html = response.content.decode()
    assert "Deal 1 was already recorded on another device." in region(html, "entry")
    assert "<title>Boris → Anna: whists: 8</title>" in region(html, "sheet")
    assert '<input type="hidden" name="number" value="2">' in html
    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert Deal.objects.get(pulka=pulka).facts["tricks"]["Anna"] == 6


def test_with_htmx_the_conflict_answers_409_with_every_region(make_table_pulka, table_client):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), deal_form(), headers=HTMX)

    response = table_client("boris").post(record_url(pulka), deal_form(), headers=HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "Deal 1 was already recorded on another device." in html
    for region_id in ("sheet", "protocol", "entry", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_finished_pulka_is_frozen(make_table_pulka, table_client):
    deals = [
        {"contract": "10", "declarer": name, "whists": {o: "pass" for o in NAMES if o != name}}
        for name in NAMES
    ]
    pulka = make_table_pulka(deals=deals)

    response = table_client().post(record_url(pulka), deal_form(4), headers=HTMX)

    assert response.status_code == 409
    assert "This pulka is over: it takes no more deals." in response.content.decode()
    assert Deal.objects.filter(pulka=pulka).count() == 3


def test_an_archived_pulka_refuses_recording(make_table_pulka, table_client):
    pulka = make_table_pulka()
    Pulka.objects.filter(pk=pulka.pk).update(status=Pulka.Status.ARCHIVED)

    assert table_client().post(record_url(pulka), deal_form()).status_code == 403
    assert not Deal.objects.filter(pulka=pulka).exists()


# --- who may post --------------------------------------------------------------------


def test_an_anonymous_post_is_sent_to_sign_in_and_saves_nothing(make_table_pulka, table_client):
    pulka = make_table_pulka()

    for headers in ({}, HTMX):
        response = table_client("anonymous").post(record_url(pulka), deal_form(), headers=headers)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert not Deal.objects.exists()


def test_a_member_of_another_club_is_refused(make_table_pulka, table_client):
    pulka = make_table_pulka()

    assert table_client("olaf").post(record_url(pulka), deal_form()).status_code == 403
    assert (
        table_client("olaf").post(record_url(pulka), deal_form(), headers=HTMX).status_code == 403
    )
    assert not Deal.objects.exists()


def test_an_unknown_pulka_is_not_found(table_client):
    assert (
        table_client().post(reverse("games:record", args=[999999]), deal_form()).status_code == 404
    )


def test_recording_answers_405_to_a_get(make_table_pulka, table_client):
    pulka = make_table_pulka()

    assert table_client().get(record_url(pulka)).status_code == 405


def test_recording_needs_the_csrf_token(make_table_pulka, table_client):
    pulka = make_table_pulka()

    response = table_client(csrf=True).post(record_url(pulka), deal_form())

    assert response.status_code == 403
    assert not Deal.objects.exists()
