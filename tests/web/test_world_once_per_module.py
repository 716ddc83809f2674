"""The access world built once for a module (``access_world_once_per_module``): each
test starts from it as built, whatever the test before wrote to the database or to the
world's objects. Each of the three tests checks that, then writes, so that the ones
run after another on the same worker see whether those writes were undone."""

from __future__ import annotations

import pytest

from prefscore.clubs.models import Club
from prefscore.games.models import Deal
from tests.web.fixtures_access import DEALS, World

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_world(access_world_once_per_module: World) -> World:
    return access_world_once_per_module


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_each_test_starts_from_the_world_as_built(turn, access_world, client_as):
    assert access_world.club.name == "Home club"
    assert Club.objects.get(pk=access_world.club.pk).name == "Home club"
    assert Club.objects.filter(name__startswith="Left behind").count() == 0
    assert Deal.objects.filter(pulka=access_world.pulka).count() == len(DEALS)
    assert client_as("member").get("/").status_code == 200

    access_world.club.name = f"Renamed by turn {turn}"
    access_world.club.save()
    Club.objects.create(name=f"Left behind by turn {turn}", slug=f"left-{turn}")
    Deal.objects.filter(pulka=access_world.pulka).delete()
