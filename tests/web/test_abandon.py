"""Abandoning a pulka started by mistake.

A club admin abandons at once; the players at the table together, each seat agreeing
on its own sign-in (a seated member for an account-less guest). The pulka is then
archived, frozen and listed apart; recording the next deal keeps it.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from prefscore.clubs.models import Membership, Role
from prefscore.games.models import Abandonment, AuditEvent, Pulka
from tests.web.fixtures_corrections import ALLPASS, SEATED_PASSWORD, seated_record
from tests.web.fixtures_table import EN, HTMX
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db


def abandon_url(pulka: Pulka) -> str:
    return reverse("games:abandon", args=[pulka.pk])


def answer_url(pulka: Pulka, found: Abandonment) -> str:
    return reverse("games:abandon_answer", args=[pulka.pk, found.pk])


def answer(client, pulka, seat: int, choice: str = "agree", **headers):
    found = Abandonment.objects.get(pulka=pulka, status=Abandonment.Status.PENDING)
    data = {"seat": str(seat), "answer": choice}
    return client.post(answer_url(pulka, found), data, headers={**EN, **headers})


@pytest.fixture
def admin_client(seated_world, client):
    user = get_user_model().objects.create_user("ada", password=SEATED_PASSWORD)
    Membership.objects.create(club=seated_world.club, user=user, role=Role.ADMIN)
    client.force_login(user)
    return client


def test_a_club_admin_abandons_at_once_and_the_pulka_is_frozen(seated_world, admin_client):
    pulka = seated_world.pulka

    response = admin_client.post(abandon_url(pulka), {"reason": "started twice"}, headers=EN)

    pulka.refresh_from_db()
    assert response.status_code == 302
    assert pulka.status == Pulka.Status.ARCHIVED
    event = pulka.audit_events.get(action=AuditEvent.Action.ABANDONED)
    assert event.details == {"reason": "started twice", "by": "admin"}
    html = admin_client.get(reverse("games:sheet", args=[pulka.pk]), headers=EN).content.decode()
    assert "archived and its sheet is frozen for good" in html
    assert 'name="contract"' not in html  # no entry form any more
    assert "Abandon this pulka" not in html


def test_an_abandoned_pulka_takes_no_deal(seated_world, admin_client, seated_client):
    pulka = seated_world.pulka
    admin_client.post(abandon_url(pulka), {"reason": ""})

    response = seated_client("anna").post(
        reverse("games:record", args=[pulka.pk]), {"number": "1", "contract": "allpass"}
    )

    assert response.status_code == 403
    assert not pulka.deals.exists()


def test_the_table_abandons_it_when_every_seat_agrees(seated_world, seated_client):
    pulka = seated_world.pulka
    anna, boris, vera = (seated_client(n) for n in ("anna", "boris", "vera"))

    assert anna.post(abandon_url(pulka), {"reason": "wrong convention"}).status_code == 302
    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.RUNNING  # Anna agreed; Boris and Vera have not
    sheet = boris.get(reverse("games:sheet", args=[pulka.pk]), headers=EN).content.decode()
    assert "Abandon this pulka? Proposed by anna" in sheet and "Anna: agrees" in sheet
    assert "Boris: waiting" in sheet

    assert answer(boris, pulka, 1).status_code == 302
    assert answer(vera, pulka, 2, **HTMX).status_code == 200

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.ARCHIVED
    trail = list(pulka.audit_events.values_list("action", flat=True))
    assert trail.count(AuditEvent.Action.ABANDON_ANSWER) == 3
    assert pulka.audit_events.get(action=AuditEvent.Action.ABANDONED).details["by"] == "table"


def test_one_refusal_keeps_the_pulka(seated_world, seated_client):
    pulka = seated_world.pulka
    seated_client("anna").post(abandon_url(pulka), {"reason": ""})

    answer(seated_client("boris"), pulka, 1, "refuse")

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.RUNNING
    assert Abandonment.objects.get().status == Abandonment.Status.KEPT


def test_each_player_answers_only_for_his_own_seat(seated_world, seated_client):
    pulka = seated_world.pulka
    seated_client("anna").post(abandon_url(pulka), {"reason": ""})

    response = answer(seated_client("boris"), pulka, 2)  # Vera's seat

    assert response.status_code == 409
    assert "Each player answers for himself" in response.content.decode()
    assert Abandonment.objects.get().consents.count() == 1


def test_a_seated_member_answers_for_a_guest_and_the_trail_says_so(
    seated_world, seated_client, make_seated_pulka
):
    pulka = make_seated_pulka(("Anna", "Boris", "Gosha"), guests=("Gosha",))
    anna = seated_client("anna")
    anna.post(abandon_url(pulka), {"reason": ""})
    answer(anna, pulka, 2)  # for Gosha, a guest
    answer(seated_client("boris"), pulka, 1)

    pulka.refresh_from_db()
    assert pulka.status == Pulka.Status.ARCHIVED
    page = anna.get(reverse("games:audit", args=[pulka.pk]), headers=EN).content.decode()
    assert "Gosha (a guest, answered on the guest&#x27;s behalf): agrees." in page


def test_recording_the_next_deal_lapses_the_proposal(seated_world, seated_client):
    pulka = seated_world.pulka
    seated_client("anna").post(abandon_url(pulka), {"reason": ""})

    seated_record(pulka, ALLPASS, seated_world.users["boris"])

    assert Abandonment.objects.get().status == Abandonment.Status.LAPSED
    assert pulka.audit_events.filter(action=AuditEvent.Action.ABANDON_LAPSED).exists()


@pytest.mark.parametrize("name", ["gleb", "oksana"])
def test_a_member_who_is_not_at_the_table_may_not(seated_world, seated_client, name):
    response = seated_client(name).post(abandon_url(seated_world.pulka), headers=EN)

    assert response.status_code == 403
    assert "Only the players at this table or a club admin" in response.content.decode()
    assert not Abandonment.objects.exists()


def test_an_outsider_gets_403_and_a_missing_pulka_404(seated_world, seated_client):
    assert seated_client("olaf").post(abandon_url(seated_world.pulka)).status_code == 403
    assert seated_client("anna").post("/pulkas/99999/abandon/").status_code == 404


def test_abandoning_is_post_only_and_needs_csrf(seated_world, seated_client):
    url = abandon_url(seated_world.pulka)
    assert seated_client("anna").get(url).status_code == 405
    assert seated_client("anna", csrf=True).post(url).status_code == 403
    assert not Abandonment.objects.exists()


def test_a_second_proposal_while_one_waits_is_409(seated_world, seated_client):
    pulka = seated_world.pulka
    seated_client("anna").post(abandon_url(pulka))

    response = seated_client("boris").post(abandon_url(pulka), headers={**EN, **HTMX})

    assert response.status_code == 409
    assert Abandonment.objects.count() == 1


def test_a_bad_answer_is_400_and_a_long_reason_is_refused(seated_world, seated_client):
    pulka = seated_world.pulka
    anna = seated_client("anna")
    assert anna.post(abandon_url(pulka), {"reason": "x" * 201}).status_code == 400
    anna.post(abandon_url(pulka))
    found = Abandonment.objects.get()
    bad = anna.post(answer_url(pulka, found), {"seat": "²", "answer": "agree"})
    assert bad.status_code == 400


def test_a_tournament_table_is_not_abandoned_here(seated_world, admin_client):
    pulka = seated_world.pulka
    tournament = make_tournament(seated_world.club)
    Pulka.objects.filter(pk=pulka.pk).update(tournament=tournament, round_number=1)

    response = admin_client.post(abandon_url(pulka), headers=EN)

    assert response.status_code == 403
    assert "closed by the tournament" in response.content.decode()


def test_the_club_page_lists_abandoned_pulkas_apart(seated_world, admin_client):
    admin_client.post(abandon_url(seated_world.pulka))

    response = admin_client.get(reverse("clubs:club", args=["friday"]), headers=EN)

    abandoned = [p.pk for p in response.context["abandoned"]]
    assert abandoned == [seated_world.pulka.pk]
    assert seated_world.pulka.pk not in [p.pk for p in response.context["running"]]
    assert "Abandoned pulkas" in response.content.decode()


# --- a finished pulka says one thing ----------------------------------------------------

NINE = {"contract": "9S", "declarer": "Anna", "whists": {"Boris": "pass", "Vera": "pass"}}


def finished_pulka(seated_world) -> Pulka:
    pulka = seated_world.pulka
    Pulka.objects.filter(pk=pulka.pk).update(target=2)
    seated_record(pulka, NINE, seated_world.users["anna"])  # closes every pulya
    assert pulka.status == Pulka.Status.FINISHED
    return pulka


def test_a_finished_pulka_says_it_is_over_and_what_can_still_be_put_right(
    seated_world, seated_client
):
    pulka = finished_pulka(seated_world)
    sheet = reverse("games:sheet", args=[pulka.pk])

    recorder = seated_client("anna").get(sheet, headers=EN).content.decode()
    other = seated_client("boris").get(sheet, headers=EN).content.decode()

    assert "the pulka is over and takes no more deals" in recorder
    assert "you may still change or undo the last deal (Кодекс 4.2.8)" in recorder
    assert "can still be corrected by a player at the table (Кодекс 4.2.7)" in other
    for html in (recorder, other):
        assert "sheet is frozen" not in html  # only an abandoned pulka is frozen


def test_a_finished_pulka_in_russian_does_not_say_frozen(seated_world, seated_client):
    pulka = finished_pulka(seated_world)

    html = seated_client("boris").get(
        reverse("games:sheet", args=[pulka.pk]), headers={"accept-language": "ru"}
    )

    text = html.content.decode()
    assert "пулька окончена, новые сдачи не записываются" in text
    assert "запись заморожена" not in text and "лист заморожен" not in text
