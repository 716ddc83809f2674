"""The table screen's regions rendered once per version and shared (docs/design.md,
"How the table screen is cached").

A page served from a warm cache is byte for byte the page rendered with an empty one,
for every viewer, after every kind of change that moves the pulka's version (a deal, a
correction, an arbiter's decision, the pencil's undo, a forgotten deal's consent,
archiving) and after the pencil's window closes, which moves nothing. One viewer's
buttons never reach another: the shared entries are keyed by what the viewer may do.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefscore.games import render_cache
from prefscore.games.models import ForgottenDeal, Pulka
from tests.web.fixtures_corrections import SEATED_NAMES, correction_form
from tests.web.fixtures_table import legal_deals
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db

# (user, language): a seated player, a member not at the table, an organiser (arbiter).
VIEWERS = (("anna", "en"), ("gleb", "en"), ("oksana", "ru"))
PER_REQUEST = (
    re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'),
    re.compile(r'(X-CSRFToken&quot;: &quot;|"X-CSRFToken": ")[^&"]+'),
    re.compile(r"([?&;]t=)[^\"&]+"),
)


def normal(html: str) -> str:
    """The page without what differs on every request: CSRF tokens, the poll's ticket."""
    for pattern in PER_REQUEST:
        html = pattern.sub(r"\1…", html)
    return html


def views(clients: dict[str, Client], pulka: Pulka, query: str = "") -> dict[Any, str]:
    """Each viewer's whole page and its htmx regions, in his language."""
    url = reverse("games:sheet", args=[pulka.pk]) + query
    seen: dict[Any, str] = {}
    for name, language in VIEWERS:
        for htmx in (False, True):
            headers = {"accept-language": language, **({"HX-Request": "true"} if htmx else {})}
            response = clients[name].get(url, headers=headers)
            assert response.status_code == 200
            seen[(name, htmx)] = normal(response.content.decode())
    return seen


def assert_cached_equals_fresh(clients: dict[str, Client], pulka: Pulka) -> None:
    """Served through whatever the cache holds now, then with it empty: the same bytes."""
    warm = views(clients, pulka)  # the first viewer fills the cache, the others read it
    cache.clear()
    fresh = views(clients, pulka)
    for viewer in warm:
        assert warm[viewer] == fresh[viewer], viewer


@pytest.fixture
def table(seated_world: Any, seated_client: Any) -> tuple[Pulka, dict[str, Client]]:
    pulka = seated_world.pulka
    Pulka.objects.filter(pk=pulka.pk).update(
        target=1000, tournament=make_tournament(seated_world.club), round_number=1
    )
    pulka.refresh_from_db()
    clients = {name: seated_client(name) for name in ("anna", "boris", "gleb", "oksana", "vera")}
    return pulka, clients


def next_number(pulka: Pulka) -> int:
    return pulka.deals.current().count() + 1


def facts_for(number: int, other: bool = False) -> dict[str, Any]:
    """A legal deal for position ``number``; ``other`` a different one with the same dealer."""
    size = len(SEATED_NAMES)
    index = number - 1 + (size if other else 0)
    return legal_deals(SEATED_NAMES, index + 1)[index]


def record(pulka: Pulka, clients: dict[str, Client], _k: int) -> None:
    n = next_number(pulka)
    url = reverse("games:record", args=[pulka.pk])
    clients["anna"].post(url, correction_form(facts_for(n), n), headers={"HX-Request": "true"})


def correct(pulka: Pulka, clients: dict[str, Client], k: int) -> None:
    deals = next_number(pulka) - 1
    if deals:
        n = 1 + k % deals
        url = reverse("games:correct", args=[pulka.pk, n])
        clients["boris"].post(url, correction_form(facts_for(n, other=True), n))


def arbiter(pulka: Pulka, clients: dict[str, Client], k: int) -> None:
    deals = next_number(pulka) - 1
    if deals:
        n = 1 + k % deals
        form = correction_form(facts_for(n, other=k % 2 == 0), n, reason="The panel", penalty="on")
        clients["oksana"].post(reverse("games:arbiter", args=[pulka.pk, n]), form)


def undo(pulka: Pulka, clients: dict[str, Client], _k: int) -> None:
    n = next_number(pulka) - 1
    if n:
        url = reverse("games:pencil", args=[pulka.pk, n])
        clients["anna"].post(url, {"action": "undo"})


# The clock the pencil rule reads (Кодекс 4.2.8), moved on by ``pencil_down``.
CLOCK = {"ahead": timedelta(0)}
REAL_NOW = timezone.now


@pytest.fixture(autouse=True)
def _clock() -> Any:
    CLOCK["ahead"] = timedelta(0)
    with mock.patch("django.utils.timezone.now", lambda: REAL_NOW() + CLOCK["ahead"]):
        yield


def pencil_down(_pulka: Pulka, _clients: dict[str, Client], _k: int) -> None:
    """Time passes beyond the pencil's window: nothing stored changes, nor the version,
    but the pencil's buttons go."""
    CLOCK["ahead"] += timedelta(hours=1)


def forgotten(pulka: Pulka, clients: dict[str, Client], _k: int) -> None:
    """Boris proposes a forgotten deal; Anna and Vera agree, each on his device."""
    n = next_number(pulka)
    clients["boris"].post(
        reverse("games:propose", args=[pulka.pk]), correction_form(facts_for(n), n)
    )
    proposal = ForgottenDeal.objects.filter(pulka=pulka).order_by("-pk").first()
    if proposal is not None and proposal.status == ForgottenDeal.Status.PENDING:
        for seat, name in ((0, "anna"), (2, "vera")):
            url = reverse("games:answer", args=[pulka.pk, proposal.pk])
            clients[name].post(url, {"seat": str(seat), "answer": "agree"})


def archive(pulka: Pulka, _clients: dict[str, Client], _k: int) -> None:
    # What the admin's "archive" action does (prefscore/games/admin.py).
    Pulka.objects.filter(pk=pulka.pk).update(status=Pulka.Status.ARCHIVED, version=F("version") + 1)


ACTIONS = {
    "record": record,
    "correct": correct,
    "arbiter": arbiter,
    "undo": undo,
    "pencil_down": pencil_down,
    "forgotten": forgotten,
}


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(sorted(ACTIONS)), st.integers(0, 50)), min_size=3, max_size=7
    )
)
def test_after_any_sequence_of_changes_the_cached_page_is_the_fresh_one(table, steps):
    pulka, clients = table
    Pulka.objects.filter(pk=pulka.pk).update(status=Pulka.Status.RUNNING)
    cache.clear()
    record(pulka, clients, 0)
    for name, k in [*steps, ("archive", 0)]:
        before = Pulka.objects.get(pk=pulka.pk).version
        (archive if name == "archive" else ACTIONS[name])(pulka, clients, k)
        pulka.refresh_from_db()
        assert_cached_equals_fresh(clients, pulka)
        if name in ("record", "archive"):
            assert pulka.version > before, name


def protocol(html: str) -> str:
    return html[html.index('id="protocol"') :]


def test_every_change_that_moves_the_version_shows_on_the_next_view(table):
    pulka, clients = table
    anna = clients["anna"]
    anna.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    url = reverse("games:sheet", args=[pulka.pk])
    record(pulka, clients, 0)
    record(pulka, clients, 0)
    assert ">2</span>" in protocol(anna.get(url).content.decode())
    for change, k, seen in (
        (record, 0, 'value="3"'),
        (correct, 2, "Correction of deal 3"),  # deal 3 as another legal deal
        (arbiter, 5, "Arbiter&#x27;s decision on deal 3"),  # and back
        (forgotten, 0, 'value="4"'),
    ):
        pencil_down(pulka, clients, 0)  # a correction waits for the pencil (Кодекс 4.2.8)
        change(pulka, clients, k)
        assert seen in protocol(anna.get(url).content.decode()), change.__name__
    record(pulka, clients, 0)
    assert 'name="action" value="undo"' in anna.get(url).content.decode()
    undo(pulka, clients, 0)
    html = anna.get(url).content.decode()
    assert 'value="5"' not in protocol(html) and 'name="action" value="undo"' not in html
    archive(pulka, clients, 0)
    assert "archived" in anna.get(url).content.decode()


def test_one_viewers_buttons_never_reach_another(table):
    pulka, clients = table
    record(pulka, clients, 0)
    record(pulka, clients, 0)
    url = reverse("games:sheet", args=[pulka.pk])

    def seen(name: str) -> str:
        return protocol(clients[name].get(url, headers={"accept-language": "en"}).content.decode())

    anna = seen("anna")  # fills the cache first
    gleb, oksana = seen("gleb"), seen("oksana")

    assert 'name="action" value="undo"' in anna and "Correct deal 1" in anna
    assert "Arbiter" not in anna
    assert "Correct deal" not in gleb and "undo" not in gleb and "Arbiter" not in gleb
    assert "Arbiter&#x27;s decision on deal 1" in oksana and "undo" not in oksana


def test_the_shared_parts_are_in_the_cache_after_one_view(table):
    pulka, clients = table
    record(pulka, clients, 0)
    clients["gleb"].get(reverse("games:sheet", args=[pulka.pk]), headers={"accept-language": "en"})
    pulka.refresh_from_db()
    from django.utils import translation

    with translation.override("en"):
        assert cache.get(render_cache.key(pulka, "protocol-head", 100)) is not None
        assert cache.get(render_cache.key(pulka, "state", language=False)) is not None


def test_a_key_names_the_version_the_language_and_the_shown_fields(table):
    from django.utils import translation

    pulka, _clients = table
    with translation.override("en"):
        english = render_cache.key(pulka, "sheet")
    with translation.override("ru"):
        russian = render_cache.key(pulka, "sheet")
        pulka.version += 1
        moved = render_cache.key(pulka, "sheet")
        pulka.player_names = ["Anna", "Boris", "Vasilisa"]
        renamed = render_cache.key(pulka, "sheet")
    assert len({english, russian, moved, renamed}) == 4


@pytest.mark.parametrize("name", ["games:settlement", "games:export"])
def test_the_settlement_and_the_export_come_from_the_cache_and_follow_the_version(table, name):
    pulka, clients = table
    record(pulka, clients, 0)
    url = reverse(name, args=[pulka.pk])
    anna = clients["anna"]

    def seen(query: str = "") -> str:
        return normal(anna.get(url + query, headers={"accept-language": "en"}).content.decode())

    cold = seen()
    assert seen() == cold  # from the cache
    pencil_down(pulka, clients, 0)
    record(pulka, clients, 0)
    warm = seen()
    cache.clear()
    assert warm == seen() != cold
    if name == "games:settlement":
        cache.clear()
        fresh = seen("?first_seat=1")
        assert seen("?first_seat=1") == fresh


def test_the_table_shows_the_last_hundred_deals_and_a_link_to_all(make_table_pulka, table_client):
    names = ("Anna", "Boris", "Vera")
    pulka = make_table_pulka(names, deals=legal_deals(names, 105), target=1000, bulk=True)
    url = reverse("games:sheet", args=[pulka.pk])
    client = table_client()

    last = protocol(client.get(url, headers={"accept-language": "en"}).content.decode())
    whole = protocol(
        client.get(url + "?protocol=all", headers={"accept-language": "en"}).content.decode()
    )
    russian = protocol(client.get(url, headers={"accept-language": "ru"}).content.decode())

    assert last.count('<li class="protocol__deal"') == 100 and 'value="6"' in last
    assert 'value="5"' not in last and "5 earlier deals are not shown." in last
    assert "?protocol=all#protocol" in last
    assert whole.count('<li class="protocol__deal"') == 105 and "earlier deals" not in whole
    assert "5 более ранних сдач не показано." in russian and "Показать все сдачи" in russian
