"""Recording a deal on the log folded once per version (prefscore/games/recording.py).

The log a record leaves in the cache is the log read and folded from the database, byte
for byte, after any sequence of deals, corrections and undos; the write holds the
pulka's row only for the version bump and the two inserts; a version moved by anything
meanwhile sends the record down the full path under the lock; two phones recording the
same deal at once save it once and the other is told; a deal beyond the next is refused.
"""

from __future__ import annotations

import pickle
import threading
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefscore.games import recording, render_cache
from prefscore.games.models import Abandonment, AuditEvent, Deal, Pulka
from tests.web.fixtures_corrections import SEATED_NAMES, correction_form
from tests.web.fixtures_table import EN, HTMX, deal_form, legal_deals, region

pytestmark = pytest.mark.django_db


def record_url(pulka: Pulka) -> str:
    return reverse("games:record", args=[pulka.pk])


def fresh(pk: int) -> Pulka:
    return Pulka.objects.select_related("club").get(pk=pk)


def cached_log(pulka: Pulka) -> recording.Log | None:
    found: recording.Log | None = cache.get(render_cache.key(pulka, "log", language=False))
    return found


def rows(log: recording.Log) -> list[tuple[Any, ...]]:
    """What the screens read of each deal row and correction row."""
    deals = [
        (d.pk, d.number, d.facts, d.entered_by_id, d.entered_at, d.entered_by.get_username())
        for d in log.deals
    ]
    corrections = [
        (c.pk, c.deal_number, c.after_deal, c.facts, c.penalise) for c in log.corrections
    ]
    return [*deals, *corrections]


def assert_cached_log_is_the_database_log(pulka: Pulka) -> None:
    """The log the last change left in the cache, against the log read and folded now."""
    pulka = fresh(pulka.pk)
    cached = cached_log(pulka)
    read = recording.read_log(pulka)
    assert cached is not None
    assert rows(cached) == rows(read)
    # Byte for byte: repr spells every value of the frozen dataclasses, in order (pickle
    # would also spell which objects the fold happened to share).
    assert cached.scored == read.scored
    assert repr(cached.scored) == repr(read.scored)
    state = cache.get(render_cache.key(pulka, "state", language=False))
    assert repr(state) == repr(read.scored.state)
    (last,) = cache.get(render_cache.key(pulka, "last-deal", language=False))
    assert (
        rows(recording.Log((last,), (), read.scored))
        == rows(read)[len(read.deals) - 1 : len(read.deals)]
    )


# --- the cached log is the database's -------------------------------------------------


def _facts(number: int, other: bool = False) -> dict[str, Any]:
    size = len(SEATED_NAMES)
    index = number - 1 + (size if other else 0)
    return legal_deals(SEATED_NAMES, index + 1)[index]


def _record(pulka: Pulka, clients: dict[str, Client], _k: int) -> None:
    n = pulka.deals.current().count() + 1
    clients["anna"].post(record_url(pulka), correction_form(_facts(n), n), headers=HTMX)
    assert_cached_log_is_the_database_log(pulka)


def _correct(pulka: Pulka, clients: dict[str, Client], k: int) -> None:
    count = pulka.deals.current().count()
    if count:
        n = 1 + k % count
        url = reverse("games:correct", args=[pulka.pk, n])
        clients["boris"].post(url, correction_form(_facts(n, other=True), n))


def _undo(pulka: Pulka, clients: dict[str, Client], _k: int) -> None:
    n = pulka.deals.current().count()
    if n:
        clients["anna"].post(reverse("games:pencil", args=[pulka.pk, n]), {"action": "undo"})


def _view(pulka: Pulka, clients: dict[str, Client], _k: int) -> None:
    """A phone looks at the table: the version's log is read into the cache."""
    assert clients["vera"].get(reverse("games:sheet", args=[fresh(pulka.pk).pk])).status_code == 200


STEPS = {"record": _record, "correct": _correct, "undo": _undo, "view": _view}


@pytest.fixture
def table(seated_world: Any, seated_client: Any) -> tuple[Pulka, dict[str, Client]]:
    pulka = seated_world.pulka
    Pulka.objects.filter(pk=pulka.pk).update(target=1000)
    pulka.refresh_from_db()
    return pulka, {name: seated_client(name) for name in ("anna", "boris", "vera")}


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(sorted(STEPS)), st.integers(0, 30)), min_size=3, max_size=8
    )
)
def test_the_log_a_record_leaves_in_the_cache_is_the_one_folded_from_the_database(table, steps):
    pulka, clients = table
    cache.clear()
    for name, k in [("record", 0), *steps, ("record", 0)]:
        STEPS[name](pulka, clients, k)


def test_a_correction_made_after_a_deal_undone_since_is_folded_as_the_database_has_it(table):
    """Deal 3 is corrected-after, then undone under the pencil: the correction, made
    after deal 3, stands after the deal recorded in its place (services.engine_pulka_of),
    so that deal is not the fold's next step and goes the full way."""
    pulka, clients = table
    for _ in range(3):
        _record(pulka, clients, 0)
    _correct(pulka, clients, 0)  # deal 1, made after deal 3
    _undo(pulka, clients, 0)  # Anna still holds the pencil on deal 3
    assert pulka.deals.current().count() == 2
    _view(pulka, clients, 0)  # the version's log in the cache

    _record(pulka, clients, 0)  # compares the cached log with the database's

    log = recording.read_log(fresh(pulka.pk))
    assert [type(item).__name__ for item in log.scored.pulka.log][-2:] == ["Deal", "Correction"]


def test_the_cached_log_holds_no_private_field_of_an_account(table, seated_world):
    pulka, clients = table
    for n in (1, 2):
        clients["anna"].post(record_url(pulka), correction_form(_facts(n), n), headers=HTMX)
    clients["boris"].post(
        reverse("games:correct", args=[pulka.pk, 1]), correction_form(_facts(1, True), 1)
    )
    clients["vera"].get(reverse("games:sheet", args=[pulka.pk]))  # the log read again
    pulka = fresh(pulka.pk)
    log = cached_log(pulka)
    assert log is not None and log.corrections and log.deals
    stored = pickle.dumps(log)
    for user in seated_world.users.values():
        assert user.password.encode() not in stored


def test_a_pickled_log_is_the_log_read_with_its_rows_as_values(table):
    pulka, clients = table
    for n in (1, 2, 3):
        clients["anna" if n != 2 else "boris"].post(
            record_url(pulka), correction_form(_facts(n), n), headers=HTMX
        )
    log = recording.read_log(fresh(pulka.pk))
    stored = pickle.dumps(log)

    again = pickle.loads(stored)

    assert rows(again) == rows(log) and repr(again.scored) == repr(log.scored)
    assert [d._state.db for d in again.deals] == [d._state.db for d in log.deals]
    assert not any(d._state.adding for d in again.deals)
    assert again.deals[0].entered_by is again.deals[2].entered_by  # one instance per user
    assert b"model_unpickle" not in stored  # no correction here: no model pickled
    assert pickle.loads(pickle.dumps(recording.Log((), (), log.scored))).deals == ()


# --- the write --------------------------------------------------------------------------


def _written_in_the_transaction(queries: list[dict[str, Any]]) -> list[str]:
    """The statements between the record's transaction's start and its end."""
    sql = [q["sql"] for q in queries]
    start = next(i for i, s in enumerate(sql) if s.startswith(("SAVEPOINT", "BEGIN")))
    end = next(i for i, s in enumerate(sql) if s.startswith(("RELEASE SAVEPOINT", "COMMIT")))
    return [s.split(" (")[0].split(" SET ")[0].split(" WHERE ")[0] for s in sql[start + 1 : end]]


@pytest.mark.parametrize("history", [3, 30])
def test_a_record_holds_the_row_for_the_bump_and_the_inserts_at_a_constant_count(
    make_table_pulka, table_client, history
):
    pulka = make_table_pulka(deals=legal_deals(("Anna", "Boris", "Vera"), history), target=1000)
    client = table_client("anna")
    client.get(reverse("games:sheet", args=[pulka.pk]))  # the table has seen the version
    form = correction_form(legal_deals(("Anna", "Boris", "Vera"), history + 1)[-1], history + 1)

    with CaptureQueriesContext(connection) as captured:
        response = client.post(record_url(pulka), form, headers=HTMX)

    assert response.status_code == 200
    # On PostgreSQL the change signal's NOTIFY goes out with the version's bump, in the
    # same transaction (games/events.py): the other phones hear it once it commits.
    notify = [f"SELECT pg_notify('prefscore_pulka', '{pulka.pk}')"]
    signal = notify if connection.vendor == "postgresql" else []
    assert _written_in_the_transaction(captured.captured_queries) == [
        'UPDATE "games_pulka"',
        *signal,
        'INSERT INTO "games_deal"',
        'INSERT INTO "games_auditevent"',
    ]
    # session, user, the pulka with its seats (one statement); the transaction's five.
    assert len(captured.captured_queries) <= 8 + len(signal)
    assert not any('FROM "games_pulkaseat"' in q["sql"] for q in captured.captured_queries)
    assert not any('FROM "games_deal"' in q["sql"] for q in captured.captured_queries)
    assert Deal.objects.filter(pulka=pulka, number=history + 1).count() == 1


def test_a_version_moved_since_the_log_was_read_goes_the_full_way(make_table_pulka, table_world):
    pulka = make_table_pulka(deals=legal_deals(("Anna", "Boris", "Vera"), 2), target=1000)
    pulka = fresh(pulka.pk)
    log = recording.log_of(pulka)
    Pulka.objects.filter(pk=pulka.pk).update(version=F("version") + 1)  # e.g. a consent

    done = recording.record(
        pulka, log, legal_deals(("Anna", "Boris", "Vera"), 3)[-1], table_world.users["anna"], 3
    )

    assert done.deal.number == 3
    assert done.pulka.version == pulka.version + 2 == fresh(pulka.pk).version
    assert repr(done.log.scored) == repr(recording.read_log(done.pulka).scored)
    assert Deal.objects.filter(pulka=pulka).count() == 3


def test_a_deal_recorded_since_the_log_was_read_is_a_conflict(make_table_pulka, table_world):
    from prefscore.games import services

    pulka = fresh(make_table_pulka().pk)
    log = recording.log_of(pulka)
    first = legal_deals(("Anna", "Boris", "Vera"), 1)[0]
    services.record_deal(pulka.pk, first, table_world.users["boris"], 1)

    with pytest.raises(services.Conflict):
        recording.record(pulka, log, first, table_world.users["anna"], 1)
    assert Deal.objects.filter(pulka=pulka).count() == 1


def test_a_deal_number_beyond_the_next_is_refused_and_nothing_is_saved(
    make_table_pulka, table_client
):
    pulka = make_table_pulka()

    response = table_client().post(record_url(pulka), deal_form(number=7), headers=HTMX)

    assert response.status_code == 409
    assert "This form is out of date: reload the page." in region(
        response.content.decode(), "entry"
    )
    assert not Deal.objects.filter(pulka=pulka).exists()


def test_the_deal_that_closes_the_pulka_finishes_it_on_the_short_write(
    make_table_pulka, table_client
):
    names = ("Anna", "Boris", "Vera")
    deals = [
        {"contract": "10", "declarer": name, "whists": {o: "pass" for o in names if o != name}}
        for name in names
    ]
    pulka = make_table_pulka(deals=deals[:2], target=10)
    form = correction_form(deals[2], 3)

    response = table_client().post(record_url(pulka), form, headers=HTMX)

    assert response.status_code == 200
    pulka = fresh(pulka.pk)
    assert pulka.status == Pulka.Status.FINISHED
    assert pulka.audit_events.filter(action=AuditEvent.Action.FINISHED).count() == 1
    assert_cached_log_is_the_database_log(pulka)


def test_a_proposal_to_abandon_lapses_with_a_deal_recorded_on_the_form(seated_world, seated_client):
    pulka = seated_world.pulka
    seated_client("boris").post(reverse("games:abandon", args=[pulka.pk]), {"reason": ""})
    seated_client("vera").get(reverse("games:sheet", args=[pulka.pk]))  # read at that version

    response = seated_client("anna").post(
        record_url(pulka), correction_form(_facts(1), 1), headers=EN
    )

    assert response.status_code == 302
    assert Abandonment.objects.get().status == Abandonment.Status.LAPSED
    assert pulka.audit_events.filter(action=AuditEvent.Action.ABANDON_LAPSED).count() == 1
    page = seated_client("vera").get(reverse("games:sheet", args=[pulka.pk]), headers=EN)
    assert "abandon" not in region(page.content.decode(), "forgotten").lower()


# --- two phones at once -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_phones_recording_one_deal_at_once_save_it_once_and_the_other_is_told(
    make_table_pulka, table_client
):
    pulka = make_table_pulka(deals=legal_deals(("Anna", "Boris", "Vera"), 2), target=1000)
    phones = [table_client("anna"), table_client("boris")]
    for phone in phones:
        phone.get(reverse("games:sheet", args=[pulka.pk]))  # both have seen the version
    start = threading.Barrier(2)
    answers: list[Any] = [None, None]
    form = correction_form(legal_deals(("Anna", "Boris", "Vera"), 3)[-1], 3)

    def post(i: int) -> None:
        start.wait()
        try:
            answers[i] = phones[i].post(record_url(pulka), form, headers=HTMX)
        except Exception as error:  # noqa: BLE001 - the test looks at it
            answers[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(a.status_code for a in answers) == [200, 409], answers
    told = next(a for a in answers if a.status_code == 409).content.decode()
    assert "Deal 3 was already recorded on another device." in told
    assert Deal.objects.filter(pulka=pulka, number=3).count() == 1
    assert fresh(pulka.pk).version == pulka.version + 1


def test_the_facts_are_folded_in_the_order_the_database_gives_them_back(table):
    """A deal's facts are saved and folded with their keys as the database returns them
    (PostgreSQL's jsonb reorders an object's keys; SQLite keeps them): the cached fold
    of the new deal is then the fold of the row read again, on either database."""
    pulka, _ = table
    facts = {"contract": "6S", "whists": {"Vera": "whist", "Anna": "pass"}}
    facts["tricks"] = {"Boris": 6, "Vera": 3, "Anna": 1}
    stored = recording.as_stored(facts, connection.vendor)
    row = Deal.objects.create(pulka=pulka, number=1, facts=facts)

    read = Deal.objects.get(pk=row.pk).facts
    assert list(read) == list(stored)
    assert [list(read[k]) for k in ("whists", "tricks")] == [
        list(stored[k]) for k in ("whists", "tricks")
    ]


def test_postgresqls_order_is_shortest_key_first_then_by_bytes_and_sqlites_as_written():
    facts = {"tricks": {"Boris": 6, "Vera": 3, "Anna": 1}, "contract": "6S"}

    assert recording.as_stored(facts, "postgresql") == facts
    assert list(recording.as_stored(facts, "postgresql")) == ["tricks", "contract"]
    assert list(recording.as_stored(facts, "postgresql")["tricks"]) == ["Anna", "Vera", "Boris"]
    assert list(recording.as_stored(facts, "sqlite")["tricks"]) == ["Boris", "Vera", "Anna"]
