"""A change's answer is the body its viewer's class shares (issue 16).

The recorder's answer to a record (and to the pencil's undo) renders the regions of the
new version once, under his viewer class's key: his other devices' next poll takes them
from the cache, byte for byte a fresh render but for each device's own CSRF token and
poll ticket; another player, who may do something else, gets his own.
"""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.urls import reverse

from prefscore.games import render_cache
from prefscore.games.models import Pulka
from prefscore.games.views import sheet
from tests.web.fixtures_corrections import correction_form
from tests.web.fixtures_table import HTMX, region
from tests.web.test_render_cache import normal
from tests.web.test_viewer_class import TOKEN, played

pytestmark = pytest.mark.django_db

TICKET = re.compile(r'id="poll"[^>]*hx-get="[^"]*[?&;]t=([^"&]+)')


def phone(seated_client: Any, name: str, pulka: Pulka) -> Client:
    """A signed-in device that has shown the sheet (its CSRF cookie)."""
    client: Client = seated_client(name)
    client.get(reverse("games:sheet", args=[pulka.pk]))
    return client


def poll(client: Client, pulka: Pulka, shown: int) -> str:
    url = reverse("games:poll", args=[pulka.pk]) + f"?v={shown}"
    response = client.get(url, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def fresh_poll(client: Client, pulka: Pulka, shown: int) -> str:
    """The poll's answer rendered for this viewer alone, nothing from the cache."""
    cache.clear()
    with mock.patch.object(sheet, "shared", lambda _r, _p, context: context):
        return poll(client, pulka, shown)


def regions_in_cache() -> list[str]:
    return [name for name in cache._cache if ".regions." in name]  # type: ignore[attr-defined]


def heads_in_cache() -> list[str]:
    return [name for name in cache._cache if ".protocol-head-html." in name]  # type: ignore[attr-defined]


def record_next(client: Client, pulka: Pulka) -> str:
    from tests.web.test_recording import _facts

    number = pulka.deals.current().count() + 1
    url = reverse("games:record", args=[pulka.pk])
    response = client.post(url, correction_form(_facts(number), number), headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def assert_own_token_and_ticket(client: Client, html: str) -> None:
    tokens = TOKEN.findall(html)
    assert tokens and {_unmask_cipher_token(t) for t in tokens} == {
        client.cookies["csrftoken"].value
    }
    assert render_cache.CSRF_PLACEHOLDER not in html
    assert render_cache.POLL_PLACEHOLDER not in html


def test_after_a_record_the_recorders_other_device_takes_his_regions_from_the_cache(
    seated_world, seated_client
):
    pulka = played(seated_world)
    first, second = phone(seated_client, "anna", pulka), phone(seated_client, "anna", pulka)
    shown = pulka.version
    cache.clear()

    answer = record_next(first, pulka)
    assert len(regions_in_cache()) == 1  # the recorder's class's body, made by the record
    with mock.patch.object(render_cache, "_render", wraps=render_cache._render) as made:
        warm = poll(second, pulka, shown)
    assert made.call_count == 0  # nothing rendered again: the body is the record's

    assert 'name="action" value="undo"' in warm  # the pencil is his
    assert_own_token_and_ticket(second, warm)
    assert_own_token_and_ticket(first, answer)
    assert TICKET.search(warm)[1] != TICKET.search(answer)[1]
    assert normal(warm) == normal(answer)
    assert normal(warm) == normal(fresh_poll(second, pulka, shown))


def test_another_players_poll_after_the_record_differs_where_his_buttons_do(
    seated_world, seated_client
):
    pulka = played(seated_world)
    anna, boris = phone(seated_client, "anna", pulka), phone(seated_client, "boris", pulka)
    shown = pulka.version
    cache.clear()

    recorded = record_next(anna, pulka)
    with mock.patch.object(render_cache, "_render", wraps=render_cache._render) as made:
        theirs = poll(boris, pulka, shown)

    # One body for the pencil's holder and the other player: only the newest deal's
    # lines are rendered for him (viewer_part), and kept for every viewer who sees them.
    assert len(regions_in_cache()) == 1
    assert [call.args[1] for call in made.call_args_list] == [render_cache.HEAD_TEMPLATE]
    assert len(heads_in_cache()) == 2
    assert 'name="action" value="undo"' in recorded and "undo" not in theirs
    assert "holds the pencil" in theirs and "holds the pencil" not in recorded
    for same in ("sheet", "status", "entry"):  # what the version settles
        assert normal(region(recorded, same)) == normal(region(theirs, same)), same
    assert normal(region(recorded, "protocol")) != normal(region(theirs, "protocol"))
    assert_own_token_and_ticket(boris, theirs)
    assert normal(theirs) == normal(fresh_poll(boris, pulka, shown))


def test_after_an_undo_the_undoers_other_device_takes_his_regions_from_the_cache(
    seated_world, seated_client
):
    pulka = played(seated_world)
    first, second = phone(seated_client, "anna", pulka), phone(seated_client, "anna", pulka)
    shown = pulka.version
    cache.clear()

    number = pulka.deals.current().count()
    url = reverse("games:pencil", args=[pulka.pk, number])
    answer = first.post(url, {"action": "undo"}, headers=HTMX).content.decode()
    with mock.patch.object(render_cache, "_render", wraps=render_cache._render) as made:
        warm = poll(second, pulka, shown)

    assert made.call_count == 0
    assert f'value="{number}"' in region(warm, "entry")  # the undone deal's number is next
    assert normal(warm) == normal(fresh_poll(second, pulka, shown))
    # The undoer's own answer differs only by his form, which holds the deal he undid.
    mine, theirs = region(answer, "entry"), region(warm, "entry")
    assert "checked" in mine and mine != theirs
    assert normal(warm.replace(theirs, "")) == normal(answer.replace(mine, ""))


def test_a_poll_answered_from_the_cache_reads_nothing_its_body_does_not_need(
    seated_world, seated_client
):
    pulka = played(seated_world)
    anna, boris = phone(seated_client, "anna", pulka), phone(seated_client, "boris", pulka)
    shown = pulka.version
    record_next(anna, pulka)
    poll(boris, pulka, shown)  # his class's body into the cache
    other = phone(seated_client, "boris", pulka)

    read: list[str] = []
    real_get = cache.get

    def get(name: str, *args: Any, **kwargs: Any) -> Any:
        read.append(name)
        return real_get(name, *args, **kwargs)

    with (
        mock.patch.object(cache, "get", get),
        mock.patch.object(render_cache, "_render", wraps=render_cache._render) as made,
    ):
        again = poll(other, pulka, shown)

    assert made.call_count == 0 and "holds the pencil" in again
    parts = {name.split(".")[2] for name in read}
    assert "regions" in parts
    assert not parts & {"state", "log", "entry-form", "entry-html", "sheet", "status"}, parts


def test_a_shared_rendering_is_filled_as_each_placeholder_replaced_in_turn(rf):
    from django.middleware.csrf import get_token

    request = rf.get("/")
    html = (
        f"<a href='{render_cache.POLL_PLACEHOLDER}'>{render_cache.NAME_PLACEHOLDER}</a>"
        f"{render_cache.CSRF_PLACEHOLDER}|{render_cache.CSRF_PLACEHOLDER}|prefscoreShared|"
        f"{render_cache.POLL_PLACEHOLDER}"
    )
    assert all(p.startswith(render_cache._PREFIX) for p in PLACEHOLDERS)

    filled = render_cache._fill(request, html, "/poll/?v=1&t=x", "<anna>")

    token = filled.split("</a>")[1].split("|")[0]  # one token for every form, as a render
    assert filled.split("|")[1] == token
    assert _unmask_cipher_token(token) == _unmask_cipher_token(get_token(request))
    assert filled == (
        f"<a href='/poll/?v=1&amp;t=x'>&lt;anna&gt;</a>{token}|{token}|prefscoreShared|"
        "/poll/?v=1&amp;t=x"
    )
    assert render_cache._fill(request, "no placeholder", "/p") == "no placeholder"


PLACEHOLDERS = (
    render_cache.CSRF_PLACEHOLDER,
    render_cache.POLL_PLACEHOLDER,
    render_cache.NAME_PLACEHOLDER,
)
