"""The poll the devices at a table make every 2 seconds (games:poll)."""

import re
from urllib.parse import unquote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from tests.web.fixtures_table import HTMX, legal_deals, region

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Boris", "Vera")


def poll_url(pulka: Pulka, version: object) -> str:
    return f"{reverse('games:poll', args=[pulka.pk])}?v={version}"


def test_the_poll_answers_304_with_an_empty_body_while_nothing_changed(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 3))

    response = table_client().get(poll_url(pulka, pulka.version), headers=HTMX)

    assert response.status_code == 304
    assert response.content == b""
    assert "no-cache" in response["Cache-Control"]


def test_the_unchanged_poll_costs_one_query_beside_the_session(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 3))
    client = table_client()

    with CaptureQueriesContext(connection) as queries:
        client.get(poll_url(pulka, pulka.version), headers=HTMX)

    ours = [q["sql"] for q in queries if "games_pulka" in q["sql"]]
    assert len(ours) == 1
    assert len(queries) == 2  # the session, the version (the user row is not needed)


def test_a_session_no_longer_valid_gets_no_figures(make_table_pulka, table_client, table_world):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    client = table_client()
    anna = table_world.users["anna"]
    anna.set_password("a-new-password-99")  # signs her out everywhere (session hash)
    anna.save()

    changed = client.get(poll_url(pulka, 0), headers=HTMX)

    assert changed.status_code == 403
    assert b"sheet" not in changed.content


def test_a_deactivated_member_gets_no_figures(make_table_pulka, table_client, table_world):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    client = table_client()
    table_world.users["anna"].is_active = False
    table_world.users["anna"].save()

    assert client.get(poll_url(pulka, 0), headers=HTMX).status_code == 403


def test_after_a_new_deal_the_poll_answers_the_new_regions(
    make_table_pulka, table_client, table_world
):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    shown = pulka.version
    record_deal(pulka.pk, legal_deals(NAMES, 2)[1], table_world.users["boris"], 2)

    response = table_client().get(poll_url(pulka, shown), headers=HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    for region_id in ("status", "sheet", "entry", "protocol", "poll"):
        assert re.search(rf'id="{region_id}"[^>]*hx-swap-oob="true"', html)
    assert f"?v={shown + 1}&amp;t=" in re.search(r'<div id="poll"[^>]*>', html).group(0)
    assert '<input type="hidden" name="number" value="3">' in region(html, "entry")
    assert '<span class="protocol__number">2</span>' in region(html, "protocol")


def test_a_garbled_version_gets_the_regions(make_table_pulka, table_client):
    pulka = make_table_pulka()

    for shown in ("", "x", "-1", "9" * 30):
        response = table_client().get(poll_url(pulka, shown), headers=HTMX)
        assert response.status_code == 200


def test_without_htmx_a_changed_poll_sends_the_browser_to_the_sheet(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))

    response = table_client().get(poll_url(pulka, 0))

    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk])
    assert table_client().get(poll_url(pulka, pulka.version)).status_code == 304


def test_an_anonymous_poll_is_refused_not_redirected(make_table_pulka, table_client):
    pulka = make_table_pulka()

    assert table_client("anonymous").get(poll_url(pulka, 0), headers=HTMX).status_code == 403
    assert table_client("anonymous").get(poll_url(pulka, 0)).status_code == 403


def test_a_member_of_another_club_gets_403_even_with_the_right_version(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()

    response = table_client("olaf").get(poll_url(pulka, pulka.version), headers=HTMX)

    assert response.status_code == 403
    assert response.content != b""  # not a 304 that would leak the version


def test_an_unknown_pulka_is_not_found(table_client):
    response = table_client().get(f"{reverse('games:poll', args=[999999])}?v=0", headers=HTMX)

    assert response.status_code == 404


def test_the_poll_answers_405_to_a_post(make_table_pulka, table_client):
    pulka = make_table_pulka()

    assert table_client().post(poll_url(pulka, 0), headers=HTMX).status_code == 405


def test_the_swapped_poll_element_polls_on_with_the_new_version(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))

    html = table_client().get(poll_url(pulka, 0), headers=HTMX).content.decode()

    poll = re.search(r'<div id="poll"[^>]*>', html).group(0)
    # hx-swap="none": a 304 (which htmx 2 counts as a success) swaps nothing, and a
    # 200 brings every region out of band, the poll element with its new version too.
    assert 'hx-trigger="every 2s, prefscore:changed"' in poll and 'hx-swap="none"' in poll
    assert f"?v={pulka.version}" in poll


def test_a_signed_out_device_is_told_to_sign_in(make_table_pulka, table_client):
    pulka = make_table_pulka()
    page = reverse("games:sheet", args=[pulka.pk])
    headers = {**HTMX, "HX-Current-URL": f"http://testserver{page}"}

    response = table_client("anonymous").get(poll_url(pulka, 0), headers=headers)

    assert response.status_code == 403
    assert response["HX-Redirect"] == f"{reverse('login')}?next={page}"


def ticket_for(pulka: Pulka, user, client=None) -> str:
    """The ticket the sheet page gives this device: sealed to its session and password."""
    from prefscore.games.poll_tickets import issue

    key = client.session.session_key if client is not None else ""
    return issue(pulka, user.pk, key or "", user.password)


def test_with_its_ticket_the_unchanged_poll_costs_one_query(
    make_table_pulka, table_client, table_world
):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))
    client = table_client()
    ticket = ticket_for(pulka, table_world.users["anna"], client)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{poll_url(pulka, pulka.version)}&t={ticket}", headers=HTMX)

    assert response.status_code == 304
    assert len(queries) == 1


def test_a_ticket_for_another_pulka_or_a_forged_one_is_not_trusted(
    make_table_pulka, table_client, table_world
):
    pulka = make_table_pulka()
    other = make_table_pulka()
    ticket = ticket_for(other, table_world.users["anna"])
    anonymous = table_client("anonymous")

    for forged in (ticket, ticket[:-2] + "xx", f"{pulka.pk}.1"):
        response = anonymous.get(f"{poll_url(pulka, pulka.version)}&t={forged}", headers=HTMX)
        assert response.status_code == 403


def test_a_ticket_stops_working_when_its_holder_leaves_the_club(
    make_table_pulka, table_client, table_world
):
    pulka = make_table_pulka()
    anna = table_world.users["anna"]
    ticket = ticket_for(pulka, anna)
    pulka.club.memberships.filter(user=anna).delete()

    response = table_client("anonymous").get(
        f"{poll_url(pulka, pulka.version)}&t={ticket}", headers=HTMX
    )

    assert response.status_code == 403


def test_a_ticket_dies_with_its_session(make_table_pulka, table_client, table_world):
    """A ticket used to give answers for 12 hours after its session ended."""
    pulka = make_table_pulka()
    client = table_client()
    ticket = ticket_for(pulka, table_world.users["anna"], client)
    url = f"{poll_url(pulka, pulka.version)}&t={ticket}"
    assert client.get(url, headers=HTMX).status_code == 304
    cookie = client.cookies["sessionid"].value

    client.post(reverse("logout"))
    client.cookies["sessionid"] = cookie  # the old cookie, kept by a thief or a stale tab

    assert client.get(url, headers=HTMX).status_code == 403


def test_a_ticket_dies_when_its_password_changes(make_table_pulka, table_client, table_world):
    pulka = make_table_pulka()
    client = table_client()
    anna = table_world.users["anna"]
    ticket = ticket_for(pulka, anna, client)
    url = f"{poll_url(pulka, pulka.version)}&t={ticket}"
    assert client.get(url, headers=HTMX).status_code == 304

    anna.set_password("a-new-password-for-anna")
    anna.save()

    assert client.get(url, headers=HTMX).status_code == 403


def test_a_ticket_copied_to_another_device_gives_nothing(
    make_table_pulka, table_client, table_world
):
    pulka = make_table_pulka()
    ticket = ticket_for(pulka, table_world.users["anna"], table_client())
    url = f"{poll_url(pulka, pulka.version)}&t={ticket}"

    assert table_client("anonymous").get(url, headers=HTMX).status_code == 403


def test_the_sheet_page_gives_a_ticket_that_polls_in_one_query(make_table_pulka, table_client):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 2))
    client = table_client()
    page = client.get(reverse("games:sheet", args=[pulka.pk])).content.decode()
    ticket = re.search(r"[?&]amp;t=([^\"&]+)|[?&]t=([^\"&]+)", page)
    assert ticket is not None
    value = unquote(ticket.group(1) or ticket.group(2))

    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{poll_url(pulka, pulka.version)}&t={value}", headers=HTMX)

    assert response.status_code == 304
    assert len(queries) == 1
