"""The status line, the drawn sheet and the protocol read the same at the table and to a
spectator (docs/design.md, "Joining a table, and watching it"): each region is one
presenter and one template (``presenters/regions.py``), and this test renders each from
both pages, in both languages, for a running, a finished and an abandoned pulka. A page
that keeps its own copy of a region, or forgets one, fails here.

Each page is rendered with an empty cache, so that neither takes the other's region.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db.models import F
from django.test import Client
from django.urls import reverse

from prefscore.games import joining
from prefscore.games.models import Pulka
from prefscore.games.views.spectator import REGIONS
from tests.web.fixtures_access import World
from tests.web.fixtures_table import region

pytestmark = pytest.mark.django_db

STATES = {
    "running": Pulka.Status.RUNNING,
    "finished": Pulka.Status.FINISHED,
    "abandoned": Pulka.Status.ARCHIVED,
}
# The badge each state shows, in each language: the same words on both pages.
BADGES = {
    ("running", "en"): "running",
    ("running", "ru"): "идёт",
    ("finished", "en"): "finished",
    ("finished", "ru"): "закончена",
    ("abandoned", "en"): "abandoned",
    ("abandoned", "ru"): "прервана",
}


def _pages(world: World, state: str, language: str) -> tuple[str, str]:
    """The table page as a member of the club sees it, and the spectator page."""
    Pulka.objects.filter(pk=world.pulka.pk).update(status=STATES[state], version=F("version") + 1)
    pulka = Pulka.objects.get(pk=world.pulka.pk)
    token = joining.spectator_token(joining.open_spectator_link(pulka, world.users["admin"]))
    headers = {"accept-language": language}
    member = Client()
    member.force_login(world.users["member"])
    cache.clear()
    table = member.get(reverse("games:sheet", args=[pulka.pk]), headers=headers)
    cache.clear()
    watched = Client().get(reverse("games:watch", args=[token]), headers=headers)
    assert table.status_code == watched.status_code == 200
    return table.content.decode(), watched.content.decode()


def _without_links(status: str) -> str:
    """The status line without the club's pages, which a spectator does not see."""
    return re.sub(r"\s*<a href=\"[^\"]*\">[^<]*</a>", "", status)


def _as_anyone(protocol: str) -> str:
    """The protocol without what only the club's members see or do: who recorded and
    corrected, the pencil, the correction buttons; spaces collapsed."""
    protocol = re.sub(r'<p class="protocol__by[^"]*">.*?</p>', "", protocol, flags=re.S)
    protocol = re.sub(
        r'<div class="(protocol__actions|pencil)">.*?</div>', "", protocol, flags=re.S
    )
    protocol = re.sub(r"<input [^>]*>", "", protocol)
    return " ".join(protocol.split())


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("state", list(STATES))
def test_each_region_reads_the_same_at_the_table_and_to_a_spectator(access_world, state, language):
    table, watched = _pages(access_world, state, language)

    for region_id in REGIONS:
        assert f'id="{region_id}"' in table and f'id="{region_id}"' in watched, region_id
    status = region(watched, "status")
    assert f">{BADGES[state, language]}</span>" in status
    assert _without_links(region(table, "status")) == status
    assert region(table, "sheet") == region(watched, "sheet")
    assert "<svg" in region(watched, "sheet")
    protocol = _as_anyone(region(watched, "protocol"))
    assert _as_anyone(region(table, "protocol")) == protocol
    assert protocol.count('<li class="protocol__deal"') == 2
