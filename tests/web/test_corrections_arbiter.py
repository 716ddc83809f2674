"""An arbiter's decision (Кодекс 4.2.16): games:arbiter and what the sheet shows after;
and the pulka file that carries the corrections."""

import pytest
from django.urls import reverse

from prefscore.games.models import AuditEvent, Correction, Pulka
from prefscore.games.services import score
from tests.web.fixtures_corrections import (
    ALLPASS,
    RIGHT,
    VERA_RIGHT,
    VERA_WRONG,
    WRONG,
    arbiter_url,
    correct_url,
    correction_form,
    post,
    recorded,
    sheet,
)
from tests.web.fixtures_table import EN, HTMX, region
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db


# --- the arbiter (4.2.16) ---------------------------------------------------------------------


def in_tournament(world) -> Pulka:
    Pulka.objects.filter(pk=world.pulka.pk).update(
        tournament=make_tournament(world.club), round_number=1
    )
    world.pulka.refresh_from_db()
    return world.pulka


def test_an_organiser_sees_the_arbiters_decision_only_in_a_tournament_pulka(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    before = region(sheet(seated_client("oksana"), pulka), "protocol")
    in_tournament(seated_world)

    after = region(sheet(seated_client("oksana"), pulka), "protocol")
    player = region(sheet(seated_client("vera"), pulka), "protocol")

    assert arbiter_url(pulka, 1) not in before
    assert f'href="{arbiter_url(pulka, 1)}"' in after and f'href="{arbiter_url(pulka, 2)}"' in after
    assert arbiter_url(pulka, 1) not in player
    assert seated_client("vera").get(arbiter_url(pulka, 1)).status_code == 403


def test_the_arbiters_view_refuses_unknown_deals_other_methods_and_no_token(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)
    oksana = seated_client("oksana")

    assert oksana.get(arbiter_url(pulka, 3)).status_code == 404
    assert oksana.get(reverse("games:arbiter", args=[999999, 1]), headers=HTMX).status_code == 404
    assert oksana.put(arbiter_url(pulka, 1)).status_code == 405
    form = correction_form(RIGHT, 1, reason="Judges")
    assert seated_client("oksana", csrf=True).post(arbiter_url(pulka, 1), form).status_code == 403
    assert seated_client("olaf").post(arbiter_url(pulka, 1), form, headers=HTMX).status_code == 403
    assert not Correction.objects.exists()


def test_an_arbiters_decision_needs_a_reason(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)

    response = post(seated_client("oksana"), arbiter_url(pulka, 1), correction_form(RIGHT, 1), True)

    assert response.status_code == 422
    assert "State the reason for the arbiter" in region(
        response.content.decode(), "entry-reason-errors"
    )
    assert not Correction.objects.exists()


def test_an_arbiters_decision_with_the_penalty_is_applied_and_explained(
    seated_world, seated_client
):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)
    form = region(
        seated_client("oksana").get(arbiter_url(pulka, 1), headers=EN).content.decode(), "entry"
    )

    response = post(
        seated_client("oksana"),
        arbiter_url(pulka, 1),
        correction_form(RIGHT, 1, reason="Judges' panel, table 3", penalty="on"),
    )
    html = sheet(seated_client("vera"), pulka)

    assert 'name="reason"' in form and 'name="penalty"' in form
    assert "Arbiter's decision on deal 1" in form
    assert response.status_code == 302
    correction = Correction.objects.get()
    assert correction.kind == Correction.Kind.ARBITER and correction.penalise
    assert correction.reason == "Judges' panel, table 3"
    protocol = region(html, "protocol")
    assert "Arbiter&#x27;s decision on deal 1 (Кодекс 4.2.16)" in protocol
    # The reason is what a person typed: isolated from the sentence around it.
    assert "Reason: \u2068Judges&#x27; panel, table 3\u2069" in protocol
    assert "Warning, Кодекс 4.2.7: Boris (first correction)" in protocol


def test_an_arbiters_decision_without_penalty_warns_nobody(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)

    post(seated_client("oksana"), arbiter_url(pulka, 1), correction_form(RIGHT, 1, reason="Video"))

    correction = Correction.objects.get()
    assert not correction.penalise
    protocol = region(sheet(seated_client("vera"), pulka), "protocol")
    assert "without penalty (Кодекс 4.2.16)" in protocol and "Warning" not in protocol
    assert AuditEvent.objects.filter(action=AuditEvent.Action.ARBITER).count() == 1


def test_hostile_text_in_a_reason_is_escaped(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG, ALLPASS)
    in_tournament(seated_world)

    post(
        seated_client("oksana"),
        arbiter_url(pulka, 1),
        correction_form(RIGHT, 1, reason="<script>alert(1)</script> مرحبا 🂡"),
    )
    html = sheet(seated_client("vera"), pulka)

    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; مرحبا 🂡" in html


def test_the_correction_page_speaks_russian_by_default(seated_world, seated_client):
    pulka = recorded(seated_world, WRONG)

    html = seated_client("vera").get(correct_url(pulka, 1)).content.decode()

    assert "Исправить сдачу 1" in html


# --- the pulka file carries the corrections (docs/protocol.md ``correct`` items) --------------------


def test_an_exported_pulka_imports_again_with_the_same_sheet_penalties_and_warnings(
    seated_world, seated_client
):
    import json

    from prefscore.games.presenters import paper_of

    pulka = recorded(seated_world, WRONG)
    post(seated_client("vera"), correct_url(pulka, 1), correction_form(RIGHT, 1))  # warning
    recorded(seated_world, VERA_WRONG, by="vera")
    post(seated_client("anna"), correct_url(pulka, 2), correction_form(VERA_RIGHT, 2))  # penalty
    recorded(seated_world, WRONG, ALLPASS, by="boris")
    post(seated_client("boris"), correct_url(pulka, 3), correction_form(RIGHT, 3))  # voluntary
    client = seated_client("anna")

    exported = json.loads(client.get(reverse("games:export", args=[pulka.pk])).content)
    response = client.post(
        reverse("games:import", args=[seated_world.club.slug]), {"text": json.dumps(exported)}
    )
    again = Pulka.objects.exclude(pk=pulka.pk).get()

    assert response.status_code == 302
    corrections = [item for item in exported["deals"] if "correct" in item]
    assert [item["correct"] for item in corrections] == [1, 2, 3]
    assert corrections[2]["penalty"] is False
    assert [i for i, item in enumerate(exported["deals"]) if "correct" in item] == [1, 3, 6]
    stored = list(
        Correction.objects.filter(pulka=again).values_list("deal_number", "after_deal", "penalise")
    )
    assert stored == [(1, 1, True), (2, 2, True), (3, 4, False)]
    first, second = score(pulka), score(again)
    assert second.totals == first.totals
    assert second.corrections == first.corrections  # the same warnings and penalties
    assert paper_of(second).players == paper_of(first).players  # struck figures and all
    old = region(sheet(client, pulka), "sheet")
    new = region(sheet(client, again), "sheet")
    assert new == old
