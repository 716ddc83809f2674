"""Fixtures for the club screens: a club with an admin, a member and a guest.

``club_world`` is the club "Friday" (slug ``friday``) where olga is admin and ivan a
member, each with his player, and a guest player "Guest Gena"; an outsider, petr, is a
member of another club. ``club_client(name)`` is a client signed in as one of them
(``"anonymous"``: not signed in; ``csrf=True`` enforces CSRF checks).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Pulka, PulkaSeat
from prefscore.games.services import record_deal
from scoring.engine.conventions import preset

# The known-answer examples, as tests/engine/test_known_answers.py reads them.
EXAMPLES = Path(__file__).resolve().parents[1] / "engine" / "examples"
CLUB_PASSWORD = "pw-club-tests-5678"


@dataclass
class ClubWorld:
    club: Club
    other_club: Club
    users: dict[str, Any] = field(default_factory=dict)
    players: dict[str, Player] = field(default_factory=dict)


def example_input(name: str) -> dict[str, Any]:
    """The ``input`` of a known-answer example of tests/engine/examples."""
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))["input"]


def three_deals(names: Sequence[str]) -> list[dict[str, Any]]:
    """Three deals for a Sochi table of three that do not close a pulka to 10."""
    a, b, c = names
    return [
        {"contract": "6S", "declarer": a, "whists": {b: "whist", c: "pass"}, "tricks": {a: 6, b: 3, c: 1}},
        {"contract": "allpass", "tricks": {a: 2, b: 4, c: 4}},
        {"contract": "7H", "declarer": c, "whists": {a: "whist", b: "pass"}, "tricks": {c: 6, a: 3, b: 1}},
    ]  # fmt: skip


def club_pulka(
    club: Club,
    names: Sequence[str] = ("olga", "ivan", "Guest Gena"),
    deals: Sequence[dict[str, Any]] = (),
    *,
    status: str = Pulka.Status.RUNNING,
    title: str = "",
    target: int = 10,
    stake: str | None = None,
) -> Pulka:
    """A Sochi pulka to ``target`` between club players ``names`` (created when missing)."""
    pulka = Pulka.objects.create(
        club=club,
        title=title,
        convention_name="sochi",
        convention_options=preset("sochi").to_options(),
        player_names=list(names),
        target=target,
        stake=None if stake is None else Decimal(stake),
    )
    for seat, name in enumerate(names):
        player, _ = Player.objects.get_or_create(club=club, name=name)
        PulkaSeat.objects.create(pulka=pulka, seat=seat, player=player)
    for number, facts in enumerate(deals, start=1):
        record_deal(pulka.pk, facts, None, number)
    if status != Pulka.Status.RUNNING:
        Pulka.objects.filter(pk=pulka.pk).update(status=status)
    pulka.refresh_from_db()  # the deals recorded may have finished it
    return pulka


def build_club_world() -> ClubWorld:
    User = get_user_model()
    users = {
        name: User.objects.create_user(name, password=CLUB_PASSWORD)
        for name in ("olga", "ivan", "petr")
    }
    club = Club.objects.create(name="Friday", slug="friday")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=club, user=users["olga"], role=Role.ADMIN)
    Membership.objects.create(club=club, user=users["ivan"], role=Role.MEMBER)
    Membership.objects.create(club=other, user=users["petr"], role=Role.ADMIN)
    players = {
        "olga": Player.objects.create(club=club, name="olga", user=users["olga"]),
        "ivan": Player.objects.create(club=club, name="ivan", user=users["ivan"]),
        "Guest Gena": Player.objects.create(club=club, name="Guest Gena"),
    }
    return ClubWorld(club, other, users, players)


@pytest.fixture
def club_world(db: Any) -> ClubWorld:
    return build_club_world()


@pytest.fixture
def club_client(club_world: ClubWorld) -> Callable[..., Client]:
    def make(name: str, *, csrf: bool = False) -> Client:
        client = Client(enforce_csrf_checks=csrf)
        if name != "anonymous":
            client.force_login(club_world.users[name])
        return client

    return make
