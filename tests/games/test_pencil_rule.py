"""The pencil rule (Кодекс 4.2.8) is one function: who holds the pencil, until when.

Whoever recorded the last deal holds it until the next deal is recorded or the club's
window passes; every screen and service asks ``prefscore.games.pencil``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from prefscore.games import presenters, services
from prefscore.games.models import Pulka
from prefscore.games.pencil import pencil_deal, pencil_holder, pencil_until
from prefscore.games.services import record_deal, standing_deals
from tests.games.conftest import six

FIRST = six("Anna", {"Anna": 6, "Boris": 3, "Vera": 1}, {"Boris": "whist", "Vera": "pass"})
SECOND = six("Boris", {"Boris": 6, "Vera": 3, "Anna": 1}, {"Vera": "whist", "Anna": "pass"})


def test_the_recorder_of_the_last_deal_holds_the_pencil_and_no_one_else(
    table: dict[str, Any],
) -> None:
    pulka, users = table["pulka"], table["users"]
    record_deal(pulka.pk, FIRST, users["Anna"], 1)
    deals = standing_deals(pulka)

    assert pencil_holder(pulka, deals) == deals[-1]
    assert pencil_deal(pulka, users["Anna"], deals) == deals[-1]
    assert pencil_deal(pulka, users["Boris"], deals) is None
    assert pencil_deal(pulka, AnonymousUser(), deals) is None


def test_the_next_deal_puts_the_pencil_down_on_the_one_before(table: dict[str, Any]) -> None:
    pulka, users = table["pulka"], table["users"]
    record_deal(pulka.pk, FIRST, users["Anna"], 1)
    record_deal(pulka.pk, SECOND, users["Boris"], 2)
    deals = standing_deals(pulka)

    assert pencil_holder(pulka, deals) == deals[1]
    assert pencil_deal(pulka, users["Anna"], deals) is None


def test_the_pencil_is_down_once_the_clubs_window_passes(table: dict[str, Any]) -> None:
    pulka, users = table["pulka"], table["users"]
    record_deal(pulka.pk, FIRST, users["Anna"], 1)
    window = timedelta(minutes=pulka.club.pencil_minutes)
    pulka.deals.update(entered_at=timezone.now() - window - timedelta(seconds=1))
    deals = standing_deals(pulka)

    assert pencil_until(pulka, deals[-1]) < timezone.now()
    assert pencil_holder(pulka, deals) is None


def test_an_archived_pulka_or_a_deal_without_recorder_has_no_pencil(
    table: dict[str, Any],
) -> None:
    pulka, users = table["pulka"], table["users"]
    record_deal(pulka.pk, FIRST, users["Anna"], 1)
    pulka.deals.update(entered_by=None)
    assert pencil_holder(pulka, standing_deals(pulka)) is None

    pulka.deals.update(entered_by=users["Anna"])
    pulka.status = Pulka.Status.ARCHIVED
    assert pencil_holder(pulka, standing_deals(pulka)) is None


def test_the_services_and_the_screens_ask_the_same_function() -> None:
    assert services.pencil_deal is pencil_deal
    assert presenters.table.pencil_rule.pencil_until is pencil_until
