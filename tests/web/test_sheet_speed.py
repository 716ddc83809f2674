"""What the sheet's screen no longer does on every request, and that what it shares
between viewers keeps each viewer's own: his CSRF token, his buttons (docs/design.md,
"How the table screen is cached")."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

import pytest
import segno
from django.core.cache import cache
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.clubs.models import Club
from prefscore.games.presenters import table
from tests.web.fixtures_corrections import correction_form, seated_record
from tests.web.fixtures_table import legal_deals

pytestmark = pytest.mark.django_db

# The token is the page's own, outside the shared form, which it belongs to by its id.
FORM_TOKEN = re.compile(
    r'name="csrfmiddlewaretoken" value="([^"]+)" form="entry-form">\s*(?:<h2[^>]*>.*?</h2>\s*)?'
    r'<form id="entry-form"',
    re.DOTALL,
)


def entry_token(html: str) -> str:
    found = FORM_TOKEN.search(html)
    assert found is not None, "the entry form has no CSRF token"
    return found.group(1)


def test_the_shared_entry_form_carries_each_viewers_own_csrf_token(seated_world, seated_client):
    pulka = seated_world.pulka
    cache.clear()
    boris, anna = seated_client("boris", csrf=True), seated_client("anna", csrf=True)
    url = reverse("games:sheet", args=[pulka.pk])
    boris_page = boris.get(url).content.decode()  # renders the form and keeps it
    anna_page = anna.get(url).content.decode()  # from the cache
    for client, page in ((boris, boris_page), (anna, anna_page)):
        secret = client.cookies["csrftoken"].value
        assert _unmask_cipher_token(entry_token(page)) == secret
    n = pulka.deals.current().count() + 1
    facts = legal_deals(list(pulka.player_names), n)[n - 1]
    form = {**correction_form(facts, n), "csrfmiddlewaretoken": entry_token(anna_page)}
    answer = anna.post(reverse("games:record", args=[pulka.pk]), form)
    assert answer.status_code == 302
    assert pulka.deals.current().count() == n


def test_the_entry_form_is_rendered_once_per_version_and_language(seated_world, seated_client):
    pulka = seated_world.pulka
    cache.clear()
    url = reverse("games:sheet", args=[pulka.pk])
    with mock.patch.object(table, "entry_form", wraps=table.entry_form) as made:
        for name in ("anna", "boris", "gleb"):
            assert (
                seated_client(name).get(url, headers={"accept-language": "en"}).status_code == 200
            )
        assert made.call_count == 1
        seated_client("anna").get(url, headers={"accept-language": "ru"})
        assert made.call_count == 2  # its labels are the page's language


def test_a_typed_form_shown_again_is_never_shared(seated_world, seated_client):
    pulka = seated_world.pulka
    cache.clear()
    anna = seated_client("anna")
    n = pulka.deals.current().count() + 1
    bad = {"number": str(n), "contract": "6", "suit": "S"}  # no declarer
    refused = anna.post(reverse("games:record", args=[pulka.pk]), bad).content.decode()
    assert 'value="6"' in refused and "checked" in refused
    other = seated_client("boris").get(reverse("games:sheet", args=[pulka.pk])).content.decode()
    form = other[other.index('id="entry-form"') :]
    assert 'id="contract-6" value="6" checked' not in form.replace("\n", " ")


def test_the_qr_code_of_a_link_is_drawn_once_for_every_viewer(seated_world, seated_client):
    pulka = seated_world.pulka
    cache.clear()
    url = reverse("games:sheet", args=[pulka.pk])
    with mock.patch("prefscore.games.joining.segno.make", wraps=segno.make) as drawn:
        pages = [seated_client(name).get(url).content for name in ("anna", "boris", "anna")]
    assert drawn.call_count == 1
    assert pages[0].count(b'class="qr__code"') == 1
    codes = {re.search(rb'<figure class="qr">.*?</figure>', page, re.DOTALL)[0] for page in pages}
    assert len(codes) == 1  # the same drawing for every viewer, from the cache


def test_the_viewers_role_is_read_with_the_pulka_not_asked_again(seated_world, seated_client):
    pulka = seated_world.pulka
    with mock.patch.object(Club, "role_of", autospec=True, side_effect=Club.role_of) as asked:
        page = seated_client("anna").get(reverse("games:sheet", args=[pulka.pk]))
    assert page.status_code == 200
    assert asked.call_count == 0  # access, the abandon panel, the join panel: one column


def test_an_outsider_is_still_refused_with_the_role_read_in_the_pulkas_query(
    seated_world, seated_client
):
    pulka = seated_world.pulka
    assert seated_client("olaf").get(reverse("games:sheet", args=[pulka.pk])).status_code == 403


def test_a_role_is_one_query(seated_world, django_assert_num_queries: Any):
    club, anna = seated_world.club, seated_world.users["anna"]
    with django_assert_num_queries(1):
        assert club.role_of(anna) == "member"


@pytest.mark.parametrize("deals", [1, 9])
@pytest.mark.parametrize("htmx", [False, True])
def test_the_next_viewer_of_a_version_reads_neither_deals_nor_proposals(
    seated_world, seated_client, deals, htmx
):
    """What moves only with the version is read once per version: the next device (the
    page, or the poll answering 200) reads the seats, not the log, the proposals or the
    answers, whatever the number of deals."""
    pulka = seated_world.pulka
    names = list(pulka.player_names)
    for n in range(1, deals + 1):
        seated_record(pulka, legal_deals(names, n)[n - 1], seated_world.users["anna"])
    cache.clear()
    first, second = seated_client("boris"), seated_client("anna")
    if htmx:
        url = reverse("games:poll", args=[pulka.pk]) + f"?v={pulka.version - 1}"
        headers = {"HX-Request": "true"}
    else:
        url, headers = reverse("games:sheet", args=[pulka.pk]), {}
    assert first.get(url, headers=headers).status_code == 200
    with CaptureQueriesContext(connection) as seen:
        assert second.get(url, headers=headers).status_code == 200
    read = " ".join(query["sql"] for query in seen.captured_queries)
    assert "games_pulkaseat" in read  # who sits where is the viewer's own question
    for log in ("games_deal", "games_correction", "games_forgottendeal", "games_abandonment"):
        assert f'FROM "{log}"' not in read, log
