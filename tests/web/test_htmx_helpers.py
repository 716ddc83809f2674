"""The one htmx rendering helper and the one redirect helper (prefscore/web/htmx.py).

Every view answers through them: the whole page, or to htmx only the region it swaps;
``Vary: HX-Request`` on both, so a cache never serves one for the other; a history
restore (htmx asking for the page again on Back) gets the whole page; a change that
succeeded sends htmx on with ``HX-Redirect`` and a plain browser with a 302.
"""

from typing import cast

import pytest
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse
from django.utils.cache import has_vary_header
from django_htmx.middleware import HtmxMiddleware

from prefscore.games.models import Pulka
from prefscore.web.htmx import HtmxHttpRequest, invalid_status, redirect_to, swaps_region
from tests.web.fixtures_table import EN, HTMX

pytestmark = pytest.mark.django_db

RESTORE = {**HTMX, "HX-History-Restore-Request": "true"}
BOOSTED = {**HTMX, "HX-Boosted": "true"}

DEALS = [
    {"contract": "6S", "declarer": "A", "whists": {"B": "whist", "C": "pass"},
     "tricks": {"A": 6, "B": 3, "C": 1}},
    {"contract": "allpass", "tricks": {"A": 0, "B": 4, "C": 6}},
]  # fmt: skip


@pytest.fixture
def pulka(make_table_pulka) -> Pulka:
    return make_table_pulka(("A", "B", "C"), deals=DEALS, stake="0.1")


def whole_page(response: HttpResponse) -> bool:
    return "<html" in response.content.decode()


def htmx_request(headers: dict[str, str]) -> HtmxHttpRequest:
    """A request as the middleware leaves it, with ``request.htmx``."""
    request = RequestFactory().get("/", headers=headers)
    HtmxMiddleware(lambda r: HttpResponse())(request)
    return cast(HtmxHttpRequest, request)


# --- one partial: the settlement page ----------------------------------------------------


def settlement(pulka: Pulka) -> str:
    return reverse("games:settlement", args=[pulka.pk])


def test_a_page_without_htmx_is_the_whole_page_and_varies_on_hx_request(pulka, table_client):
    response = table_client().get(settlement(pulka), headers=EN)

    assert response.status_code == 200
    assert whole_page(response)
    assert has_vary_header(response, "HX-Request")


def test_the_same_page_to_htmx_is_only_its_partial_and_varies_too(pulka, table_client):
    response = table_client().get(settlement(pulka), headers=HTMX)

    assert response.status_code == 200
    assert not whole_page(response)
    assert 'id="settlement"' in response.content.decode()
    assert has_vary_header(response, "HX-Request")


@pytest.mark.parametrize("headers", [RESTORE, BOOSTED], ids=["history-restore", "boosted"])
def test_a_history_restore_or_a_boosted_link_gets_the_whole_page(headers, pulka, table_client):
    response = table_client().get(settlement(pulka), headers=headers)

    assert response.status_code == 200
    assert whole_page(response)
    assert has_vary_header(response, "HX-Request")


# --- several partials out of band: the table screen ----------------------------------------


def test_the_table_screen_to_htmx_is_its_regions_out_of_band(pulka, table_client):
    response = table_client().get(reverse("games:sheet", args=[pulka.pk]), headers=HTMX)

    html = response.content.decode()
    assert not whole_page(response)
    assert html.count('hx-swap-oob="true"') == 6  # status, forgotten, sheet, entry, protocol, poll
    assert has_vary_header(response, "HX-Request")


def test_the_table_screen_restored_from_history_is_the_whole_page(pulka, table_client):
    response = table_client().get(reverse("games:sheet", args=[pulka.pk]), headers=RESTORE)

    assert whole_page(response)
    assert 'hx-swap-oob="true"' not in response.content.decode()
    assert has_vary_header(response, "HX-Request")


# --- the redirect helper ----------------------------------------------------------------


def test_the_redirect_helper_gives_htmx_hx_redirect_and_a_browser_a_302():
    to_htmx = redirect_to(htmx_request(HTMX), "/somewhere/")
    to_browser = redirect_to(htmx_request({}), "/somewhere/")

    assert to_htmx.status_code == 200
    assert to_htmx["HX-Redirect"] == "/somewhere/"
    assert "Location" not in to_htmx
    assert to_browser.status_code == 302
    assert to_browser["Location"] == "/somewhere/"
    assert "HX-Redirect" not in to_browser


def test_the_redirect_helper_may_say_nothing_is_left_to_swap():
    response = redirect_to(htmx_request(HTMX), "/somewhere/", htmx_status=204)

    assert response.status_code == 204
    assert response["HX-Redirect"] == "/somewhere/"


def test_a_view_redirects_through_the_helper_with_and_without_htmx(club_world, club_client):
    create = reverse("clubs:create")
    with_htmx = club_client("ivan").post(create, {"name": "Tuesday"}, headers=HTMX)
    without = club_client("ivan").post(create, {"name": "Wednesday"})

    assert with_htmx.status_code == 200
    assert with_htmx["HX-Redirect"] == reverse("clubs:club", args=["tuesday"])
    assert without.status_code == 302
    assert without["Location"] == reverse("clubs:club", args=["wednesday"])


# --- what the helpers decide ------------------------------------------------------------


def test_only_an_htmx_request_that_swaps_a_region_gets_a_partial():
    assert swaps_region(htmx_request(HTMX))
    assert not swaps_region(htmx_request({}))
    assert not swaps_region(htmx_request(RESTORE))
    assert not swaps_region(htmx_request(BOOSTED))


def test_a_wrong_entry_is_422_to_htmx_and_200_to_a_browser():
    assert invalid_status(htmx_request(HTMX)) == 422
    assert invalid_status(htmx_request({})) == 200
