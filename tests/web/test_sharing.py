"""A finished pulka's result shared (docs/design.md, "Sharing a result"): the members'
card, the public link made and taken back (audited), the public page with its preview
tags and its card, and what strangers get for anything not shared."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from prefscore.games import joining, sharing
from prefscore.games.models import AuditEvent, Pulka
from scoring.engine.protocol import score_text
from tests.web import fixtures_club

club_world = fixtures_club.club_world
club_client = fixtures_club.club_client

NAMES = ("olga", "ivan", "Guest Gena")
# A Sochi pulka to 2 that its fourth deal ends (engine-checked), at 0.5 a whist.
DEALS: tuple[dict[str, Any], ...] = (
    {"contract": "6S", "declarer": "olga", "whists": {"ivan": "whist", "Guest Gena": "pass"},
     "tricks": {"olga": 6, "ivan": 3, "Guest Gena": 1}},
    {"contract": "7H", "declarer": "ivan", "whists": {"olga": "whist", "Guest Gena": "whist"},
     "tricks": {"ivan": 5, "olga": 3, "Guest Gena": 2}},
    {"contract": "6S", "declarer": "ivan", "whists": {"olga": "pass", "Guest Gena": "pass"}},
    {"contract": "6S", "declarer": "Guest Gena", "whists": {"olga": "pass", "ivan": "pass"}},
)  # fmt: skip
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def engine_whole() -> dict[str, int]:
    """The engine's whole results for these deals (docs/protocol.md, "Output")."""
    pulka = {"convention": "sochi", "players": list(NAMES), "target": 2, "stake": 0.5,
             "deals": list(DEALS)}  # fmt: skip
    return {
        name: int(value) for name, value in score_text(json.dumps(pulka))["result_whole"].items()
    }


def written(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


RU = {"HTTP_ACCEPT_LANGUAGE": "ru"}


@pytest.fixture
def finished(club_world: Any) -> Pulka:
    pulka = fixtures_club.club_pulka(club_world.club, NAMES, DEALS, target=2, stake="0.5")
    assert pulka.status == Pulka.Status.FINISHED
    return pulka


def _share(client: Client, pulka: Pulka, action: str = "share") -> Any:
    return client.post(reverse("games:result_link", args=[pulka.pk]), {"action": action})


def _token(pulka: Pulka) -> str | None:
    return sharing.result_token(joining.links_of(pulka))


def test_a_player_at_the_table_makes_the_result_public_and_takes_it_back_audited(
    club_client, club_world, finished
):
    ivan = club_client("ivan")
    response = _share(ivan, finished)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/pulkas/{finished.pk}/settlement/#share")
    token = _token(finished)
    assert token
    stranger = Client()
    page = stranger.get(reverse("games:result", args=[token]), **EN)
    assert page.status_code == 200

    response = _share(ivan, finished, "revoke")
    assert response.status_code == 302
    assert _token(finished) is None
    assert stranger.get(reverse("games:result", args=[token]), **EN).status_code == 404
    assert stranger.get(reverse("games:result_card", args=[token])).status_code == 404
    trail = list(AuditEvent.objects.filter(pulka=finished).values_list("action", "user__username"))
    assert trail[-2:] == [("shared", "ivan"), ("unshared", "ivan")]


def test_sharing_again_makes_a_new_link_and_the_old_one_dies(club_client, finished):
    olga = club_client("olga")
    _share(olga, finished)
    first = _token(finished)
    _share(olga, finished)
    second = _token(finished)
    assert first and second and first != second
    assert Client().get(reverse("games:result", args=[first])).status_code == 404
    assert Client().get(reverse("games:result", args=[second])).status_code == 200


def test_only_the_table_and_the_admins_share_and_only_a_finished_pulka(
    club_client, club_world, finished
):
    guest_table = fixtures_club.club_pulka(
        club_world.club, ("olga", "Guest Gena", "Guest Ira"), DEALS[:0], target=2
    )
    # ivan is a member, not seated at this table: refused; olga is the admin.
    assert _share(club_client("ivan"), guest_table).status_code == 403
    assert _share(club_client("olga"), guest_table).status_code == 403  # running
    assert _share(club_client("petr"), finished).status_code in (403, 404)  # another club
    assert (
        Client()
        .post(reverse("games:result_link", args=[finished.pk]), {"action": "share"})
        .status_code
        == 302
    )  # sign in
    assert _share(club_client("olga"), finished, "bogus").status_code == 400
    assert _token(finished) is None


def test_the_public_page_shows_the_result_and_its_preview_tags_and_nothing_of_the_club(
    club_client, finished
):
    _share(club_client("olga"), finished)
    token = _token(finished)
    page = Client().get(reverse("games:result", args=[token]), **EN)
    html = page.content.decode()
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    assert page["Referrer-Policy"] == "no-referrer"
    card = f"http://testserver/results/{token}/card.png"
    for tag in (
        f'<meta property="og:image" content="{card}">',
        '<meta property="og:image:width" content="1200">',
        '<meta property="og:image:height" content="630">',
        '<meta name="twitter:card" content="summary_large_image">',
        f'<meta name="twitter:image" content="{card}">',
        f'<meta property="og:url" content="http://testserver/results/{token}/">',
    ):
        assert tag in html
    assert re.search(r'<meta property="og:title" content="[^"]+">', html)
    # The figures are the settlement's, the engine's.
    whole = engine_whole()
    for value in whole.values():
        assert f'data-result="whole">{written(value)}<' in html
    assert f"olga +{whole['olga']}" in html  # the preview's description
    assert "Friday" in html
    for private in ("entry-form", "protocol", "olga</a>", "Sign out", "outbox"):
        assert private not in html
    assert "<script" not in html


def test_the_public_page_and_card_come_in_russian_too(club_client, finished):
    _share(club_client("olga"), finished)
    token = _token(finished)
    html = Client().get(reverse("games:result", args=[token]), **RU).content.decode()
    assert "Кто кому платит" in html and 'lang="ru"' in html
    en = Client().get(reverse("games:result_card", args=[token]), **EN)
    assert en["Cache-Control"] == "no-cache, public"
    ru = Client().get(reverse("games:result_card", args=[token]), **RU)
    assert en["ETag"] != ru["ETag"]


def test_the_card_is_a_png_of_1200_by_630_drawn_once_and_answers_304_for_a_copy_held(
    club_client, finished
):
    from io import BytesIO

    from PIL import Image

    ivan = club_client("ivan")
    url = reverse("games:card", args=[finished.pk])
    first = ivan.get(url, **EN)
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    image = Image.open(BytesIO(first.content))
    assert image.size == (1200, 630)
    again = ivan.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **EN)
    assert again.status_code == 304
    assert first["Cache-Control"] == "private, no-store"  # the club's, as its settlement


def test_strangers_get_404_for_every_card_and_page_not_shared(club_client, club_world, finished):
    stranger = Client()
    assert stranger.get(reverse("games:card", args=[finished.pk])).status_code == 302  # sign in
    assert club_client("petr").get(reverse("games:card", args=[finished.pk])).status_code in (
        403,
        404,
    )
    for token in ("nothing", "a" * 300, "x:y", joining.sign_code(sharing.RESULT_SALT, "guessed")):
        assert stranger.get(reverse("games:result", args=[token])).status_code == 404
        assert stranger.get(reverse("games:result_card", args=[token])).status_code == 404
    # A spectator link's token opens no result: another salt.
    links = joining.open_spectator_link(finished, club_world.users["olga"])
    spectator = joining.spectator_token(links)
    assert stranger.get(reverse("games:result", args=[spectator])).status_code == 404


def test_a_running_pulka_has_no_card(club_client, club_world):
    running = fixtures_club.club_pulka(club_world.club, NAMES, DEALS[:2], target=2)
    assert club_client("ivan").get(reverse("games:card", args=[running.pk])).status_code == 404


def test_the_settlement_page_offers_the_card_the_text_and_the_link(club_client, finished):
    ivan = club_client("ivan")
    html = ivan.get(reverse("games:settlement", args=[finished.pk]), **EN).content.decode()
    assert 'id="share"' in html and "Make the result public" in html
    assert f"/pulkas/{finished.pk}/card.png" in html
    _share(ivan, finished)
    html = ivan.get(reverse("games:settlement", args=[finished.pk]), **EN).content.decode()
    token = _token(finished)
    assert f"http://testserver/results/{token}/" in html
    assert "Take the link back" in html
    # The text for a chat: each player's whists and money, who pays whom, the link.
    text = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', html, re.S).group(1)
    ivan = engine_whole()["ivan"]
    assert f"ivan: {written(ivan)} ({written(ivan // 2)})" in text  # 0.5 a whist
    assert text.rstrip().endswith(f"http://testserver/results/{token}/")


def test_a_spectator_sees_the_finished_pulkas_settlement_and_nothing_before(
    club_client, club_world, finished
):
    links = joining.open_spectator_link(finished, club_world.users["olga"])
    token = joining.spectator_token(links)
    url = reverse("games:watch_settlement", args=[token])
    assert f'href="{url}"' in Client().get(reverse("games:watch", args=[token])).content.decode()
    page = Client().get(url, **EN)
    assert page.status_code == 200
    assert f'data-result="whole">{written(engine_whole()["ivan"])}<' in page.content.decode()
    assert page["X-Robots-Tag"] == "noindex, nofollow"
    running = fixtures_club.club_pulka(club_world.club, NAMES, DEALS[:2], target=2)
    links = joining.open_spectator_link(running, club_world.users["olga"])
    url = reverse("games:watch_settlement", args=[joining.spectator_token(links)])
    assert Client().get(url).status_code == 404
    assert Client().get(reverse("games:watch_settlement", args=["nothing"])).status_code == 404
