"""Fixtures for the table screen (sheet, entry, poll, pencil, settlement).

``table_world``: the club "Thursday" (slug ``thursday``) with two members, anna and
boris, and an outsider, olaf, who belongs to another club. ``make_table_pulka(...)``
makes a pulka there straight through the models, with seats and, optionally, deals
recorded through the service as a user. ``table_client(name)`` signs one of them in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Deal, Pulka, PulkaSeat
from prefscore.games.services import record_deal
from scoring.engine.conventions import from_options, preset
from scoring.engine.seats import seating

TABLE_PASSWORD = "pw-table-tests-2468"


@dataclass
class TableWorld:
    club: Club
    other_club: Club
    users: dict[str, Any]


@pytest.fixture
def table_world(db: Any) -> TableWorld:
    club = Club.objects.create(name="Thursday", slug="thursday", pencil_minutes=2)
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    users = {}
    for name, where in (("anna", club), ("boris", club), ("olaf", other)):
        user = get_user_model().objects.create_user(name, password=TABLE_PASSWORD)
        Membership.objects.create(club=where, user=user, role=Role.MEMBER)
        users[name] = user
    return TableWorld(club, other, users)


@pytest.fixture
def table_client(table_world: TableWorld) -> Callable[..., Client]:
    """``table_client("anna")``; ``"anonymous"`` is not signed in."""

    def make(name: str = "anna", *, csrf: bool = False) -> Client:
        client = Client(enforce_csrf_checks=csrf)
        if name != "anonymous":
            client.force_login(table_world.users[name])
        return client

    return make


def legal_deals(names: Sequence[str], count: int, first_dealer: int = 0) -> list[dict[str, Any]]:
    """``count`` legal Sochi deals for any table size, none closing a pulka to 1000.

    A cycle of a made 6, an all-pass, a 7 two down with two whisters and an 8 nobody
    whisted, each declared by the seats the deal's dealer leaves active.
    """
    deals = []
    size = len(names)
    for k in range(count):
        active = seating(size, (first_dealer + k) % size).active
        if size == 2:
            d, f = (names[s] for s in active)
            deals.append(
                {"contract": "6S", "declarer": d, "whists": {f: "whist"}, "tricks": {d: 6, f: 4}}
            )
            continue
        d, f1, f2 = (names[s] for s in active)
        deals.append(
            [
                {"contract": "6S", "declarer": d, "whists": {f1: "whist", f2: "pass"},
                 "tricks": {d: 6, f1: 3, f2: 1}},
                {"contract": "allpass", "tricks": {d: 3, f1: 3, f2: 4}},
                {"contract": "7H", "declarer": d, "whists": {f1: "whist", f2: "whist"},
                 "tricks": {d: 5, f1: 3, f2: 2}},
                {"contract": "8", "declarer": f1, "whists": {f2: "pass", d: "pass"}},
            ][k % 4]
        )  # fmt: skip
    return deals


@pytest.fixture
def make_table_pulka(table_world: TableWorld) -> Callable[..., Pulka]:
    def make(
        names: Sequence[str] = ("Anna", "Boris", "Vera"),
        *,
        convention: str = "sochi",
        options: dict[str, Any] | None = None,
        target: int = 10,
        stake: str | None = None,
        first_dealer: int = 0,
        deals: Sequence[dict[str, Any]] = (),
        by: str = "anna",
        bulk: bool = False,
        club: Club | None = None,
    ) -> Pulka:
        """A pulka of ``names`` in seat order; ``deals`` recorded by user ``by``.

        ``bulk`` inserts the deal rows at once (for long pulkas whose deals are known
        to be legal) instead of recording them one by one through the service.
        """
        club = club or table_world.club
        conv = preset(convention)
        if options:
            conv = from_options(options, conv)
        pulka = Pulka.objects.create(
            club=club,
            convention_name=convention,
            convention_options=conv.to_options(),
            player_names=list(names),
            target=target,
            stake=Decimal(stake) if stake is not None else None,
            first_dealer=first_dealer,
        )
        for seat, name in enumerate(names):
            player, _ = Player.objects.get_or_create(club=club, name=name)
            PulkaSeat.objects.create(pulka=pulka, seat=seat, player=player)
        user = table_world.users[by]
        if bulk:
            Deal.objects.bulk_create(
                Deal(pulka=pulka, number=n, facts=facts, entered_by=user)
                for n, facts in enumerate(deals, start=1)
            )
            Pulka.objects.filter(pk=pulka.pk).update(version=len(deals))
        else:
            for number, facts in enumerate(deals, start=1):
                record_deal(pulka.pk, facts, user, number)
        pulka.refresh_from_db()
        return pulka

    return make


# --- helpers for the table tests -------------------------------------------------------

EN = {"accept-language": "en"}
HTMX = {"HX-Request": "true", "accept-language": "en"}


def deal_form(number: int = 1, **fields: str) -> dict[str, str]:
    """The entry form's fields: a 6♠ made by seat 0, seat 1 whisting, unless overridden.

    A field given as "" is left out, as a browser leaves out an unchecked radio group.
    """
    data = {
        "number": str(number),
        "contract": "6",
        "suit": "S",
        "declarer": "0",
        "word_1": "whist",
        "word_2": "pass",
        "tricks_0": "6",
        "tricks_1": "3",
        "tricks_2": "1",
    }
    data.update(fields)
    return {k: v for k, v in data.items() if v != ""}


def region(html: str, region_id: str) -> str:
    """The inside of the element with ``id=region_id`` (its first closing tag's kind)."""
    import re

    match = re.search(rf'<(\w+)[^>]*\sid="{re.escape(region_id)}"[^>]*>', html)
    assert match, f"no element with id {region_id!r}"
    tag = match.group(1)
    start = match.end()
    depth, position = 1, start
    pattern = re.compile(rf"<(/?){tag}\b[^>]*>")
    while depth:
        found = pattern.search(html, position)
        assert found, f"element {region_id!r} is not closed"
        depth += -1 if found.group(1) else 1
        position = found.end()
    return html[start : found.start()]
