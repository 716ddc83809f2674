"""The sheet page's body and the poll's regions, shared by a class of viewers (issue 16).

Two viewers who may do the same on the screen get one rendering, each with his own
name, CSRF token and poll ticket; a viewer who may do something else gets his own; a
context value that is not plain data turns the sharing off.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from prefscore.clubs.models import Membership, Role
from prefscore.games import render_cache
from prefscore.games.models import Pulka
from prefscore.games.presenters import viewer_class
from tests.web.fixtures_corrections import SEATED_PASSWORD, seated_record
from tests.web.fixtures_table import legal_deals
from tests.web.test_render_cache import normal

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def played(world: Any, deals: int = 2) -> Pulka:
    pulka = world.pulka
    names = list(pulka.player_names)
    for n in range(1, deals + 1):
        seated_record(pulka, legal_deals(names, n)[n - 1], world.users["anna"])
    return pulka


def member(world: Any, name: str) -> Client:
    """Another member of the club, not at the table."""
    user = get_user_model().objects.create_user(name, password=SEATED_PASSWORD)
    Membership.objects.create(club=world.club, user=user, role=Role.MEMBER)
    client = Client()
    client.force_login(user)
    return client


def body(html: str) -> str:
    """The page's shared body: from the table's region up to the poll."""
    return html[html.index('<div class="table-page">') : html.index('<div id="poll"')]


def pages() -> list[str]:
    """The page bodies in the cache (each worker's local memory in the tests)."""
    return [name for name in cache._cache if ".page." in name]  # type: ignore[attr-defined]


def page(client: Client, pulka: Pulka, **headers: str) -> str:
    url = reverse("games:sheet", args=[pulka.pk])
    response = client.get(url, headers={"accept-language": "en", **headers})
    assert response.status_code == 200
    return response.content.decode()


def test_two_members_away_from_the_table_share_one_rendering_each_with_his_own_name(
    seated_world, seated_client
):
    pulka = played(seated_world)
    cache.clear()
    gleb, dasha = seated_client("gleb"), member(seated_world, "dasha")
    first = page(gleb, pulka)
    with mock.patch("prefscore.games.presenters.table.draw_sheet") as drawn:
        second = page(dasha, pulka)
    assert drawn.call_count == 0  # nothing of the sheet is made again
    assert len(pages()) == 1  # one body for both
    assert normal(body(first)) == normal(body(second))
    assert ">gleb</a>" in first and ">dasha</a>" in second and "gleb</a>" not in second
    tokens = {client: TOKEN.findall(html) for client, html in ((gleb, first), (dasha, second))}
    for client, found in tokens.items():
        assert found and {_unmask_cipher_token(t) for t in found} == {
            client.cookies["csrftoken"].value
        }
    header = re.compile(r"X-CSRFToken&quot;: &quot;([^&]+)&quot;|\"X-CSRFToken\": \"([^\"]+)\"")
    for client, html in ((gleb, first), (dasha, second)):
        assert render_cache.NAME_PLACEHOLDER not in html
        assert render_cache.CSRF_PLACEHOLDER not in html
        found = header.search(html)
        assert found is not None
        token = found.group(1) or found.group(2)
        assert _unmask_cipher_token(token) == client.cookies["csrftoken"].value
    ticket = re.compile(r'id="poll" hidden hx-get="([^"]+)"')
    assert ticket.search(first)[1] != ticket.search(second)[1]


def test_the_players_at_the_table_share_theirs_and_the_pencils_holder_has_his_own(
    seated_world, seated_client
):
    pulka = played(seated_world)
    cache.clear()
    anna, boris, vera = (seated_client(name) for name in ("anna", "boris", "vera"))
    holder, other, third = page(anna, pulka), page(boris, pulka), page(vera, pulka)
    # One page body: the newest deal's lines, where the holder's pencil is, are put in
    # for each viewer (viewer_part), one rendering for the holder and one for the others.
    assert len(pages()) == 1
    assert len([n for n in cache._cache if ".protocol-head-html." in n]) == 2  # type: ignore[attr-defined]
    assert 'name="action" value="undo"' in holder and "undo" not in body(other)
    assert normal(body(other)) == normal(body(third))
    assert normal(body(holder)) != normal(body(other))
    assert "Correct deal 1" in other and "Correct deal 1" in holder
    gleb = page(seated_client("gleb"), pulka)
    assert "Correct deal" not in gleb and "Abandon" not in body(gleb)


def test_the_pencils_window_closing_moves_the_class_not_the_version(seated_world, seated_client):
    pulka = played(seated_world)
    cache.clear()
    anna = seated_client("anna")
    assert 'name="action" value="undo"' in page(anna, pulka)
    later = timezone.now() + timedelta(hours=1)  # nothing stored moves, nor the version
    with mock.patch("django.utils.timezone.now", lambda: later):
        assert 'name="action" value="undo"' not in page(anna, pulka)


@pytest.mark.parametrize("query", ["?protocol=all", "?links=open", "?change=2", "?propose=1"])
def test_a_page_with_a_question_in_its_address_is_not_shared(seated_world, seated_client, query):
    pulka = played(seated_world)
    cache.clear()
    url = reverse("games:sheet", args=[pulka.pk]) + query
    seated_client("anna").get(url)
    assert not pages()


def test_the_poll_regions_are_shared_with_each_devices_ticket_and_token(
    seated_world, seated_client
):
    pulka = played(seated_world)
    cache.clear()
    url = reverse("games:poll", args=[pulka.pk]) + f"?v={pulka.version - 1}"
    answers = []
    for name in ("boris", "vera"):
        client = seated_client(name)
        client.get(reverse("games:sheet", args=[pulka.pk]))  # the CSRF cookie
        response = client.get(url, headers={"HX-Request": "true", "accept-language": "en"})
        assert response.status_code == 200
        html = response.content.decode()
        secret = client.cookies["csrftoken"].value
        assert {_unmask_cipher_token(t) for t in TOKEN.findall(html)} <= {secret}
        assert render_cache.POLL_PLACEHOLDER not in html
        assert render_cache.CSRF_PLACEHOLDER not in html
        answers.append(html)
    assert normal(answers[0]) == normal(answers[1])
    assert answers[0].count('hx-swap-oob="true"') == 6
    shared = [name for name in cache._cache if ".regions." in name]  # type: ignore[attr-defined]
    assert len(shared) == 1


def test_the_shared_regions_are_the_fresh_ones(seated_world, seated_client):
    """The poll's regions from the cache are render_partials' own, byte for byte but
    for the tokens' masks."""
    from prefscore.games.views import sheet

    pulka = played(seated_world)
    boris = seated_client("boris")
    url = reverse("games:poll", args=[pulka.pk]) + f"?v={pulka.version - 1}"
    headers = {"HX-Request": "true", "accept-language": "ru"}
    cache.clear()
    with mock.patch.object(sheet, "shared", lambda _r, _p, context: context):
        fresh = boris.get(url, headers=headers).content.decode()
    cache.clear()
    boris.get(url, headers=headers)
    warm = boris.get(url, headers=headers).content.decode()
    assert normal(warm) == normal(fresh)


@dataclasses.dataclass(frozen=True)
class Shown:
    words: str
    numbers: tuple[int, ...]


def test_only_plain_values_key_a_class(seated_world):
    pulka = seated_world.pulka
    base = {"over": "", "notice": "", "abandon": Shown("a", (1, 2)), "entry": None}
    with translation.override("en"):
        one = viewer_class.key(pulka, "page", base)
        same = viewer_class.key(pulka, "page", {**base, "pulka": pulka, "poll_url": "/x"})
        other = viewer_class.key(pulka, "page", {**base, "abandon": Shown("a", (1, 3))})
        unshareable = viewer_class.key(pulka, "page", {**base, "someone": seated_world.club})
        typed = viewer_class.key(pulka, "page", {**base, "entry": object(), "entry_key": ""})
    assert one and one == same and other and other != one
    assert unshareable == "" and typed == ""
    with pytest.raises(viewer_class.Unshareable):
        viewer_class.plain(object())
    assert viewer_class.plain(frozenset({2, 1})) == viewer_class.plain(frozenset({1, 2}))


@pytest.mark.parametrize("htmx", [False, True])
def test_the_sheet_and_the_poll_make_as_many_queries_whatever_the_deals(
    seated_world, seated_client, htmx
):
    counts = []
    for deals in (1, 9):
        pulka = played(seated_world, deals) if deals == 1 else seated_world.pulka
        if deals == 9:
            names = list(pulka.player_names)
            for n in range(2, 10):
                seated_record(pulka, legal_deals(names, n)[n - 1], seated_world.users["anna"])
        cache.clear()
        if htmx:
            url = reverse("games:poll", args=[pulka.pk]) + f"?v={pulka.version - 1}"
            headers = {"HX-Request": "true"}
        else:
            url, headers = reverse("games:sheet", args=[pulka.pk]), {}
        seated_client("boris").get(url, headers=headers)  # the first device of the version
        vera = seated_client("vera")
        with CaptureQueriesContext(connection) as seen:
            assert vera.get(url, headers=headers).status_code == 200
        counts.append(len(seen.captured_queries))
    assert counts[0] == counts[1]
    assert counts[0] <= 5
