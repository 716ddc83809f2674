"""The sheet's one statement (``games.sheet_read.read_sheet``) reads what the ORM
reads: the same field values, converted the same way, for the pulka, its club, its
links, its seats with their players, and the viewer's role."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from prefscore.clubs.models import Player
from prefscore.games import joining
from prefscore.games.models import Pulka, PulkaSeat
from prefscore.games.sheet_read import read_sheet
from tests.web.fixtures_corrections import seated_record
from tests.web.fixtures_table import legal_deals

pytestmark = pytest.mark.django_db


def values(instance: Model | None) -> Any:
    if instance is None:
        return None
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_one_statement_reads_what_the_orm_reads(seated_world):
    pulka = seated_world.pulka
    seated_record(pulka, legal_deals(list(pulka.player_names), 1)[0], seated_world.users["anna"])
    joining.links_of(pulka)
    anna = seated_world.users["anna"]
    with CaptureQueriesContext(connection) as seen:
        found = read_sheet(anna.pk, pulka.pk)
    assert len(seen.captured_queries) == 1
    assert found is not None
    read, seats, role = found
    orm = Pulka.objects.select_related("club", "links").get(pk=pulka.pk)
    with CaptureQueriesContext(connection) as later:
        assert values(read) == values(orm)
        assert values(read.club) == values(orm.club)
        assert values(read.links) == values(orm.links)
        shown = [(values(s), values(s.player)) for s in seats]
    assert not later.captured_queries  # everything was read with the pulka
    expected = PulkaSeat.objects.filter(pulka=pulka).select_related("player").order_by("seat")
    assert shown == [(values(s), values(s.player)) for s in expected]
    assert role == "member" and read.created_at == orm.created_at and read.created_at.tzinfo


def test_no_links_no_seats_an_outsider_and_an_unknown_pulka(seated_world):
    pulka = seated_world.pulka
    PulkaSeat.objects.filter(pulka=pulka).delete()
    found = read_sheet(seated_world.users["olaf"].pk, pulka.pk)
    assert found is not None
    read, seats, role = found
    assert seats == () and role is None
    with pytest.raises(Pulka.links.RelatedObjectDoesNotExist):
        read.links  # noqa: B018 (cached as none: no query)
    assert read_sheet(seated_world.users["anna"].pk, 10**6) is None
    assert Player.objects.exists()
