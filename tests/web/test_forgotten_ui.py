"""A forgotten deal (Кодекс 4.2.10): proposed from the sheet (games:propose), a banner on
every device at the table through the poll, answered by each player (games:answer)."""

import re

import pytest
from django.urls import reverse

from prefscore.games.models import AuditEvent, Consent, Deal, ForgottenDeal, Pulka
from tests.web.fixtures_corrections import ALLPASS, RIGHT, correction_form, seated_record
from tests.web.fixtures_table import EN, HTMX, region

pytestmark = pytest.mark.django_db


def propose_url(pulka: Pulka) -> str:
    return reverse("games:propose", args=[pulka.pk])


def answer_url(pulka: Pulka, proposal: ForgottenDeal) -> str:
    return reverse("games:answer", args=[pulka.pk, proposal.pk])


def sheet(client, pulka: Pulka, query: str = "", **headers: str) -> str:
    url = reverse("games:sheet", args=[pulka.pk]) + query
    response = client.get(url, headers={**EN, **headers})
    assert response.status_code == 200
    return response.content.decode()


def propose(client, pulka: Pulka, facts=ALLPASS, number: int = 1, htmx: bool = False, names=None):
    form = correction_form(facts, number, *(names and [names] or []))
    return client.post(propose_url(pulka), form, headers=HTMX if htmx else EN)


def answer(client, pulka: Pulka, proposal: ForgottenDeal, seat: int, agree: bool, htmx=False):
    data = {"seat": str(seat), "answer": "agree" if agree else "refuse"}
    return client.post(answer_url(pulka, proposal), data, headers=HTMX if htmx else EN)


def version(pulka: Pulka) -> int:
    pulka.refresh_from_db()
    return pulka.version


# --- proposing ---------------------------------------------------------------------------


def test_a_player_at_the_table_is_offered_to_add_a_forgotten_deal(seated_world, seated_client):
    pulka = seated_world.pulka

    mine = region(sheet(seated_client("anna"), pulka), "entry")
    gleb = region(sheet(seated_client("gleb"), pulka), "entry")

    assert "Add a forgotten deal" in mine and "?propose=1" in mine
    assert "Add a forgotten deal" not in gleb


def test_the_form_in_proposal_mode_posts_to_the_proposal(seated_world, seated_client):
    pulka = seated_world.pulka

    entry = region(sheet(seated_client("anna"), pulka, "?propose=1"), "entry")
    gleb = region(sheet(seated_client("gleb"), pulka, "?propose=1"), "entry")

    assert "Forgotten deal, to be deal 1" in entry
    assert f'action="{propose_url(pulka)}"' in entry and "Propose to the table" in entry
    assert "Кодекс 4.2.10" in entry
    assert f'action="{reverse("games:record", args=[pulka.pk])}"' in gleb  # not at the table


def test_without_javascript_a_proposal_posts_and_redirects(seated_world, seated_client):
    pulka = seated_world.pulka
    before = version(pulka)

    response = propose(seated_client("boris"), pulka)

    assert response.status_code == 302
    proposal = ForgottenDeal.objects.get()
    assert proposal.status == ForgottenDeal.Status.PENDING and proposal.number == 1
    assert list(Consent.objects.values_list("player__name", "agreed")) == [("Boris", True)]
    assert version(pulka) == before + 1  # every device's poll sees the proposal
    assert not Deal.objects.exists()


def test_with_htmx_a_proposal_swaps_the_banner_in(seated_world, seated_client):
    response = propose(seated_client("boris"), seated_world.pulka, htmx=True)

    html = response.content.decode()
    assert response.status_code == 200
    banner = region(html, "forgotten")
    assert "boris proposes a forgotten deal, to be deal 1 (Кодекс 4.2.10)" in banner
    assert "Boris: agreed" in banner and "Anna: waiting" in banner and "Vera: waiting" in banner
    assert "<form" not in banner  # Boris has answered for his own seat


def test_a_wrong_proposal_is_shown_beside_the_field_and_nothing_is_saved(
    seated_world, seated_client
):
    bad = {**ALLPASS, "tricks": {"Anna": 3, "Boris": 3, "Vera": 3}}

    for htmx, status in ((False, 200), (True, 422)):
        response = propose(seated_client("boris"), seated_world.pulka, bad, htmx=htmx)
        html = response.content.decode()
        assert response.status_code == status
        assert "The tricks add up to 9; they must add up to 10." in region(
            html, "entry-tricks-errors"
        )
        assert "Forgotten deal, to be deal 1" in region(html, "entry")
    assert not ForgottenDeal.objects.exists()


def test_a_second_proposal_waits_for_the_first(seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)

    response = propose(seated_client("anna"), pulka)
    entry = region(sheet(seated_client("anna"), pulka), "entry")

    assert response.status_code == 409
    assert "already waiting for the table" in response.content.decode()
    assert ForgottenDeal.objects.count() == 1
    assert "Add a forgotten deal" not in entry


@pytest.mark.parametrize("who", ["gleb", "oksana", "olaf"])
def test_someone_not_at_the_table_cannot_propose(who, seated_world, seated_client):
    for htmx in (False, True):
        response = propose(seated_client(who), seated_world.pulka, htmx=htmx)
        assert response.status_code == 403
    assert not ForgottenDeal.objects.exists()


def test_propose_answers_405_to_a_get_and_refuses_without_the_csrf_token(
    seated_world, seated_client
):
    pulka = seated_world.pulka

    assert seated_client("anna").get(propose_url(pulka)).status_code == 405
    csrf = seated_client("anna", csrf=True).post(propose_url(pulka), correction_form(ALLPASS, 1))
    assert csrf.status_code == 403
    assert seated_client("anna").post(reverse("games:propose", args=[999999])).status_code == 404
    anonymous = seated_client("anonymous").post(propose_url(pulka), correction_form(ALLPASS, 1))
    assert anonymous.status_code == 302
    assert not ForgottenDeal.objects.exists()


# --- the banner on every device -------------------------------------------------------------


def test_every_player_at_the_table_sees_the_banner_with_buttons_for_his_own_seat(
    seated_world, seated_client
):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)
    proposal = ForgottenDeal.objects.get()

    anna = region(sheet(seated_client("anna"), pulka), "forgotten")
    gleb = region(sheet(seated_client("gleb"), pulka), "forgotten")

    assert "all-pass · tricks: Anna 3, Boris 3, Vera 4" in anna
    # What it would write: the fewest tricks (3) are amnestied (Sochi).
    assert "Vera: 1 into the gora for tricks on the all-pass" in anna
    assert f'action="{answer_url(pulka, proposal)}"' in anna
    assert '<input type="hidden" name="seat" value="0">' in anna
    assert 'name="answer" value="agree"' in anna and 'name="answer" value="refuse"' in anna
    assert anna.count("<form") == 1
    assert "on behalf of" not in anna
    assert "boris proposes a forgotten deal" in gleb and "<form" not in gleb  # not at the table


def test_the_poll_brings_the_proposal_and_each_answer_to_the_other_devices(
    seated_world, seated_client
):
    pulka = seated_world.pulka
    vera = seated_client("vera")
    shown = version(pulka)
    propose(seated_client("boris"), pulka)

    poll = reverse("games:poll", args=[pulka.pk])
    first = vera.get(f"{poll}?v={shown}", headers=HTMX)
    answer(seated_client("anna"), pulka, ForgottenDeal.objects.get(), 0, True)
    second = vera.get(f"{poll}?v={version(pulka) - 1}", headers=HTMX)
    unchanged = vera.get(f"{poll}?v={version(pulka)}", headers=HTMX)

    assert first.status_code == 200
    assert "Agree" in region(first.content.decode(), "forgotten")
    assert "Anna: agreed" in region(second.content.decode(), "forgotten")
    assert unchanged.status_code == 304


def test_when_everyone_agrees_the_deal_is_added_and_the_sheet_updates(seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)
    proposal = ForgottenDeal.objects.get()

    first = answer(seated_client("anna"), pulka, proposal, 0, True)
    last = answer(seated_client("vera"), pulka, proposal, 2, True, htmx=True)

    assert first.status_code == 302
    html = last.content.decode()
    assert last.status_code == 200
    assert "Everyone agreed: the forgotten deal is now deal 1." in region(html, "forgotten")
    assert "<title>Vera: gora: 1</title>" in region(html, "sheet")
    assert '<span class="protocol__notation">P</span>' in region(html, "protocol")
    assert "Deal 2" in region(html, "entry")
    proposal.refresh_from_db()
    assert proposal.status == ForgottenDeal.Status.ADDED
    assert Deal.objects.get(pulka=pulka).facts == ALLPASS


def test_one_refusal_drops_the_deal_and_the_banner_says_so(seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)
    proposal = ForgottenDeal.objects.get()
    before = version(pulka)

    response = answer(seated_client("vera"), pulka, proposal, 2, False, htmx=True)
    late = answer(seated_client("anna"), pulka, proposal, 0, True)

    banner = region(response.content.decode(), "forgotten")
    assert "Vera refused: the forgotten deal is dropped (Кодекс 4.2.10)." in banner
    assert "<form" not in banner
    assert version(pulka) == before + 1
    proposal.refresh_from_db()
    assert proposal.status == ForgottenDeal.Status.REFUSED
    assert late.status_code == 409
    assert "no longer waiting for answers" in late.content.decode()
    assert not Deal.objects.exists()
    assert "Add a forgotten deal" in region(sheet(seated_client("anna"), pulka), "entry")


def test_recording_the_next_deal_lapses_the_proposal(seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)

    seated_client("anna").post(
        reverse("games:record", args=[pulka.pk]), correction_form(RIGHT, 1), headers=EN
    )
    banner = region(sheet(seated_client("vera"), pulka), "forgotten")

    assert ForgottenDeal.objects.get().status == ForgottenDeal.Status.LAPSED
    assert "lapsed: the next deal was recorded before everyone agreed" in banner
    assert "<form" not in banner
    seated_record(pulka, ALLPASS, seated_world.users["boris"])
    assert "lapsed" not in region(sheet(seated_client("vera"), pulka), "forgotten")


def test_a_seated_member_answers_for_a_guest_on_his_behalf(
    seated_world, seated_client, make_seated_pulka
):
    names = ("Anna", "Boris", "Gosha")
    pulka = make_seated_pulka(names, guests=("Gosha",))
    facts = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Gosha": 4}}
    propose(seated_client("boris"), pulka, facts, names=names)
    proposal = ForgottenDeal.objects.get()

    banner = region(sheet(seated_client("anna"), pulka), "forgotten")
    answer(seated_client("anna"), pulka, proposal, 0, True)
    answer(seated_client("anna"), pulka, proposal, 2, True)

    assert "Agree on behalf of Gosha" in banner and "Refuse on behalf of Gosha" in banner
    assert banner.count("<form") == 2  # her own seat and the guest's
    proposal.refresh_from_db()
    assert proposal.status == ForgottenDeal.Status.ADDED
    trail = seated_client("anna").get(reverse("games:audit", args=[pulka.pk]), headers=EN)
    assert "Agreed to the forgotten deal 1 on behalf of Gosha, a guest." in trail.content.decode()


@pytest.mark.parametrize("who", ["gleb", "olaf"])
def test_someone_not_at_the_table_cannot_answer(who, seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)
    proposal = ForgottenDeal.objects.get()

    response = answer(seated_client(who), pulka, proposal, 0, True)

    assert response.status_code == 403
    assert Consent.objects.count() == 1


def test_a_player_answers_only_for_his_own_seat(seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)

    response = answer(seated_client("anna"), pulka, ForgottenDeal.objects.get(), 2, True, True)

    assert response.status_code == 409
    assert "Each player answers for himself" in response.content.decode()
    assert Consent.objects.count() == 1


def test_answer_refuses_unknown_proposals_other_methods_and_bad_input(
    seated_world, seated_client, make_seated_pulka
):
    pulka = seated_world.pulka
    other = make_seated_pulka(("Anna", "Boris", "Gosha"), guests=("Gosha",))
    propose(seated_client("boris"), pulka)
    proposal = ForgottenDeal.objects.get()
    client = seated_client("anna")

    assert (
        client.post(answer_url(other, proposal), {"seat": "0", "answer": "agree"}).status_code
        == 404
    )
    assert client.post(reverse("games:answer", args=[pulka.pk, 999999])).status_code == 404
    assert client.get(answer_url(pulka, proposal)).status_code == 405
    assert (
        client.post(answer_url(pulka, proposal), {"seat": "0", "answer": "maybe"}).status_code
        == 400
    )
    assert (
        client.post(answer_url(pulka, proposal), {"seat": "x", "answer": "agree"}).status_code
        == 400
    )
    csrf = seated_client("anna", csrf=True).post(
        answer_url(pulka, proposal), {"seat": "0", "answer": "agree"}
    )
    assert csrf.status_code == 403
    assert Consent.objects.count() == 1


def test_every_step_is_in_the_audit_trail(seated_world, seated_client):
    pulka = seated_world.pulka
    propose(seated_client("boris"), pulka)
    answer(seated_client("vera"), pulka, ForgottenDeal.objects.get(), 2, False)

    actions = list(AuditEvent.objects.values_list("action", "user__username"))

    assert actions == [("proposed", "boris"), ("consented", "boris"), ("refused", "vera")]


def test_hostile_names_in_the_banner_are_escaped(seated_world, seated_client, make_seated_pulka):
    names = ("Anna", "Boris", "<script>alert(1)</script>")
    pulka = make_seated_pulka(names, guests=(names[2],))
    facts = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, names[2]: 4}}
    propose(seated_client("boris"), pulka, facts, names=names)

    html = sheet(seated_client("anna"), pulka)

    assert "<script>alert(1)</script>" not in html
    assert re.search(
        r"Agree on behalf of \u2068&lt;script&gt;alert\(1\)&lt;/script&gt;\u2069", html
    )
