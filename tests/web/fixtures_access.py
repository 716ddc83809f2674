"""Fixtures for the accounts and security tests: a club with someone in every role.

``access_world`` is a club ("home") with a member, an organiser and an admin, a pulka
of three players with two deals, and a pending invitation; an outsider who is admin of
another club; and the site's superuser, who belongs to no club. ``client_as(role)`` is
a test client signed in as one of them (``"anonymous"``: not signed in).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from prefscore.clubs.models import Club, Invitation, Membership, Player, Role
from prefscore.games.models import Deal, Pulka, PulkaSeat
from prefscore.games.services import record_deal
from scoring.engine.conventions import preset

ROLES = ("anonymous", "outsider", "member", "organiser", "admin", "superuser")
PASSWORD = "pw-for-tests-1234"
SEAT_NAMES = ("Anna", "Boris", "Vera")
DEALS = (
    {
        "contract": "6S",
        "declarer": "Anna",
        "whists": {"Boris": "whist", "Vera": "pass"},
        "tricks": {"Anna": 6, "Boris": 3, "Vera": 1},
    },
    {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}},
)


@dataclass
class World:
    club: Club
    other_club: Club
    pulka: Pulka
    invitation: Invitation
    users: dict[str, Any] = field(default_factory=dict)
    memberships: dict[str, Membership] = field(default_factory=dict)


def make_pulka(club: Club, names: tuple[str, ...] = SEAT_NAMES, user: Any = None) -> Pulka:
    """A Sochi pulka to 10 between club players named ``names`` (created if needed)."""
    pulka = Pulka.objects.create(
        club=club,
        convention_name="sochi",
        convention_options=preset("sochi").to_options(),
        player_names=list(names),
        target=10,
        created_by=user,
    )
    for seat, name in enumerate(names):
        player, _ = Player.objects.get_or_create(club=club, name=name)
        PulkaSeat.objects.create(pulka=pulka, seat=seat, player=player)
    return pulka


def record(pulka: Pulka, facts: dict[str, Any], user: Any = None) -> Deal:
    """Record the next deal through the service, as the entry form does."""
    number = pulka.deals.current().count() + 1
    return record_deal(pulka.pk, facts, user, number).deal


def build_world() -> World:
    User = get_user_model()
    users = {
        role: User.objects.create_user(role, email=f"{role}@example.com", password=PASSWORD)
        for role in ROLES[1:-1]
    }
    users["superuser"] = User.objects.create_superuser(
        "superuser", email="root@example.com", password=PASSWORD
    )
    club = Club.objects.create(name="Home club", slug="home")
    other_club = Club.objects.create(name="Other club", slug="other")
    memberships = {
        role: Membership.objects.create(club=club, user=users[role], role=Role(role))
        for role in ("member", "organiser", "admin")
    }
    Membership.objects.create(club=other_club, user=users["outsider"], role=Role.ADMIN)
    pulka = make_pulka(club, user=users["member"])
    for facts in DEALS:
        record(pulka, facts, users["member"])
    invitation = Invitation.objects.create(club=club, created_by=users["admin"])
    return World(club, other_club, pulka, invitation, users, memberships)


@pytest.fixture
def access_world(db: Any) -> World:
    return build_world()


@pytest.fixture(scope="module")
def _access_world_of_the_module(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """The access world built once, in a transaction that is rolled back after the
    module's last test: each test's own transaction is then a savepoint inside it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def access_world_once_per_module(_access_world_of_the_module: World, db: Any) -> World:
    """The access world for a module of many requests (the permission walks): built
    once, not once a test, which was two thirds of each walked request's time. The
    database is as built at each test's start (the test's writes are rolled back with
    its savepoint), and so are the objects: each test has a deep copy of them, as
    Django's ``setUpTestData`` gives. A module takes it by overriding ``access_world``
    with it, as test_permission_walk.py does (``client_as`` follows);
    test_world_once_per_module.py holds it to this."""
    return copy.deepcopy(_access_world_of_the_module)


@pytest.fixture
def client_as(access_world: World) -> Callable[..., Client]:
    """A client signed in as ``role`` of the access world; CSRF enforced on request."""

    def make(role: str, *, enforce_csrf_checks: bool = False) -> Client:
        client = Client(enforce_csrf_checks=enforce_csrf_checks)
        if role != "anonymous":
            client.force_login(access_world.users[role])
        return client

    return make
