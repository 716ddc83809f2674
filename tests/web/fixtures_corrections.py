"""Fixtures for the corrections screens (Кодекс 4.2.7–4.2.10, 4.2.16).

``seated_world``: the club "Friday" (slug ``friday``) where anna, boris and vera sit at
a pulka as the linked players Anna, Boris and Vera; gleb is a member who is not at the
table, oksana an organiser, and olaf an outsider (a member of another club).
``make_seated_pulka(("Anna", "Boris", "Gosha"), guests=("Gosha",))`` makes another
pulka there, Gosha being a guest without an account. ``seated_client(name)`` signs one of them in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Deal, Pulka, PulkaSeat
from prefscore.games.services import record_deal
from scoring.engine.conventions import preset
from tests.web.fixtures_table import EN, HTMX

SEATED_PASSWORD = "pw-seated-tests-1357"
SEATED_NAMES = ("Anna", "Boris", "Vera")

# Anna declares 6♠; Boris whists, Vera passes. WRONG writes 4 defence tricks (Boris writes
# 8 whists on Anna) when the defence took 3 (6 whists): Boris over-wrote 2 whists.
WRONG = {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
         "tricks": {"Anna": 6, "Boris": 4, "Vera": 0}}  # fmt: skip
RIGHT = {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
         "tricks": {"Anna": 7, "Boris": 3, "Vera": 0}}  # fmt: skip
ALLPASS = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}}


@dataclass
class SeatedWorld:
    club: Club
    pulka: Pulka
    users: dict[str, Any]


def _seat_pulka(
    club: Club,
    users: dict[str, Any],
    names: Sequence[str] = SEATED_NAMES,
    guests: Sequence[str] = (),
) -> Pulka:
    """A Sochi pulka to 10; each name not in ``guests`` is the player of the user of
    that name in lower case, each guest a player without an account."""
    pulka = Pulka.objects.create(
        club=club,
        convention_name="sochi",
        convention_options=preset("sochi").to_options(),
        player_names=list(names),
        target=10,
    )
    for seat, name in enumerate(names):
        user = None if name in guests else users[name.lower()]
        player, _ = Player.objects.get_or_create(club=club, name=name, defaults={"user": user})
        assert player.user == user, f"{name} is already a player with another account"
        PulkaSeat.objects.create(pulka=pulka, seat=seat, player=player)
    return pulka


@pytest.fixture
def seated_world(db: Any) -> SeatedWorld:
    club = Club.objects.create(name="Friday", slug="friday", pencil_minutes=2)
    other = Club.objects.create(name="Saturday", slug="saturday")
    users: dict[str, Any] = {}
    roles = {"anna": Role.MEMBER, "boris": Role.MEMBER, "vera": Role.MEMBER, "gleb": Role.MEMBER}
    roles["oksana"] = Role.ORGANISER
    for name, role in roles.items():
        users[name] = get_user_model().objects.create_user(name, password=SEATED_PASSWORD)
        Membership.objects.create(club=club, user=users[name], role=role)
    users["olaf"] = get_user_model().objects.create_user("olaf", password=SEATED_PASSWORD)
    Membership.objects.create(club=other, user=users["olaf"], role=Role.ADMIN)
    return SeatedWorld(club, _seat_pulka(club, users), users)


@pytest.fixture
def make_seated_pulka(seated_world: SeatedWorld) -> Callable[..., Pulka]:
    def make(names: Sequence[str] = SEATED_NAMES, guests: Sequence[str] = ()) -> Pulka:
        return _seat_pulka(seated_world.club, seated_world.users, names, guests)

    return make


@pytest.fixture
def seated_client(seated_world: SeatedWorld) -> Callable[..., Client]:
    """``seated_client("anna")``; ``"anonymous"`` is not signed in."""

    def make(name: str = "anna", *, csrf: bool = False) -> Client:
        client = Client(enforce_csrf_checks=csrf)
        if name != "anonymous":
            client.force_login(seated_world.users[name])
        return client

    return make


def seated_record(pulka: Pulka, facts: dict[str, Any], user: Any) -> Deal:
    """Record the next deal through the service, as the entry form does."""
    number = pulka.deals.current().count() + 1
    deal = record_deal(pulka.pk, facts, user, number).deal
    pulka.refresh_from_db()
    return deal


def put_pencil_down(pulka: Pulka) -> None:
    """Age every deal past the club's pencil window (Кодекс 4.2.8)."""
    from datetime import timedelta

    from django.utils import timezone

    Deal.objects.filter(pulka=pulka).update(entered_at=timezone.now() - timedelta(hours=1))


def correction_form(
    facts: dict[str, Any], number: int, names: Sequence[str] = SEATED_NAMES, **extra: str
) -> dict[str, str]:
    """The entry form's fields for ``facts`` of a pulka of ``names``."""
    seat = {name: str(i) for i, name in enumerate(names)}
    contract = facts["contract"]
    form: dict[str, str] = {"number": str(number)}
    if contract in ("allpass", "misere"):
        form["contract"] = contract
    else:
        level = contract.rstrip("SCDHNT")
        form["contract"], form["suit"] = level, contract[len(level) :]
    if facts.get("declarer"):
        form["declarer"] = seat[facts["declarer"]]
    form.update({f"word_{seat[n]}": w for n, w in (facts.get("whists") or {}).items()})
    form.update({f"tricks_{seat[n]}": str(t) for n, t in (facts.get("tricks") or {}).items()})
    form.update(extra)
    return form


# --- the correction screens' requests ---

# Vera declares 6♠; Boris whists and writes 4 defence tricks (8 whists on Vera) instead of 3.
VERA_WRONG = {"contract": "6S", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "whist"},
              "tricks": {"Vera": 6, "Boris": 4, "Anna": 0}}  # fmt: skip
VERA_RIGHT = {"contract": "6S", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "whist"},
              "tricks": {"Vera": 7, "Boris": 3, "Anna": 0}}  # fmt: skip


def correct_url(pulka: Pulka, number: int) -> str:
    return reverse("games:correct", args=[pulka.pk, number])


def arbiter_url(pulka: Pulka, number: int) -> str:
    return reverse("games:arbiter", args=[pulka.pk, number])


def sheet(client: Client, pulka: Pulka, **headers: str) -> str:
    response = client.get(reverse("games:sheet", args=[pulka.pk]), headers={**EN, **headers})
    assert response.status_code == 200
    return response.content.decode()


def post(client: Client, url: str, data: dict[str, str], htmx: bool = False) -> Any:
    return client.post(url, data, headers=HTMX if htmx else EN)


def recorded(
    world: SeatedWorld, *deals: dict[str, Any], by: str = "anna", pencil_down: bool = True
) -> Pulka:
    pulka = world.pulka
    for facts in deals:
        seated_record(pulka, facts, world.users[by])
    if pencil_down:
        put_pencil_down(pulka)
    return pulka
