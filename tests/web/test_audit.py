"""The audit trail of a pulka (games:audit): every event in order, who and when, and the
withdrawn deal rows; nothing is ever deleted."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.games.corrections import answer_forgotten, correct_deal, propose_forgotten
from prefscore.games.models import ForgottenDeal, Pulka
from prefscore.games.services import pencil_change
from tests.web.fixtures_corrections import ALLPASS, RIGHT, WRONG, put_pencil_down, seated_record
from tests.web.fixtures_table import EN, HTMX, region
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db

VERA_WRONG = {"contract": "6S", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "whist"},
              "tricks": {"Vera": 6, "Boris": 4, "Anna": 0}}  # fmt: skip
VERA_RIGHT = {**VERA_WRONG, "tricks": {"Vera": 7, "Boris": 3, "Anna": 0}}


def audit_url(pulka: Pulka) -> str:
    return reverse("games:audit", args=[pulka.pk])


def page(client, pulka: Pulka, **headers: str) -> str:
    response = client.get(audit_url(pulka), headers={**EN, **headers})
    assert response.status_code == 200
    return response.content.decode()


def a_whole_evening(world) -> Pulka:
    """Every kind of event: record, pencil change and undo, corrections with a warning and
    a penalty, a forgotten deal refused, one added, one lapsed, an arbiter's decision, the end."""
    pulka, users = world.pulka, world.users
    seated_record(pulka, ALLPASS, users["anna"])
    pencil_change(pulka.pk, users["anna"], 1, None)  # undo
    seated_record(pulka, WRONG, users["anna"])
    pencil_change(pulka.pk, users["anna"], 1, {**WRONG, "contract": "6H"})  # change
    pencil_change(pulka.pk, users["anna"], 1, WRONG)
    put_pencil_down(pulka)
    correct_deal(pulka.pk, users["vera"], 1, RIGHT)  # Boris warned
    seated_record(pulka, VERA_WRONG, users["vera"])
    correct_deal(pulka.pk, users["anna"], 2, VERA_RIGHT)  # Boris penalised
    refused = propose_forgotten(pulka.pk, users["boris"], ALLPASS)
    answer_forgotten(refused.pk, users["vera"], 2, False)
    added = propose_forgotten(pulka.pk, users["boris"], ALLPASS)
    answer_forgotten(added.pk, users["anna"], 0, True)
    answer_forgotten(added.pk, users["vera"], 2, True)
    propose_forgotten(pulka.pk, users["anna"], ALLPASS)
    seated_record(pulka, ALLPASS, users["boris"])  # lapses it
    Pulka.objects.filter(pk=pulka.pk).update(tournament=make_tournament(world.club), round_number=1)
    correct_deal(
        pulka.pk, users["oksana"], 3, {**ALLPASS, "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}},
        arbiter_reason="Judges' panel <b>3</b>", arbiter_penalty=False,
    )  # fmt: skip
    for name in ("Anna", "Boris", "Vera"):
        others = [n for n in ("Anna", "Boris", "Vera") if n != name]
        seated_record(pulka, {"contract": "10", "declarer": name,
                              "whists": dict.fromkeys(others, "pass")}, users["anna"])  # fmt: skip
    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.FINISHED
    return pulka


def test_the_audit_trail_lists_every_event_in_order_with_who_and_a_sentence(
    seated_world, seated_client
):
    pulka = a_whole_evening(seated_world)

    html = page(seated_client("gleb"), pulka)  # any member of the club, seated or not

    events = region(html, "trail").split('<section aria-labelledby="withdrawn-heading">')[0]
    sentences = [
        "Recorded deal 1: all-pass · tricks: Anna 3, Boris 3, Vera 4.",
        "Undid deal 1 under the pencil rule (Кодекс 4.2.8): all-pass",
        "Changed deal 1 under the pencil rule (Кодекс 4.2.8): 6♥ Anna",
        "Corrected deal 1 (Кодекс 4.2.7): 6♠ Anna · Boris whist, Vera pass · tricks: Anna 7",
        "Warning to Boris for deal 1: his first correction (Кодекс 4.2.7).",
        "Penalty for deal 2 (Кодекс 4.2.7): Vera → Boris: 2 whists.",
        "Penalty for deal 2 (Кодекс 4.2.7): Boris: 2 into the gora.",
        "Proposed a forgotten deal, to be deal 3 (Кодекс 4.2.10): all-pass",
        "Boris agreed to the forgotten deal 3.",
        "Vera refused the forgotten deal 3: it is dropped.",
        "Anna agreed to the forgotten deal 3.",
        "Everyone agreed: the forgotten deal was added as deal 3.",
        "The forgotten deal 4 lapsed: the next deal was recorded first (Кодекс 4.2.10).",
        "Arbiter&#x27;s decision on deal 3, without penalty (Кодекс 4.2.16)",
        "Reason: Judges&#x27; panel &lt;b&gt;3&lt;/b&gt;",
        "Every pulya is closed: the pulka is over and takes no more deals.",
    ]
    positions = [events.find(s) for s in sentences]
    assert -1 not in positions, [s for s, p in zip(sentences, positions, strict=True) if p < 0]
    assert positions == sorted(positions)
    assert re.search(r'<time datetime="[^"]+">', events)
    assert '<span class="audit__who">oksana</span>' in events
    assert "<b>3</b>" not in html


def test_the_withdrawn_deal_rows_stay_listed(seated_world, seated_client):
    pulka = a_whole_evening(seated_world)

    html = page(seated_client("anna"), pulka)

    withdrawn = html.split('<section aria-labelledby="withdrawn-heading">')[1]
    assert withdrawn.count("<li>") == 3  # the undone all-pass, the 6♥ and the 6♠ changed
    assert "Deal 1: all-pass · tricks: Anna 3, Boris 3, Vera 4" in withdrawn
    assert "Deal 1: 6♥ Anna" in withdrawn
    assert re.search(r"Recorded by anna at [^;]+; withdrawn by anna at", withdrawn)


def test_the_sheet_page_links_to_the_audit_trail(seated_world, seated_client):
    html = seated_client("anna").get(reverse("games:sheet", args=[seated_world.pulka.pk]))

    assert f'href="{audit_url(seated_world.pulka)}"' in region(html.content.decode(), "status")


def test_an_empty_trail_says_so(seated_world, seated_client):
    html = page(seated_client("anna"), seated_world.pulka)

    assert "Nothing has happened to this sheet yet." in html
    assert "No deal has been changed or undone." in html


def test_with_htmx_the_audit_page_is_only_its_region(seated_world, seated_client):
    seated_record(seated_world.pulka, ALLPASS, seated_world.users["anna"])

    html = page(seated_client("anna"), seated_world.pulka, **HTMX)

    assert "<html" not in html and 'id="trail"' in html
    assert "Recorded deal 1" in html


def test_an_outsider_is_refused_an_unknown_pulka_not_found_and_anonymous_sent_to_sign_in(
    seated_world, seated_client
):
    pulka = seated_world.pulka

    for headers in ({}, HTMX):
        assert seated_client("olaf").get(audit_url(pulka), headers=headers).status_code == 403
        anonymous = seated_client("anonymous").get(audit_url(pulka), headers=headers)
        assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert seated_client("anna").get(reverse("games:audit", args=[999999])).status_code == 404


def test_the_audit_page_answers_405_to_a_post_and_checks_csrf_first(seated_world, seated_client):
    pulka = seated_world.pulka

    assert seated_client("anna").post(audit_url(pulka)).status_code == 405
    assert seated_client("anna", csrf=True).post(audit_url(pulka)).status_code == 403


def test_the_audit_page_speaks_russian_by_default(seated_world, seated_client):
    seated_record(seated_world.pulka, ALLPASS, seated_world.users["anna"])

    html = seated_client("anna").get(audit_url(seated_world.pulka)).content.decode()

    assert "Журнал событий" in html and "Запись сдачи 1" in html


def test_the_audit_page_costs_the_same_whatever_the_number_of_events(
    seated_world, seated_client, make_seated_pulka
):
    short = seated_world.pulka
    seated_record(short, ALLPASS, seated_world.users["anna"])
    long = make_seated_pulka(("Anna", "Boris", "Vera"))
    users = seated_world.users
    for round_ in range(8):
        seated_record(long, ALLPASS, users["anna"])
        pencil_change(long.pk, users["anna"], round_ + 1, None)
        seated_record(long, ALLPASS, users["anna"])
        put_pencil_down(long)
        correct_deal(
            long.pk,
            users["vera"],
            round_ + 1,
            {**ALLPASS, "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}},
        )
        proposal = propose_forgotten(long.pk, users["boris"], ALLPASS)
        answer_forgotten(proposal.pk, users["vera"], 2, False)
    assert ForgottenDeal.objects.filter(pulka=long).count() == 8
    client = seated_client("anna")

    counts = []
    for pulka in (short, long):
        with CaptureQueriesContext(connection) as queries:
            page(client, pulka)
        counts.append(len(queries))

    assert counts[0] == counts[1], counts
