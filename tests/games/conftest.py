"""A table of three club members with accounts, and a pulka they play (Sochi to 10)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Pulka, PulkaSeat
from scoring.engine.conventions import preset


@pytest.fixture
def table(db: Any) -> dict[str, Any]:
    users = {
        name: get_user_model().objects.create_user(name.lower(), password="pw-12345678")
        for name in ("Anna", "Boris", "Vera", "Outsider", "Organiser")
    }
    club = Club.objects.create(name="Club", slug="club")
    for name in ("Anna", "Boris", "Vera"):
        Membership.objects.create(club=club, user=users[name])
    Membership.objects.create(club=club, user=users["Organiser"], role=Role.ORGANISER)
    players = [
        Player.objects.create(club=club, name=n, user=users[n]) for n in ("Anna", "Boris", "Vera")
    ]
    pulka = Pulka.objects.create(
        club=club,
        convention_name="sochi",
        convention_options=preset("sochi").to_options(),
        player_names=["Anna", "Boris", "Vera"],
        target=10,
    )
    for seat, player in enumerate(players):
        PulkaSeat.objects.create(pulka=pulka, seat=seat, player=player)
    return {"club": club, "pulka": pulka, "users": users, "players": players}


def six(declarer: str, tricks: dict[str, int], whists: dict[str, str]) -> dict[str, Any]:
    return {"contract": "6S", "declarer": declarer, "whists": whists, "tricks": tricks}


@pytest.fixture(autouse=True)
def _english() -> Any:
    """The messages asserted here are the English source texts."""
    from django.utils import translation

    with translation.override("en"):
        yield
