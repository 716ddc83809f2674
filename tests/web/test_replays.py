"""The outbox's entries carried out once (games/replays.py): only an action carried out is
kept, the rows are pruned after a day and bounded per account, a client id is its
account's, and copies of one entry sent at once all answer its success."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from prefscore.games import replays
from prefscore.games.models import AuditEvent, Deal, Pulka, SentEntry
from tests.web.fixtures_table import EN, HTMX, TABLE_PASSWORD, deal_form

ONE = "3f2c8a1e-9b4d-4c6e-8f1a-2b3c4d5e6f70"


def record_url(pulka: Pulka) -> str:
    return reverse("games:record", args=[pulka.pk])


def pencil_url(pulka: Pulka, number: int = 1) -> str:
    return reverse("games:pencil", args=[pulka.pk, number])


@pytest.mark.django_db
def test_three_hundred_invalid_forms_without_htmx_keep_nothing(make_table_pulka, table_client):
    """A form shown again with its mistakes is a 200 page without htmx: not carried out."""
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), deal_form(), headers=HTMX)
    wrong = {"action": "change", **deal_form(1, tricks_0="9")}  # the tricks add up to 13

    statuses = {
        client.post(
            pencil_url(pulka), {**wrong, "client_id": str(uuid.uuid4())}, headers=EN
        ).status_code
        for _ in range(300)
    }

    assert statuses == {200}
    assert SentEntry.objects.count() == 0
    assert not AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.CHANGED).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [HTMX, EN], ids=["htmx", "page"])
def test_an_action_carried_out_is_kept_with_its_account(
    make_table_pulka, table_client, table_world, headers
):
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), deal_form(), headers=HTMX)

    client.post(pencil_url(pulka), {"action": "undo", "client_id": ONE}, headers=headers)

    kept = SentEntry.objects.get()
    assert (kept.pulka_id, kept.user_id, str(kept.client_id), kept.carried_out) == (
        pulka.pk,
        table_world.users["anna"].pk,
        ONE,
        True,
    )


@pytest.mark.django_db
def test_another_accounts_id_sent_for_the_next_deal_records_it(make_table_pulka, table_client):
    pulka = make_table_pulka()
    table_client("anna").post(record_url(pulka), {**deal_form(), "client_id": ONE}, headers=HTMX)

    boris = table_client("boris").post(
        record_url(pulka), {**deal_form(2), "client_id": ONE}, headers=HTMX
    )

    assert boris.status_code == 200
    assert Deal.objects.filter(pulka=pulka, client_id=ONE).count() == 2  # each its own


@pytest.mark.django_db
def test_another_accounts_id_is_no_replay_of_its_action(make_table_pulka, table_client):
    pulka = make_table_pulka()
    anna = table_client("anna")
    anna.post(record_url(pulka), deal_form(), headers=HTMX)
    anna.post(record_url(pulka), deal_form(2), headers=HTMX)
    assert (
        anna.post(
            pencil_url(pulka, 2), {"action": "undo", "client_id": ONE}, headers=HTMX
        ).status_code
        == 200
    )

    boris = table_client("boris").post(
        pencil_url(pulka, 2), {"action": "undo", "client_id": ONE}, headers=HTMX
    )

    assert boris.status_code == 403  # judged as his own: the pencil is not his
    assert SentEntry.objects.filter(client_id=ONE).count() == 1


@pytest.mark.django_db
def test_rows_older_than_a_day_and_beyond_the_bound_are_pruned(
    make_table_pulka, table_client, table_world, monkeypatch
):
    monkeypatch.setattr(replays, "KEPT_PER_ACCOUNT", 3)
    pulka = make_table_pulka()
    anna = table_world.users["anna"]
    old = SentEntry.objects.create(pulka=pulka, user=anna, client_id=uuid.uuid4())
    nobodys = SentEntry.objects.create(pulka=pulka, user=None, client_id=uuid.uuid4())
    SentEntry.objects.filter(pk__in=[old.pk, nobodys.pk]).update(
        at=timezone.now() - timedelta(days=1, minutes=1)
    )
    recent = [
        SentEntry.objects.create(pulka=pulka, user=anna, client_id=uuid.uuid4()) for _ in range(4)
    ]
    client = table_client("anna")
    client.post(record_url(pulka), deal_form(), headers=HTMX)

    client.post(pencil_url(pulka), {"action": "undo", "client_id": ONE}, headers=HTMX)

    left = set(SentEntry.objects.values_list("client_id", flat=True))
    assert old.client_id not in left and nobodys.client_id not in left
    assert len(left) == 3
    assert uuid.UUID(ONE) in left and recent[0].client_id not in left


@pytest.mark.django_db
def test_a_copy_waits_for_the_one_running_and_says_busy_after_a_while(
    make_table_pulka, table_client, table_world, monkeypatch
):
    monkeypatch.setattr(replays, "WAIT_SECONDS", 0.2)
    pulka = make_table_pulka()
    client = table_client("anna")
    client.post(record_url(pulka), deal_form(), headers=HTMX)
    running = SentEntry.objects.create(
        pulka=pulka, user=table_world.users["anna"], client_id=ONE, carried_out=False
    )

    busy = client.post(pencil_url(pulka), {"action": "undo", "client_id": ONE}, headers=HTMX)
    SentEntry.objects.filter(pk=running.pk).update(at=timezone.now() - replays.STALE * 2)
    taken_over = client.post(pencil_url(pulka), {"action": "undo", "client_id": ONE}, headers=HTMX)

    assert busy.status_code == 503 and int(busy["Retry-After"]) > 0
    assert taken_over.status_code == 200  # a claim left by a process that stopped
    assert SentEntry.objects.get(client_id=ONE).carried_out


def at_once(count: int, job) -> list:
    start = threading.Barrier(count)
    results: list = [None] * count

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = job(i)
        except Exception as error:  # noqa: BLE001 - the test looks at them
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("headers", [HTMX, EN], ids=["htmx", "page"])
def test_twenty_copies_of_one_undo_at_once_all_answer_its_success(
    make_table_pulka, table_world, headers
):
    pulka = make_table_pulka()
    clients = []
    for _ in range(20):
        client = Client()
        assert client.login(username="anna", password=TABLE_PASSWORD)
        clients.append(client)
    clients[0].post(record_url(pulka), deal_form(), headers=HTMX)
    undo = {"action": "undo", "client_id": ONE}

    answers = at_once(20, lambda i: clients[i].post(pencil_url(pulka), undo, headers=headers))

    assert all(not isinstance(a, Exception) for a in answers), answers
    assert {a.status_code for a in answers} == {200 if headers is HTMX else 302}
    undone = AuditEvent.objects.filter(pulka=pulka, action=AuditEvent.Action.UNDONE)
    assert undone.count() == 1
    assert SentEntry.objects.filter(client_id=ONE, carried_out=True).count() == 1
