"""The spectator link: the sheet, live, for people outside the club, and
nothing else."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from prefscore.games import joining
from prefscore.games.models import Correction
from tests.web.fixtures_access import DEALS, record
from tests.web.fixtures_table import legal_deals, region

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def watch_token(world) -> str:
    return joining.spectator_token(joining.open_spectator_link(world.pulka, world.users["admin"]))


def watch_url(token: str) -> str:
    return reverse("games:watch", args=[token])


def poll_url(token: str, version: object) -> str:
    return f"{reverse('games:watch_poll', args=[token])}?v={version}"


def test_a_spectator_sees_the_sheet_and_the_protocol_and_nothing_else(access_world):
    token = watch_token(access_world)

    response = Client().get(watch_url(token), headers=EN)

    html = response.content.decode()
    assert response.status_code == 200
    for region_id in ("status", "sheet", "protocol", "poll"):
        assert f'id="{region_id}"' in html
    assert "<svg" in region(html, "sheet")
    assert "deals: 2" in region(html, "status")
    assert 'class="protocol__deal' in html
    pk = access_world.pulka.pk
    for hidden in (
        'id="entry"',
        '<form method="post" action="/pulkas',
        "Correct",
        "Settlement",
        "Audit trail",
        f"/pulkas/{pk}/",
        "/clubs/",
        "Home club",
        "Recorded by",
        "member",
        'id="join"',
    ):
        assert hidden not in html, hidden


def test_the_spectator_page_is_never_cached_indexed_or_sent_on_as_a_referer(access_world):
    response = Client().get(watch_url(watch_token(access_world)))

    assert "no-cache" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "no-referrer"
    assert "noindex" in response["X-Robots-Tag"]


def test_the_spectator_page_speaks_russian_too(access_world):
    html = Client().get(watch_url(watch_token(access_world)), headers=RU).content.decode()

    assert 'lang="ru"' in html
    assert "Просмотр: лист сам следит за игрой." in html


def test_a_correction_shows_without_the_name_of_who_made_it(access_world):
    pulka = access_world.pulka
    Correction.objects.create(
        pulka=pulka,
        deal_number=2,
        after_deal=2,
        kind="arbiter",
        reason="secret reason",
        facts={"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}},
        asked_by=access_world.users["organiser"],
    )
    pulka.version += 1
    pulka.save()

    html = Client().get(watch_url(watch_token(access_world)), headers=EN).content.decode()

    assert "protocol__event--correction" in html
    assert "organiser" not in html and "secret reason" not in html


def test_the_poll_answers_304_while_nothing_changed_in_one_query(access_world):
    token = watch_token(access_world)
    access_world.pulka.refresh_from_db()
    client = Client()

    with CaptureQueriesContext(connection) as queries:
        response = client.get(poll_url(token, access_world.pulka.version), headers=HTMX)

    assert response.status_code == 304
    assert response.content == b""
    assert len(queries) == 1
    assert "no-cache" in response["Cache-Control"]


def test_after_a_deal_the_poll_brings_the_new_regions_and_no_controls(access_world):
    token = watch_token(access_world)
    pulka = access_world.pulka
    pulka.refresh_from_db()
    shown = pulka.version
    record(
        pulka,
        {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}},
        access_world.users["member"],
    )

    response = Client().get(poll_url(token, shown), headers=HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert "deals: 3" in html
    assert html.count('hx-swap-oob="true"') == 5  # status, result, sheet, protocol, poll
    assert 'id="spectator-result"' in html and "/settlement/" not in html  # running: no result
    pulka.refresh_from_db()
    assert poll_url(token, pulka.version).replace("&", "&amp;").split("?")[1] in html
    assert 'id="entry"' not in html and "<form" not in html and "Recorded by" not in html


def test_without_htmx_the_poll_sends_the_browser_to_the_page(access_world):
    token = watch_token(access_world)

    response = Client().get(poll_url(token, -1))

    assert response.status_code == 302
    assert response["Location"] == watch_url(token)


def test_a_revoked_link_is_a_styled_404_and_its_poll_reloads_the_page(access_world):
    token = watch_token(access_world)
    joining.revoke_spectator_link(access_world.pulka, access_world.users["admin"])

    page = Client().get(watch_url(token), headers=RU)
    poll = Client().get(poll_url(token, 0), headers=HTMX)

    assert page.status_code == 404
    assert "error-page" in page.content.decode() and 'lang="ru"' in page.content.decode()
    assert poll.status_code == 404
    assert poll["HX-Refresh"] == "true"
    assert b"sheet" not in poll.content


def test_a_rotated_link_stops_and_the_new_one_works(access_world):
    old = watch_token(access_world)
    new = watch_token(access_world)

    assert Client().get(watch_url(old)).status_code == 404
    assert Client().get(watch_url(new)).status_code == 200


def test_the_club_switched_off_is_a_styled_403_that_says_why(access_world):
    token = watch_token(access_world)
    access_world.club.allow_spectators = False
    access_world.club.save()

    page = Client().get(watch_url(token), headers=EN)
    poll = Client().get(poll_url(token, 0), headers=HTMX)

    assert page.status_code == 403
    assert "The club has switched spectator links off." in page.content.decode()
    assert "error-page" in page.content.decode()
    assert poll.status_code == 404 and poll["HX-Refresh"] == "true"


def test_a_forged_or_join_token_opens_nothing(access_world):
    links = joining.open_spectator_link(access_world.pulka, None)

    for token in (links.spectator_code, joining.join_token(links), "x:y", "a" * 300):
        assert Client().get(watch_url(token)).status_code == 404
        assert Client().get(poll_url(token, 0), headers=HTMX).status_code == 404


def test_the_spectator_pages_are_read_only(access_world):
    token = watch_token(access_world)

    for url in (watch_url(token), poll_url(token, 0)):
        assert Client().post(url).status_code == 405
        assert Client().put(url).status_code == 405
        assert Client().head(url).status_code in (200, 302)


def test_with_htmx_the_page_answers_its_regions(access_world):
    html = Client().get(watch_url(watch_token(access_world)), headers=HTMX).content.decode()

    assert "<html" not in html
    assert html.count('hx-swap-oob="true"') == 5  # status, result, sheet, protocol, poll


def test_the_page_and_the_poll_cost_the_same_whatever_the_deals(make_table_pulka):
    names = ("Anna", "Boris", "Vera")

    def costs(deals: int) -> tuple[int, int]:
        pulka = make_table_pulka(names, deals=legal_deals(names, deals), target=1000, bulk=True)
        token = joining.spectator_token(joining.open_spectator_link(pulka, None))
        client = Client()
        with CaptureQueriesContext(connection) as page:
            assert client.get(watch_url(token)).status_code == 200
        with CaptureQueriesContext(connection) as poll:
            assert client.get(poll_url(token, -1), headers=HTMX).status_code == 200
        return len(page), len(poll)

    assert costs(3) == costs(80)


def test_the_spectator_page_shows_no_account_names_in_the_protocol(access_world):
    html = Client().get(watch_url(watch_token(access_world)), headers=EN).content.decode()

    protocol = region(html, "protocol")
    assert len(re.findall(r'<li class="protocol__deal[" ]', protocol)) == len(DEALS)
    assert not re.search(r"protocol__by", protocol)
