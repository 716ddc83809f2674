"""Recording over a network that fails: a repeated form never records a deal twice, and
the phone that lost a race gets its entry back (games:record).

A phone that sent a deal and lost the answer (a timeout, the connection gone) sends the
same form again. The deal number makes that idempotent: a repeat of this user's own
record answers as the success it missed, with the sheet as it stands.
"""

import re

import pytest
from django.urls import reverse

from prefscore.games.models import AuditEvent, Deal, Pulka
from tests.web.fixtures_table import EN, HTMX, deal_form, region

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Boris", "Vera")
CLOSING = [
    {"contract": "10", "declarer": name, "whists": {o: "pass" for o in NAMES if o != name}}
    for name in NAMES
]


def record_url(pulka: Pulka) -> str:
    return reverse("games:record", args=[pulka.pk])


def checked(html: str, input_id: str) -> bool:
    tag = re.search(rf'<input[^>]*\sid="{re.escape(input_id)}"[^>]*>', html)
    assert tag, f"no input {input_id!r}"
    return " checked" in tag.group(0)


def trick_value(html: str, seat: int) -> str:
    tag = re.search(rf'<input[^>]*\sname="tricks_{seat}"[^>]*>', html)
    assert tag, f"no tricks_{seat}"
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return value.group(1) if value else ""


# --- the same form twice, from the same user ---------------------------------------------


def test_a_repeated_form_is_answered_as_the_success_without_a_second_deal(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    client = table_client("anna")

    first = client.post(record_url(pulka), deal_form(), headers=EN)
    again = client.post(record_url(pulka), deal_form(), headers=EN)

    assert first.status_code == again.status_code == 302
    assert again["Location"] == reverse("games:sheet", args=[pulka.pk])
    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.RECORDED).count() == 1
    pulka.refresh_from_db()
    assert pulka.version == 1


def test_with_htmx_a_repeated_form_gets_the_sheet_as_it_stands_and_the_next_form(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), deal_form(), headers=HTMX)

    response = client.post(record_url(pulka), deal_form(), headers=HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    for region_id in ("status", "sheet", "entry", "protocol", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert '<input type="hidden" name="number" value="2">' in html
    assert "already recorded" not in html
    assert 'class="notice"' not in html
    assert f"?v={pulka.version + 1}&amp;t=" in html
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_repeat_arriving_after_the_next_deal_is_still_a_success(make_table_pulka, table_client):
    pulka = make_table_pulka()
    anna, boris = table_client("anna"), table_client("boris")
    anna.post(record_url(pulka), deal_form(), headers=HTMX)
    boris.post(
        record_url(pulka),
        deal_form(2, contract="allpass", tricks_0="2", tricks_1="4", tricks_2="4"),
        headers=HTMX,
    )

    response = anna.post(record_url(pulka), deal_form(), headers=HTMX)

    assert response.status_code == 200
    assert '<input type="hidden" name="number" value="3">' in response.content.decode()
    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_repeating_the_deal_that_closed_the_pulka_is_a_success_not_a_frozen_refusal(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=CLOSING[:2])
    client = table_client("anna")
    closing = deal_form(3, contract="10", suit="", declarer="2", word_0="pass", word_1="pass",
                        word_2="", tricks_0="", tricks_1="", tricks_2="")  # fmt: skip
    assert client.post(record_url(pulka), closing, headers=HTMX).status_code == 200
    pulka.refresh_from_db()
    assert pulka.is_frozen

    response = client.post(record_url(pulka), closing, headers=HTMX)

    assert response.status_code == 200
    assert "the pulka is over and takes no more deals" in response.content.decode()
    assert 'class="notice"' not in response.content.decode()
    assert Deal.objects.filter(pulka=pulka).count() == 3


# --- a race lost: the entry comes back as the next deal ----------------------------------


def test_the_phone_that_lost_the_race_gets_its_entry_back_as_the_next_deal(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), deal_form(), headers=HTMX)
    mine = deal_form(contract="7", suit="H", declarer="1", word_0="whist", word_1="",
                     word_2="whist", tricks_0="3", tricks_1="5", tricks_2="2")  # fmt: skip

    response = table_client("boris").post(record_url(pulka), mine, headers=HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    entry = region(html, "entry")
    assert "Deal 1 was already recorded on another device." in entry
    assert "Your entry is kept below: check it and record it as deal 2." in entry
    assert '<input type="hidden" name="number" value="2">' in entry
    assert "Record deal 2" in entry
    for input_id in ("contract-7", "suit-H", "declarer-1", "word_0-whist", "word_2-whist"):
        assert checked(entry, input_id), input_id
    assert not checked(entry, "contract-6")
    assert [trick_value(entry, seat) for seat in range(3)] == ["3", "5", "2"]
    for region_id in ("sheet", "protocol", "entry", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert "<title>Boris → Anna: whists: 8</title>" in region(html, "sheet")  # deal 1 stands
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_without_htmx_the_lost_race_shows_the_whole_page_with_the_entry_kept(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), deal_form(), headers=EN)

    response = table_client("boris").post(
        record_url(pulka), deal_form(tricks_0="7", tricks_1="2"), headers=EN
    )

    assert response.status_code == 409
    html = response.content.decode()
    assert html.lstrip().startswith("<!doctype html>")
    assert "hx-swap-oob" not in html
    entry = region(html, "entry")
    assert "Your entry is kept below" in entry
    assert [trick_value(entry, seat) for seat in range(3)] == ["7", "2", "1"]
    assert checked(entry, "contract-6") and checked(entry, "declarer-0")


def test_the_entry_kept_after_a_lost_race_records_as_the_next_deal_with_one_post(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), deal_form(), headers=HTMX)
    boris = table_client("boris")
    mine = deal_form(contract="allpass", suit="", declarer="", word_1="", word_2="",
                     tricks_0="2", tricks_1="4", tricks_2="4")  # fmt: skip
    assert boris.post(record_url(pulka), mine, headers=HTMX).status_code == 409

    response = boris.post(record_url(pulka), {**mine, "number": "2"}, headers=HTMX)

    assert response.status_code == 200
    deal = Deal.objects.get(pulka=pulka, number=2)
    assert deal.entered_by.username == "boris"
    assert deal.facts == {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}


def test_the_same_user_with_other_facts_is_a_conflict_not_a_repeat(make_table_pulka, table_client):
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), deal_form(), headers=HTMX)

    response = client.post(record_url(pulka), deal_form(tricks_0="7", tricks_1="2"), headers=HTMX)

    assert response.status_code == 409
    entry = region(response.content.decode(), "entry")
    assert "You recorded deal 1 already, as the protocol shows." in entry
    assert "another device" not in entry
    assert "Your entry is kept below: check it and record it as deal 2." in entry
    assert Deal.objects.filter(pulka=pulka).count() == 1
    assert Deal.objects.get(pulka=pulka).facts["tricks"]["Anna"] == 6


def test_someone_elses_identical_deal_is_a_conflict_not_a_repeat(make_table_pulka, table_client):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), deal_form(), headers=HTMX)

    response = table_client("boris").post(record_url(pulka), deal_form(), headers=HTMX)

    assert response.status_code == 409
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_lost_race_on_a_pulka_that_closed_meanwhile_offers_no_form(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=CLOSING)

    response = table_client("boris").post(record_url(pulka), deal_form(3), headers=HTMX)

    assert response.status_code == 409
    entry = region(response.content.decode(), "entry")
    assert "Deal 3 was already recorded on another device." in entry
    assert "entry-form" not in entry
    assert Deal.objects.filter(pulka=pulka).count() == 3


def test_a_hostile_deal_number_is_a_form_error_not_a_crash(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=CLOSING[:1])
    for number in ("0", "-1", "9" * 50, ""):
        response = table_client().post(
            record_url(pulka), {**deal_form(), "number": number}, headers=HTMX
        )
        assert response.status_code == 422, number
    assert Deal.objects.filter(pulka=pulka).count() == 1
