"""The pencil rule (Кодекс 4.2.8): whoever recorded the last deal may change or undo it
without penalty until the next deal is recorded or the club's window passes."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from prefscore.games.models import Deal, Pulka
from tests.web.fixtures_table import EN, HTMX, deal_form, legal_deals, region

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Boris", "Vera")
SIX = {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
       "tricks": {"Anna": 6, "Boris": 3, "Vera": 1}}  # fmt: skip


def pencil_url(pulka: Pulka, number: int) -> str:
    return reverse("games:pencil", args=[pulka.pk, number])


def sheet(client, pulka: Pulka, query: str = "") -> str:
    return client.get(reverse("games:sheet", args=[pulka.pk]) + query, headers=EN).content.decode()


def standing(pulka: Pulka) -> list[Deal]:
    return list(Deal.objects.filter(pulka=pulka, withdrawn_at__isnull=True).order_by("number"))


def test_the_recorder_sees_undo_and_change_on_the_last_deal_only(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))

    protocol = region(sheet(table_client("anna"), pulka), "protocol")

    assert protocol.count('class="pencil"') == 1
    assert f'action="{pencil_url(pulka, 2)}"' in protocol
    assert 'name="action" value="undo"' in protocol
    assert "?change=2" in protocol


def test_another_member_sees_no_pencil(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))

    assert 'class="pencil"' not in sheet(table_client("boris"), pulka)


def test_the_recorder_undoes_the_last_deal_without_penalty(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))

    response = table_client().post(pencil_url(pulka, 2), {"action": "undo"})

    assert response.status_code == 302
    assert [d.number for d in standing(pulka)] == [1]
    withdrawn = Deal.objects.get(pulka=pulka, number=2)
    assert withdrawn.withdrawn_at is not None  # kept, never deleted
    pulka.refresh_from_db()
    assert pulka.version == 3
    assert '<input type="hidden" name="number" value="2">' in sheet(table_client(), pulka)


def _undone_form(entry: str) -> bool:
    """The entry form holds SIX: 6♠ by Anna, Boris whisting, 6/3/1 tricks."""
    return bool(
        re.search(r'id="contract-6" value="6" checked', entry)
        and re.search(r'id="suit-S"\s+value="S" checked', entry)
        and 'id="tricks_0" value="6"' in entry
        and 'id="tricks_2" value="1"' in entry
    )


def test_without_javascript_an_undo_puts_the_undone_deal_back_in_its_recorders_form(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=[SIX])
    anna = table_client("anna")

    response = anna.post(pencil_url(pulka, 1), {"action": "undo"}, headers=EN)

    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk]) + "?undone=1"
    entry = region(anna.get(response["Location"], headers=EN).content.decode(), "entry")
    assert "Record deal 1" in entry and _undone_form(entry)
    # The plain sheet, and the same link in another member's hands, show the empty form.
    assert not _undone_form(region(sheet(anna, pulka), "entry"))
    boris = region(sheet(table_client("boris"), pulka, "?undone=1"), "entry")
    assert "Record deal 1" in boris and not _undone_form(boris)
    # Once deal 1 is recorded again, the link holds nothing: deal 2 is the next one.
    anna.post(reverse("games:record", args=[pulka.pk]), deal_form(), headers=EN)
    again = region(sheet(anna, pulka, "?undone=1"), "entry")
    assert "Record deal 2" in again and not _undone_form(again)
    assert not _undone_form(region(sheet(anna, pulka, "?undone=x9"), "entry"))


def test_with_htmx_an_undo_holds_the_undone_deal_in_the_form(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=[SIX])

    response = table_client().post(pencil_url(pulka, 1), {"action": "undo"}, headers=HTMX)

    assert response.status_code == 200
    assert _undone_form(region(response.content.decode(), "entry"))


def test_with_htmx_an_undo_swaps_every_region(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))

    response = table_client().post(pencil_url(pulka, 2), {"action": "undo"}, headers=HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    for region_id in ("sheet", "protocol", "entry", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert len(standing(pulka)) == 1


def test_change_puts_the_last_deal_back_in_the_form(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=[SIX])

    entry = region(sheet(table_client(), pulka, "?change=1"), "entry")

    assert "Change deal 1" in entry
    assert f'action="{pencil_url(pulka, 1)}"' in entry
    assert '<input type="hidden" name="action" value="change">' in entry
    assert re.search(r'id="contract-6" value="6" checked', entry)
    assert re.search(r'id="suit-S"\s+value="S" checked', entry)
    assert re.search(r'id="declarer-0"\s+value="0" checked', entry)
    assert re.search(r'id="word_1-whist"\s+value="whist" checked', entry)
    assert 'id="tricks_0" value="6"' in entry and 'id="tricks_2" value="1"' in entry
    assert "<strong>Anna</strong> deals" in entry  # as it was dealt, not the next deal


def test_with_htmx_change_answers_the_prefilled_form(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=[SIX])

    response = table_client().get(
        reverse("games:sheet", args=[pulka.pk]) + "?change=1", headers=HTMX
    )

    assert "Change deal 1" in region(response.content.decode(), "entry")


def test_the_recorder_changes_the_last_deal(make_table_pulka, table_client, table_world):
    pulka = make_table_pulka(deals=[SIX])
    form = deal_form(1, action="change", tricks_0="7", tricks_1="2")

    response = table_client().post(pencil_url(pulka, 1), form)

    assert response.status_code == 302
    [deal] = standing(pulka)
    assert deal.facts["tricks"] == {"Anna": 7, "Boris": 2, "Vera": 1}
    assert deal.entered_by == table_world.users["anna"]
    assert Deal.objects.filter(pulka=pulka).count() == 2  # the old row withdrawn, kept


def test_a_wrong_change_is_shown_beside_its_field_and_changes_nothing(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=[SIX])
    form = deal_form(1, action="change", tricks_0="9")

    for headers, status in ((EN, 200), (HTMX, 422)):
        response = table_client().post(pencil_url(pulka, 1), form, headers=headers)
        assert response.status_code == status
        entry = region(response.content.decode(), "entry")
        assert "Change deal 1" in entry
        assert "The tricks add up to 13; they must add up to 10." in entry
        assert 'id="tricks_0" value="9"' in entry
    assert standing(pulka)[0].facts == SIX


def test_after_the_next_deal_the_pencil_is_down(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=[SIX])
    table_client("boris").post(
        reverse("games:record", args=[pulka.pk]),
        {"number": "2", "contract": "allpass", "tricks_0": "3", "tricks_1": "3", "tricks_2": "4"},
    )

    response = table_client("anna").post(pencil_url(pulka, 1), {"action": "undo"}, headers=EN)

    assert response.status_code == 403
    assert "Only whoever recorded the last deal may change or undo it" in response.content.decode()
    assert len(standing(pulka)) == 2
    assert 'class="pencil"' not in sheet(table_client("anna"), pulka)


def test_after_the_window_the_pencil_is_down(make_table_pulka, table_client, table_world):
    pulka = make_table_pulka(deals=[SIX])
    minutes = table_world.club.pencil_minutes
    Deal.objects.filter(pulka=pulka).update(
        entered_at=timezone.now() - timedelta(minutes=minutes, seconds=1)
    )

    response = table_client().post(pencil_url(pulka, 1), {"action": "undo"}, headers=HTMX)

    assert response.status_code == 403
    assert "Only whoever recorded the last deal" in response.content.decode()
    assert len(standing(pulka)) == 1
    assert 'class="pencil"' not in sheet(table_client(), pulka)
    assert "Change deal" not in sheet(table_client(), pulka, "?change=1")


def test_just_inside_the_window_the_pencil_is_still_up(make_table_pulka, table_client, table_world):
    pulka = make_table_pulka(deals=[SIX])
    minutes = table_world.club.pencil_minutes
    Deal.objects.filter(pulka=pulka).update(
        entered_at=timezone.now() - timedelta(minutes=minutes, seconds=-30)
    )

    assert table_client().post(pencil_url(pulka, 1), {"action": "undo"}).status_code == 302


def test_another_member_may_not_change_or_undo(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=[SIX])

    undo = table_client("boris").post(pencil_url(pulka, 1), {"action": "undo"}, headers=EN)
    change = table_client("boris").post(pencil_url(pulka, 1), deal_form(1, action="change"))

    assert undo.status_code == 403 and change.status_code == 403
    assert "Only whoever recorded the last deal" in undo.content.decode()
    assert "Change deal" not in sheet(table_client("boris"), pulka, "?change=1")
    assert len(standing(pulka)) == 1


def test_only_the_last_deal_is_under_the_pencil(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))

    assert table_client().post(pencil_url(pulka, 1), {"action": "undo"}).status_code == 403
    assert len(standing(pulka)) == 2


def test_the_recorder_may_undo_the_deal_that_finished_the_pulka(make_table_pulka, table_client):
    deals = [
        {"contract": "10", "declarer": name, "whists": {o: "pass" for o in NAMES if o != name}}
        for name in NAMES
    ]
    pulka = make_table_pulka(deals=deals)
    assert pulka.status == Pulka.Status.FINISHED
    assert 'class="pencil"' in sheet(table_client(), pulka)

    assert table_client().post(pencil_url(pulka, 3), {"action": "undo"}).status_code == 302

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.RUNNING


def test_an_unknown_action_is_refused(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=[SIX])

    response = table_client().post(pencil_url(pulka, 1), {"action": "burn"}, headers=EN)

    assert response.status_code == 400
    assert len(standing(pulka)) == 1


def test_the_pencil_is_refused_to_outsiders_anonymous_and_without_csrf(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=[SIX])
    url = pencil_url(pulka, 1)

    assert table_client("olaf").post(url, {"action": "undo"}).status_code == 403
    anonymous = table_client("anonymous").post(url, {"action": "undo"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    anonymous = table_client("anonymous").post(url, {"action": "undo"}, headers=HTMX)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert table_client(csrf=True).post(url, {"action": "undo"}).status_code == 403
    assert table_client().get(url).status_code == 405
    assert (
        table_client()
        .post(pencil_url(pulka, 1).replace(f"/{pulka.pk}/", "/999999/"), {"action": "undo"})
        .status_code
        == 404
    )
    assert len(standing(pulka)) == 1


def test_a_change_keeps_the_deals_pencil_window(make_table_pulka, table_client, table_world):
    """Changing a deal under the pencil does not start its window again (Кодекс 4.2.8):
    30 seconds before it closes, a change leaves 30 seconds, not the whole window."""
    pulka = make_table_pulka(deals=[SIX])
    minutes = table_world.club.pencil_minutes
    first = timezone.now() - timedelta(minutes=minutes, seconds=-30)
    Deal.objects.filter(pulka=pulka).update(entered_at=first)

    changed = table_client().post(pencil_url(pulka, 1), deal_form(1, action="change"))

    assert changed.status_code == 302
    (row,) = standing(pulka)
    assert timedelta(0) < row.entered_at - first < timedelta(seconds=1)
    Deal.objects.filter(pk=row.pk).update(entered_at=first - timedelta(seconds=31))
    later = table_client().post(pencil_url(pulka, 1), {"action": "undo"}, headers=HTMX)
    assert later.status_code == 403


def test_after_an_undo_the_form_holds_the_undone_deal(make_table_pulka, table_client):
    """The recorder undoes a deal to put it right: the form asks for the same deal
    number with the undone facts in it, not an empty form."""
    deals = legal_deals(NAMES, 2)
    pulka = make_table_pulka(deals=deals)
    undone = Deal.objects.get(pulka=pulka, number=2).facts

    response = table_client().post(pencil_url(pulka, 2), {"action": "undo"}, headers=HTMX)

    entry = region(response.content.decode(), "entry")
    assert '<input type="hidden" name="number" value="2">' in entry
    checked = re.findall(r'name="(\w+)"\s+id="[^"]*"\s+value="([^"]*)" checked', entry)
    assert checked, entry[:2000]
    contract = str(undone["contract"])
    assert ("contract", re.match(r"\d+|\w+", contract).group(0)) in checked
