"""Hostile names are shown as text everywhere, and hostile files are refused politely.

Clubs, players and pulkas named ``<script>alert(1)</script>``, ``"quotes' & <b>``,
right-to-left override text, emoji and the longest name a field allows must come out
escaped on every page that shows them; a 200-character name is refused by the forms
with a message. Pages are listed by URL name: one that does not exist yet, or is still
a placeholder, is skipped with the reason (the report lists them); once it exists it
must pass.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import resolve, reverse
from django.utils.html import escape

from prefscore.clubs.models import Club, Invitation, Membership, Player, Role
from prefscore.games.models import Pulka
from tests.web.fixtures_access import make_pulka, record

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
QUOTES = "\"quotes' & <b>"
RTL = "\u202eevil"
EMOJI = "🂡♠️"
LONG_PLAYER = "Д" * Player._meta.get_field("name").max_length
LONG_CLUB = "Ж" * Club._meta.get_field("name").max_length
TOO_LONG = "Я" * 200
SEATS = (QUOTES, RTL, EMOJI)
NAMES = (SCRIPT, QUOTES, RTL, EMOJI)


@dataclass
class Hostile:
    club: Club
    other: Club
    pulka: Pulka
    invitation: Invitation
    user: Any


@pytest.fixture
def hostile(db) -> Hostile:
    user = get_user_model().objects.create_superuser("boss", password="pw-hostile-1234")
    club = Club.objects.create(name=SCRIPT, slug="hostile")
    other = Club.objects.create(name=LONG_CLUB, slug="long")
    for each in (club, other):
        Membership.objects.create(club=each, user=user, role=Role.ADMIN)
    Player.objects.create(club=club, name=SCRIPT)
    Player.objects.create(club=club, name=LONG_PLAYER)
    pulka = make_pulka(club, SEATS, user)
    Pulka.objects.filter(pk=pulka.pk).update(title=SCRIPT)
    record(
        pulka,
        {
            "contract": "6S",
            "declarer": QUOTES,
            "whists": {RTL: "whist", EMOJI: "pass"},
            "tricks": {QUOTES: 6, RTL: 3, EMOJI: 1},
        },
        user,
    )
    record(pulka, {"contract": "allpass", "tricks": {QUOTES: 2, RTL: 4, EMOJI: 4}}, user)
    invitation = Invitation.objects.create(club=club, created_by=user)
    return Hostile(club, other, pulka, invitation, user)


def signed_in(hostile: Hostile) -> Client:
    client = Client()
    client.force_login(hostile.user)
    return client


# Each page: its URL name, its arguments, and the hostile names it must show.
PAGES: dict[str, tuple[Any, tuple[str, ...]]] = {
    "clubs:home": (lambda h: [], (SCRIPT,)),
    "clubs:club": (lambda h: [h.club.slug], (SCRIPT,)),
    "games:sheet": (lambda h: [h.pulka.pk], SEATS),
    "games:settlement": (lambda h: [h.pulka.pk], SEATS),
    "members:list": (lambda h: [h.club.slug], (SCRIPT,)),
    "members:invitation": (lambda h: [h.invitation.token], (SCRIPT,)),
    "members:players": (lambda h: [h.club.slug], (SCRIPT, LONG_PLAYER)),
    "games:new": (lambda h: [h.club.slug], (SCRIPT,)),
    "games:export": (lambda h: [h.pulka.pk], ()),
    "admin:clubs_club_changelist": (lambda h: [], (SCRIPT, LONG_CLUB)),
    "admin:clubs_player_changelist": (lambda h: [], (SCRIPT, LONG_PLAYER)),
    "admin:games_pulka_changelist": (lambda h: [], (SCRIPT,)),
}


def page_or_skip(hostile: Hostile, name: str) -> str:
    args, _ = PAGES[name]
    url = reverse(name, args=args(hostile))
    module = __import__(resolve(url).func.__module__, fromlist=["__doc__"])
    assert not (module.__doc__ or "").startswith("Placeholder"), f"{name} is a placeholder"
    return url


def assert_shown_as_text(html: str, names: tuple[str, ...]) -> None:
    assert SCRIPT not in html, "a raw <script> from a name"
    assert "<b>" not in html, "raw markup from a name"
    assert "alert(1)" not in html.replace(escape(SCRIPT), ""), "the script outside its escape"
    for name in names:
        assert escape(name) in html, f"{name!r} is not shown (escaped as {escape(name)!r})"


@pytest.mark.parametrize("name", [name for name in PAGES if name != "games:export"])
def test_hostile_names_are_shown_escaped(hostile, name):
    url = page_or_skip(hostile, name)

    response = signed_in(hostile).get(url)

    assert response.status_code == 200, f"{name}: {response.status_code}"
    assert_shown_as_text(response.content.decode(), PAGES[name][1])


@pytest.mark.parametrize("name", ["games:sheet", "clubs:club", "members:list"])
def test_hostile_names_are_escaped_in_htmx_regions_too(hostile, name):
    url = page_or_skip(hostile, name)

    response = signed_in(hostile).get(url, headers={"hx-request": "true"})

    assert response.status_code == 200
    assert SCRIPT not in response.content.decode()
    assert "<b>" not in response.content.decode()


def test_the_sheet_drawing_escapes_names_inside_the_svg(hostile):
    url = page_or_skip(hostile, "games:sheet")

    html = signed_in(hostile).get(url).content.decode()

    assert "<svg" in html
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert "<b>" not in svg and SCRIPT not in svg
    assert escape(QUOTES) in svg or escape(QUOTES) in html


def test_the_export_writes_names_as_json_strings(hostile):
    url = page_or_skip(hostile, "games:export")

    response = signed_in(hostile).get(url)

    assert response["Content-Type"].startswith("application/json")
    assert json.loads(response.content)["players"] == list(SEATS)


# --- forms refuse what they cannot keep ---


def test_a_club_name_of_200_characters_is_refused_with_a_message(hostile):
    response = signed_in(hostile).post(reverse("clubs:create"), {"name": TOO_LONG})

    assert response.status_code in (200, 400, 422)
    assert not Club.objects.filter(name__startswith="ЯЯЯ").exists()
    assert "form__error" in response.content.decode()


def test_a_guest_name_of_200_characters_is_refused_with_a_message(hostile):
    url = reverse("clubs:add_guest", args=[hostile.club.slug])

    response = signed_in(hostile).post(url, {"name": TOO_LONG})

    assert response.status_code in (200, 400, 422)
    assert not Player.objects.filter(name__startswith="ЯЯЯ").exists()
    assert "form__error" in response.content.decode()


def test_a_hostile_guest_name_is_kept_as_typed_and_shown_as_text(hostile):
    url = reverse("clubs:add_guest", args=[hostile.club.slug])

    signed_in(hostile).post(url, {"name": "<img src=x onerror=alert(2)>"})
    html = signed_in(hostile).get(reverse("clubs:club", args=[hostile.club.slug])).content.decode()

    assert Player.objects.filter(name="<img src=x onerror=alert(2)>").exists()
    assert "<img src=x" not in html
    assert escape("<img src=x onerror=alert(2)>") in html


# --- imports refuse what is too big, too deep or absurd ---


def pulka_file(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "players": ["A", "B", "C"],
        "convention": "sochi",
        "target": 10,
        "deals": [{"contract": "allpass", "tricks": {"A": 2, "B": 4, "C": 4}}],
    }
    data.update(changes)
    return data


HOSTILE_FILES = {
    "too-large": " " * (1024 * 1024 + 1) + json.dumps(pulka_file()),
    "deep-nesting": "[" * 100_000 + "]" * 100_000,
    "deep-nesting-in-a-deal": '{"players": ["A", "B", "C"], "convention": "sochi", '
    + '"target": 10, "deals": ['
    + '{"x": ' * 50_000
    + "1"
    + "}" * 50_000
    + "]}",
    "huge-integer": json.dumps(pulka_file()).replace('"target": 10', '"target": 1' + "0" * 5000),
    "absurd-target": json.dumps(pulka_file(target=10**30)),
    "absurd-stake": json.dumps(pulka_file(stake=1e308)),
    "infinity": json.dumps(pulka_file()).replace('"target": 10', '"target": Infinity'),
    "nan": json.dumps(pulka_file()).replace('"target": 10', '"target": NaN'),
    "negative-tricks": json.dumps(
        pulka_file(deals=[{"contract": "allpass", "tricks": {"A": -(10**9), "B": 4, "C": 4}}])
    ),
    "script-in-a-name": json.dumps(
        pulka_file(
            players=[SCRIPT, "B", "C"],
            deals=[
                {"contract": "9", "declarer": SCRIPT, "whists": {"B": "pass", "C": "pass"}},
                {"contract": "bogus<b>"},
            ],
        )
    ),
    "not-json": "<html><script>alert(1)</script>",
    "binary": "\x00\x01\x02",
}


@pytest.mark.parametrize("kind", list(HOSTILE_FILES))
def test_an_import_refuses_a_hostile_file_with_a_message(hostile, kind):
    url = reverse("games:import", args=[hostile.club.slug])
    client = signed_in(hostile)
    before = Pulka.objects.count()

    response = client.post(url, {"text": HOSTILE_FILES[kind]})

    assert response.status_code in (200, 400, 413, 422), response.status_code
    html = response.content.decode()
    assert "form__error" in html or 'role="alert"' in html, f"{kind}: no message shown"
    assert Pulka.objects.count() == before
    assert SCRIPT not in html and "<b>" not in html


def test_an_uploaded_file_over_the_limit_is_refused(hostile):
    from django.core.files.uploadedfile import SimpleUploadedFile

    url = reverse("games:import", args=[hostile.club.slug])
    upload = SimpleUploadedFile("big.json", b" " * (1024 * 1024 + 10), "application/json")

    response = signed_in(hostile).post(url, {"file": upload})

    assert response.status_code in (200, 400, 413, 422)
    assert "form__error" in response.content.decode()
    assert Pulka.objects.count() == 1


def test_the_admin_is_registered_for_the_models_with_names(hostile):
    for model in (Club, Player, Pulka):
        assert admin.site.is_registered(model), f"{model.__name__} is not in the admin"
