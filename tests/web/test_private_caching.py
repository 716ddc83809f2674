"""Nothing of a person's is kept in a cache (prefscore/web/middleware.py): every page and export
that shows someone's data says ``Cache-Control: private, no-store``, only the listed
public pages may be cached, and signing out tells the browser to clear what it kept."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.fixtures_corrections import ALLPASS, seated_record

pytestmark = pytest.mark.django_db


def private(response):
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("games:sheet", "pulka"),
        ("games:export", "pulka"),
        ("games:settlement", "pulka"),
        ("games:audit", "pulka"),
        ("stats:club_csv", "club"),
        ("stats:my_data", None),
        ("clubs:club", "club"),
        ("clubs:home", None),
        ("members:list", "club"),
    ],
)
def test_a_persons_pages_and_exports_are_private_and_not_stored(
    seated_world, seated_client, name, args
):
    pulka = seated_world.pulka
    seated_record(pulka, ALLPASS, seated_world.users["anna"])
    arg = {"pulka": [pulka.pk], "club": [seated_world.club.slug], None: []}[args]

    response = seated_client("anna").get(reverse(name, args=arg))

    assert response.status_code == 200
    assert private(response), response.get("Cache-Control")


def test_htmx_regions_and_refusals_are_private_too(seated_world, seated_client):
    client = seated_client("olaf")
    sheet = reverse("games:sheet", args=[seated_world.pulka.pk])

    assert private(client.get(sheet))  # 404: not his club
    assert private(seated_client("anna").get(sheet, headers={"HX-Request": "true"}))


def test_the_anonymous_home_page_and_the_conventions_may_be_cached(client):
    assert not private(client.get(reverse("clubs:home")))
    assert not private(client.get(reverse("conventions:list")))


def test_signing_out_clears_the_browsers_cache_and_storage(seated_world, seated_client):
    response = seated_client("anna").post(reverse("logout"))

    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'
    assert private(response)


def test_the_sign_in_page_is_not_stored_either():
    assert private(Client().get(reverse("login")))
