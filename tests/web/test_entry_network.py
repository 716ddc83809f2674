"""Recording over a network that fails: a repeated form never records a deal twice, and
the phone that lost a race sees both entries and chooses (games:record).

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


# --- a race lost: both entries side by side, the player chooses --------------------------


def hidden(html: str, name: str) -> str | None:
    tag = re.search(rf'<input type="hidden" name="{re.escape(name)}" value="([^"]*)">', html)
    return tag.group(1) if tag else None


def test_the_phone_that_lost_the_race_sees_both_entries_and_is_offered_the_next_deal(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), deal_form(), headers=HTMX)
    mine = deal_form(contract="7", suit="H", declarer="1", word_0="whist", word_1="",
                     word_2="whist", tricks_0="3", tricks_1="5", tricks_2="2")  # fmt: skip

    response = table_client("boris").post(record_url(pulka), mine, headers=HTMX)

    assert response.status_code == 409
    assert response["X-Entry-Conflict"] == "1"
    html = response.content.decode()
    entry = region(html, "entry")
    assert "Deal 1 was already recorded on another device." in entry
    assert "Two entries for deal 1" in entry
    assert "On the sheet, recorded by anna" in entry
    theirs, yours = re.findall(r'class="conflict__notation[^"]*">([^<]*)<', entry)
    assert theirs.startswith("6♠") and yours.startswith("7♥"), (theirs, yours)
    # The declarer, each defender's word and the tricks of both, not the notation alone.
    theirs_facts, yours_facts = re.findall(r'class="conflict__facts">([^<]*)<', entry)
    assert theirs_facts == "6♠ Anna · Boris whist, Vera pass · tricks: Anna 6, Boris 3, Vera 1"
    assert yours_facts == "7♥ Boris · Anna whist, Vera whist · tricks: Anna 3, Boris 5, Vera 2"
    # Not put into the next deal's form: the choice is the player's, in two buttons.
    assert 'type="radio"' not in entry and "Record deal 2" not in entry
    assert "Record mine as deal 2" in entry and "Discard mine" in entry
    assert hidden(entry, "number") == "2"
    assert (hidden(entry, "contract"), hidden(entry, "suit"), hidden(entry, "declarer")) == (
        "7",
        "H",
        "1",
    )
    assert [hidden(entry, f"tricks_{seat}") for seat in range(3)] == ["3", "5", "2"]
    for region_id in ("sheet", "protocol", "entry", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert "<title>Boris → Anna: whists: 8</title>" in region(html, "sheet")  # deal 1 stands
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_without_htmx_the_lost_race_shows_the_whole_page_with_both_entries(
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
    assert "On the sheet, recorded by anna" in entry
    assert "Record mine as deal 2" in entry
    assert [hidden(entry, f"tricks_{seat}") for seat in range(3)] == ["7", "2", "1"]
    assert hidden(entry, "contract") == "6" and hidden(entry, "declarer") == "0"


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
    assert "Record mine as deal 2" in entry
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


# --- the outbox's client id: a replay of this entry, or another entry ---------------------

ONE = "5f0c6c1e-8a51-4b0e-9d7a-2c1b9f1e0a01"
TWO = "0d8a3f57-1c62-4e9b-a3d4-6e5f7a8b9c02"


@pytest.mark.parametrize("headers", [HTMX, EN], ids=["htmx", "page"])
def test_a_replay_of_the_same_entry_is_its_success_and_records_nothing_twice(
    make_table_pulka, table_client, headers
):
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), {**deal_form(), "client_id": ONE}, headers=headers)

    again = client.post(record_url(pulka), {**deal_form(), "client_id": ONE}, headers=headers)

    assert again.status_code == (200 if headers is HTMX else 302)
    assert "X-Entry-Conflict" not in again
    deal = Deal.objects.get(pulka=pulka)
    assert str(deal.client_id) == ONE
    assert AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.RECORDED).count() == 1


@pytest.mark.parametrize("headers", [HTMX, EN], ids=["htmx", "page"])
def test_the_same_facts_from_another_entry_of_the_same_user_is_a_conflict(
    make_table_pulka, table_client, headers
):
    # Two entries (two ids) are two deals the player entered, even with the same facts:
    # the second is shown beside the first, not taken for a replay.
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), {**deal_form(), "client_id": ONE}, headers=headers)

    other = client.post(record_url(pulka), {**deal_form(), "client_id": TWO}, headers=headers)

    assert other.status_code == 409
    assert other["X-Entry-Conflict"] == "1"
    entry = region(other.content.decode(), "entry")
    assert "Record mine as deal 2" in entry
    assert hidden(entry, "client_id") == TWO
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_replay_after_the_deal_was_undone_records_it_no_second_time(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), {**deal_form(), "client_id": ONE}, headers=HTMX)
    pencil = reverse("games:pencil", args=[pulka.pk, 1])
    assert client.post(pencil, {"action": "undo"}, headers=HTMX).status_code == 200

    again = client.post(record_url(pulka), {**deal_form(), "client_id": ONE}, headers=HTMX)

    assert again.status_code == 200
    assert Deal.objects.current().filter(pulka=pulka).count() == 0
    assert AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.RECORDED).count() == 1


def test_the_lost_entry_recorded_as_the_next_deal_keeps_its_client_id(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), {**deal_form(), "client_id": ONE}, headers=HTMX)
    boris = table_client("boris")
    mine = {**deal_form(tricks_0="7", tricks_1="2"), "client_id": TWO}
    refused = boris.post(record_url(pulka), mine, headers=HTMX)
    assert refused.status_code == 409

    chosen = boris.post(record_url(pulka), {**mine, "number": "2"}, headers=HTMX)
    replayed = boris.post(record_url(pulka), {**mine, "number": "2"}, headers=HTMX)

    assert chosen.status_code == replayed.status_code == 200
    deal = Deal.objects.get(pulka=pulka, number=2)
    assert (deal.entered_by.username, str(deal.client_id)) == ("boris", TWO)
    assert Deal.objects.filter(pulka=pulka).count() == 2


def test_a_client_id_that_is_no_uuid_is_ignored(make_table_pulka, table_client):
    pulka = make_table_pulka()
    client = table_client("anna")
    for junk in ("", "x" * 300, "1; drop table", "5f0c6c1e"):
        response = client.post(record_url(pulka), {**deal_form(), "client_id": junk}, headers=HTMX)
        assert response.status_code == 200, junk
    deal = Deal.objects.get(pulka=pulka)
    assert deal.client_id is None


# --- the other actions: carried out once per entry (views/sheet.py, once_per_entry) -----------------------


@pytest.mark.parametrize("headers", [HTMX, EN], ids=["htmx", "page"])
def test_an_undo_sent_again_is_its_success_not_a_refusal(make_table_pulka, table_client, headers):
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), deal_form(), headers=HTMX)
    undo = reverse("games:pencil", args=[pulka.pk, 1])

    first = client.post(undo, {"action": "undo", "client_id": ONE}, headers=headers)
    again = client.post(undo, {"action": "undo", "client_id": ONE}, headers=headers)
    other = client.post(undo, {"action": "undo", "client_id": TWO}, headers=headers)

    assert first.status_code == again.status_code == (200 if headers is HTMX else 302)
    assert other.status_code == 403  # another entry is judged: no pencil on a deal gone
    undone = AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.UNDONE)
    assert undone.count() == 1
    assert Deal.objects.filter(pulka=pulka, withdrawn_at__isnull=False).count() == 1


def test_a_proposal_sent_again_proposes_once(seated_world, seated_client):
    from prefscore.games.models import ForgottenDeal
    from tests.web.fixtures_corrections import ALLPASS, correction_form

    pulka = seated_world.pulka
    client = seated_client("anna")
    propose = reverse("games:propose", args=[pulka.pk])
    form = {**correction_form(ALLPASS, 1), "client_id": ONE}

    answers = [client.post(propose, form, headers=HTMX).status_code for _ in range(2)]
    another = client.post(propose, {**form, "client_id": TWO}, headers=HTMX)

    assert answers == [200, 200]
    assert another.status_code >= 400  # another entry: one proposal waits already
    assert ForgottenDeal.objects.filter(pulka=pulka).count() == 1


def test_a_replay_is_no_way_in_for_who_may_not_see_the_pulka(make_table_pulka, table_client):
    pulka = make_table_pulka()
    anna = table_client("anna")
    anna.post(record_url(pulka), deal_form(), headers=HTMX)
    undo = reverse("games:pencil", args=[pulka.pk, 1])
    assert anna.post(undo, {"action": "undo", "client_id": ONE}, headers=HTMX).status_code == 200

    stranger = table_client("olaf").post(undo, {"action": "undo", "client_id": ONE}, headers=HTMX)

    assert stranger.status_code in (403, 404)
    assert "Anna" not in stranger.content.decode()


def test_a_client_id_costs_a_record_no_query(make_table_pulka, table_client):
    # The replay is found by the unique constraint when the insert fails, not looked
    # up before every record: the hot path reads what it read before.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for extra in ({}, {"client_id": ONE}):
        pulka = make_table_pulka(deals=CLOSING[:1])
        client = table_client("anna")
        client.get(reverse("games:sheet", args=[pulka.pk]), headers=EN)  # the log cached
        with CaptureQueriesContext(connection) as queries:
            response = client.post(record_url(pulka), {**deal_form(2), **extra}, headers=HTMX)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
