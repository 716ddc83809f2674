"""Manual entries on the sheet (docs/rules.md §3.11): games:manual and games:manual_correct.

Who may (the club's admins; a tournament's organisers), writing a line with htmx and
without, its refusals beside the field, the protocol and the drawn sheet showing the
reason, the audit trail, correcting a line, and the queries of the sheet page.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.clubs.models import Membership, Role
from prefscore.games.models import AuditEvent, Correction, Deal, Pulka
from prefscore.games.services import score
from tests.web.fixtures_corrections import (
    ALLPASS,
    SEATED_PASSWORD,
    correct_url,
    put_pencil_down,
    seated_record,
)
from tests.web.fixtures_table import EN, HTMX, region
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db

FINE = {"player": "0", "section": "gora", "points": "6", "reason": "Showed a card"}


@pytest.fixture
def admin(seated_world: Any) -> Any:
    user = get_user_model().objects.create_user("ada", password=SEATED_PASSWORD)
    Membership.objects.create(club=seated_world.club, user=user, role=Role.ADMIN)
    seated_world.users["ada"] = user
    return user


def manual_url(pulka: Pulka) -> str:
    return reverse("games:manual", args=[pulka.pk])


def manual_correct_url(pulka: Pulka, number: int) -> str:
    return reverse("games:manual_correct", args=[pulka.pk, number])


def form(number: int, **fields: str) -> dict[str, str]:
    return {"number": str(number), **FINE, **fields}


def sheet_html(client: Any, pulka: Pulka) -> str:
    return client.get(reverse("games:sheet", args=[pulka.pk]), headers=EN).content.decode()


def written(seated_world: Any, *lines: dict[str, Any]) -> Pulka:
    pulka = seated_world.pulka
    for line in lines:
        seated_record(pulka, {"manual": line}, seated_world.users["ada"])
    return pulka


LINE = {"player": "Anna", "section": "gora", "points": 6, "reason": "Showed a card"}


# --- writing a line ------------------------------------------------------------------


def test_an_admin_writes_a_fine_without_htmx_and_is_sent_to_the_sheet(
    seated_world, seated_client, admin
):
    pulka = seated_world.pulka
    client = seated_client("ada")

    page = client.get(manual_url(pulka), headers=EN)
    response = client.post(manual_url(pulka), form(1), headers=EN)

    assert page.status_code == 200 and 'id="manual-form"' in page.content.decode()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk])
    deal = Deal.objects.get(pulka=pulka)
    assert deal.facts == {"manual": LINE} and deal.entered_by == admin
    assert score(pulka).state.gora == (6, 0, 0)
    recorded = AuditEvent.objects.get(pulka=pulka, action=AuditEvent.Action.RECORDED)
    assert recorded.user == admin and recorded.details["facts"] == {"manual": LINE}


def test_with_htmx_the_form_region_comes_alone_and_success_redirects_by_header(
    seated_world, seated_client, admin
):
    pulka = seated_world.pulka
    client = seated_client("ada")

    page = client.get(manual_url(pulka), headers=HTMX)
    response = client.post(
        manual_url(pulka), form(1, section="whists", on="1", points="20"), headers=HTMX
    )

    assert page.status_code == 200 and "<html" not in page.content.decode()
    assert 'id="manual"' in page.content.decode()
    assert page["Vary"].count("HX-Request") == 1
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:sheet", args=[pulka.pk])
    assert score(pulka).state.whists[0][1] == 20


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    ("fields", "where", "message"),
    [
        ({"reason": "  "}, "manual-reason-errors", "Give the reason for this entry."),
        ({"reason": "x" * 201}, "manual-reason-errors", "at most 200 characters"),
        ({"points": "0"}, "manual-points-errors", "other than 0"),
        ({"points": "-3", "section": "pulya"}, "manual-points-errors", "from 1 to 1000"),
        ({"points": "１２"}, "manual-points-errors", "whole number"),
        ({"points": "99999999"}, "manual-points-errors", "whole number"),
        ({"section": "talon"}, "manual-section-errors", "Choose the pulya, the gora"),
        ({"player": "7"}, "manual-player-errors", "Choose a player of this pulka."),
        ({"section": "whists", "on": "0"}, "manual-on-errors", "cannot write whists on himself"),
        ({"section": "whists", "on": ""}, "manual-on-errors", "Choose a player of this pulka."),
    ],
)
def test_a_wrong_line_is_refused_beside_its_field_and_nothing_is_saved(
    seated_world, seated_client, admin, fields, where, message, htmx
):
    pulka = seated_world.pulka
    headers = HTMX if htmx else EN

    response = seated_client("ada").post(manual_url(pulka), form(1, **fields), headers=headers)

    assert response.status_code == (422 if htmx else 200)
    assert message in region(response.content.decode(), where)
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_stale_number_is_a_conflict(seated_world, seated_client, admin):
    pulka = written(seated_world, LINE)

    response = seated_client("ada").post(manual_url(pulka), form(1), headers=HTMX)

    assert response.status_code == 409
    assert Deal.objects.filter(pulka=pulka).count() == 1


# --- who may --------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["anna", "gleb", "oksana", "olaf"])
def test_only_admins_write_manual_entries_in_a_club_pulka(seated_world, seated_client, admin, who):
    pulka = seated_world.pulka
    client = seated_client(who)

    assert client.get(manual_url(pulka), headers=EN).status_code == 403
    assert client.post(manual_url(pulka), form(1), headers=HTMX).status_code == 403
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_tournaments_organisers_write_them_too(seated_world, seated_client, admin):
    pulka = seated_world.pulka
    Pulka.objects.filter(pk=pulka.pk).update(
        tournament=make_tournament(seated_world.club), round_number=1
    )

    response = seated_client("oksana").post(manual_url(pulka), form(1), headers=EN)

    assert response.status_code == 302
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_the_view_refuses_the_anonymous_unknown_pulkas_other_methods_and_no_token(
    seated_world, seated_client, admin
):
    pulka = seated_world.pulka

    anonymous = seated_client("anonymous").get(manual_url(pulka))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert seated_client("ada").get(reverse("games:manual", args=[999999])).status_code == 404
    assert seated_client("ada").put(manual_url(pulka)).status_code == 405
    assert seated_client("ada").delete(manual_url(pulka)).status_code == 405
    no_token = seated_client("ada", csrf=True).post(manual_url(pulka), form(1))
    assert no_token.status_code == 403
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_a_finished_pulka_takes_no_manual_entry(seated_world, seated_client, admin):
    pulka = seated_world.pulka
    Pulka.objects.filter(pk=pulka.pk).update(status=Pulka.Status.FINISHED)

    response = seated_client("ada").post(manual_url(pulka), form(1), headers=HTMX)

    assert response.status_code == 409
    assert "takes no more entries" in response.content.decode()


def test_the_sheet_offers_the_form_to_admins_only(seated_world, seated_client, admin):
    pulka = seated_world.pulka

    assert f'href="{manual_url(pulka)}"' in sheet_html(seated_client("ada"), pulka)
    assert f'href="{manual_url(pulka)}"' not in sheet_html(seated_client("anna"), pulka)


# --- the sheet and the protocol show the reason -----------------------------------------


def test_the_protocol_and_the_drawn_sheet_show_the_reason(seated_world, seated_client, admin):
    pulka = written(seated_world, LINE)
    seated_record(pulka, ALLPASS, seated_world.users["anna"])
    put_pencil_down(pulka)

    html = sheet_html(seated_client("anna"), pulka)
    protocol = region(html, "protocol")

    assert "Written by hand: Showed a card" in protocol
    assert "Anna: 6 into the gora" in protocol
    assert "✎" in protocol
    # The deal's own buttons are not offered on a line written by hand.
    assert correct_url(pulka, 1) not in protocol and correct_url(pulka, 2) in protocol
    notes = region(html, "sheet")
    assert "Showed a card" in notes and "Anna: 6 into the gora" in notes


def test_the_players_correction_of_a_manual_line_is_refused(seated_world, seated_client, admin):
    pulka = written(seated_world, LINE)
    seated_record(pulka, ALLPASS, seated_world.users["anna"])

    response = seated_client("anna").get(correct_url(pulka, 1), headers=EN)

    assert response.status_code == 403
    assert not Correction.objects.exists()


def test_the_sheet_page_queries_do_not_grow_with_the_manual_lines(
    seated_world, seated_client, admin
):
    pulka = written(seated_world, LINE)
    client = seated_client("ada")
    url = reverse("games:sheet", args=[pulka.pk])
    client.get(url)  # warm the caches of one-off lookups
    cache.clear()  # both measured pages render every region (nothing from the render cache)
    with CaptureQueriesContext(connection) as one:
        client.get(url, {"protocol": "all"})
    written(seated_world, *[{**LINE, "points": n} for n in range(1, 8)])
    cache.clear()
    with CaptureQueriesContext(connection) as eight:
        client.get(url, {"protocol": "all"})

    assert len(eight) == len(one)


# --- correcting a line ----------------------------------------------------------------


def test_an_admin_corrects_a_line_as_an_arbiter_without_penalty(seated_world, seated_client, admin):
    pulka = written(seated_world, LINE)
    client = seated_client("ada")

    page = client.get(manual_correct_url(pulka, 1), headers=EN).content.decode()
    response = client.post(
        manual_correct_url(pulka, 1), form(1, points="10", reason="Showed two cards"), headers=EN
    )

    assert 'value="6"' in page and 'value="Showed a card"' in page
    assert response.status_code == 302
    correction = Correction.objects.get(pulka=pulka)
    assert correction.kind == Correction.Kind.ARBITER and not correction.penalise
    assert correction.reason == "Showed two cards"
    assert score(pulka).state.gora == (10, 0, 0)
    assert AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.ARBITER).count() == 1
    assert "Showed two cards" in region(sheet_html(seated_client("anna"), pulka), "protocol")


def test_a_correction_that_changes_nothing_is_refused(seated_world, seated_client, admin):
    pulka = written(seated_world, LINE)

    response = seated_client("ada").post(manual_correct_url(pulka, 1), form(1), headers=HTMX)

    assert response.status_code == 409
    assert not Correction.objects.exists()


def test_only_manual_lines_and_only_admins_are_corrected_here(seated_world, seated_client, admin):
    pulka = written(seated_world, LINE)
    seated_record(pulka, ALLPASS, seated_world.users["anna"])

    assert seated_client("ada").get(manual_correct_url(pulka, 2)).status_code == 404
    assert seated_client("ada").get(manual_correct_url(pulka, 3)).status_code == 404
    assert seated_client("anna").get(manual_correct_url(pulka, 1)).status_code == 403
    post = seated_client("anna").post(manual_correct_url(pulka, 1), form(1, points="9"))
    assert post.status_code == 403
    assert seated_client("ada").put(manual_correct_url(pulka, 1)).status_code == 405
    no_token = seated_client("ada", csrf=True).post(manual_correct_url(pulka, 1), form(1))
    assert no_token.status_code == 403
    assert not Correction.objects.exists()


def test_the_export_round_trips_the_manual_line(seated_world, seated_client, admin):
    from scoring.engine.protocol import loads

    pulka = written(seated_world, LINE)
    seated_record(pulka, ALLPASS, seated_world.users["anna"])

    exported = seated_client("anna").get(reverse("games:export", args=[pulka.pk]))
    again = loads(exported.content.decode())

    assert exported.status_code == 200
    assert '"manual"' in exported.content.decode()
    from scoring.engine.pulka import score_pulka

    assert score_pulka(again).state == score(pulka).state  # type: ignore[arg-type]


def test_the_audit_trail_lists_the_line_and_its_correction(seated_world, seated_client, admin):
    pulka = written(seated_world, LINE)
    seated_client("ada").post(manual_correct_url(pulka, 1), form(1, points="9"), headers=EN)

    page = seated_client("anna").get(reverse("games:audit", args=[pulka.pk]), headers=EN)

    trail = region(page.content.decode(), "trail")
    assert page.status_code == 200
    assert "Showed a card" in trail and "ada" in trail


def test_the_pencil_of_a_manual_line_undoes_it_but_offers_no_deal_form(
    seated_world, seated_client, admin
):
    pulka = written(seated_world, LINE)
    client = seated_client("ada")

    changing = client.get(reverse("games:sheet", args=[pulka.pk]), {"change": "1"}, headers=EN)
    protocol = region(sheet_html(client, pulka), "protocol")
    undone = client.post(
        reverse("games:pencil", args=[pulka.pk, 1]), {"action": "undo"}, headers=EN
    )

    assert changing.status_code == 200
    assert "?change=1" not in protocol
    assert undone.status_code == 302
    assert not pulka.deals.current().exists()
