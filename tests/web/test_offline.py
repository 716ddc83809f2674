"""The installable app's views (prefscore/offline.py): the outbox's fresh token, the
service worker from the root, the manifest and its icons, the favicon, and the account
each page names for the worker (docs/design.md, "Never lose a deal")."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from prefscore.offline import PRECACHED, release
from prefscore.web.middleware import ACCOUNT_HEADER
from tests.web.fixtures_table import EN, HTMX

pytestmark = pytest.mark.django_db


# --- the outbox's token -------------------------------------------------------------------


@pytest.mark.parametrize("headers", [EN, HTMX], ids=["page", "htmx"])
def test_the_session_names_the_user_and_gives_a_token_never_cached(table_client, headers):
    response = table_client("anna").get(reverse("outbox_session"), headers=headers)

    assert response.status_code == 200
    body = response.json()
    assert body["user"] == "anna"
    assert len(body["csrf"]) == 64
    assert response["Cache-Control"] == "no-store"


def test_signed_out_the_session_says_nobody_and_still_gives_a_token(table_client):
    response = table_client("anonymous").get(reverse("outbox_session"))

    assert response.status_code == 200
    assert response.json()["user"] is None
    assert response.json()["csrf"]


def test_the_token_it_gives_is_one_a_post_is_accepted_with(make_table_pulka, table_client):
    from tests.web.fixtures_table import deal_form

    pulka = make_table_pulka()
    client = table_client("anna", csrf=True)
    token = client.get(reverse("outbox_session")).json()["csrf"]
    record = reverse("games:record", args=[pulka.pk])

    refused = client.post(record, deal_form(), headers=HTMX)
    accepted = client.post(record, deal_form(), headers={**HTMX, "X-CSRFToken": token})

    assert refused.status_code == 403
    assert accepted.status_code == 200


@pytest.mark.parametrize("name", ["outbox_session", "service_worker", "manifest", "favicon"])
def test_each_is_read_only(table_client, name):
    assert table_client("anna").post(reverse(name)).status_code == 405


# --- the service worker -------------------------------------------------------------------


def test_the_worker_is_served_from_the_root_for_the_whole_site(client: Client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert f'var RELEASE = "{release()}";' in body
    precached = json.loads(re.search(r"var PRECACHED = (\[.*?\]);", body).group(1))
    assert "/static/css/prefscore.css" in precached
    assert "/static/js/outbox.js" in precached
    assert {"/static/js/stream.js", "/static/js/push.js"} <= set(precached)  # push needs stream
    assert "{{" not in body and "{%" not in body


def test_the_worker_is_served_with_the_hashed_files_of_a_production_deploy(
    client: Client, tmp_path, settings
):
    """As ``make run`` and production serve it: after collectstatic, the static files by
    their hashed names from the manifest (a name not in it is an error there)."""
    hashed = {name: name.replace(".", ".0123456789ab.", 1) for name in PRECACHED}
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": hashed, "version": "1.1"}))
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }

    response = client.get("/sw.js")

    assert response.status_code == 200
    body = response.content.decode()
    precached = json.loads(re.search(r"var PRECACHED = (\[.*?\]);", body).group(1))
    assert "/static/js/outbox.0123456789ab.js" in precached
    assert re.search(r'var STATIC_PREFIX = "/static/";', body)


def test_the_worker_never_keeps_posts_polls_streams_or_exports(client: Client):
    body = client.get("/sw.js").content.decode()
    never = re.search(r"var NEVER = \[(.*?)\];", body).group(1)
    for path in ("/pulkas/1/poll/", "/events/pulkas/1/", "/pulkas/1/export.json", "/admin/"):
        assert any(
            re.search(pattern.replace("\\\\", "\\"), path)
            for pattern in re.findall(r"/(.+?)/(?:,|$)", never.replace(" ", ""))
        ), path
    assert 'if (request.method !== "GET") return;' in body


def test_the_release_names_the_static_files():
    assert re.fullmatch(r"[0-9a-f]{16}", release())


# --- installable ----------------------------------------------------------------------------


def test_the_manifest_makes_the_site_an_app_of_its_own(client: Client):
    response = client.get(reverse("manifest"), headers={"accept-language": "ru"})

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b5d3b"
    assert manifest["short_name"] == "prefscore"
    assert "преферанс" in manifest["name"]  # in the language asked for
    icons = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert icons == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in manifest["icons"]:
        found = finders.find(icon["src"].removeprefix("/static/"))
        assert found, icon["src"]
        size = int(icon["sizes"].split("x")[0])
        with open(found, "rb") as image:  # the PNG's own width and height
            head = image.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(head[16:20], "big") == int.from_bytes(head[20:24], "big") == size


def test_the_favicon_is_an_icon_not_a_404_page(client: Client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    icon = finders.find(response["Location"].removeprefix("/static/"))
    with open(icon, "rb") as ico:
        assert ico.read(4) == b"\x00\x00\x01\x00"  # an ICO


def test_every_page_links_the_manifest_and_the_icons(client: Client):
    html = client.get(reverse("login"), headers=EN).content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'rel="apple-touch-icon"' in html and 'rel="icon"' in html
    assert '<meta name="theme-color" content="#0b5d3b">' in html


# --- whose page it is -------------------------------------------------------------------------


def test_a_page_names_its_account_for_the_worker(make_table_pulka, table_client):
    pulka = make_table_pulka()
    client = table_client("anna")
    user = client.get(reverse("outbox_session")).json()["user"]

    page = client.get(reverse("games:sheet", args=[pulka.pk]), headers=EN)
    signed_out = table_client("anonymous").get(reverse("login"), headers=EN)

    assert user == "anna"
    assert page[ACCOUNT_HEADER].isdigit()
    assert signed_out[ACCOUNT_HEADER] == ""
    assert ACCOUNT_HEADER not in client.get(reverse("manifest"))  # not a page
    region = client.get(reverse("games:sheet", args=[pulka.pk]), headers=HTMX)
    assert ACCOUNT_HEADER not in region  # an htmx answer is never kept


def test_the_outbox_region_names_its_owner_on_a_shared_page(make_table_pulka, table_client):
    # The table screen's body is shared by every viewer of a class: the owner is filled
    # in per request (the user name's placeholder), never another viewer's.
    pulka = make_table_pulka()
    url = reverse("games:sheet", args=[pulka.pk])
    for name in ("anna", "boris", "anna"):
        html = table_client(name).get(url, headers=EN).content.decode()
        assert f'data-user="{name}"' in html
