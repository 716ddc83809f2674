"""The time shown is the machine's own by default (settings.time_zone), TIME_ZONE over it.

A club's laptop shows the time its owner set; the audit, the statistics' dates and the
phones at the table (which show their own clock) then agree.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
import tzlocal
from django.test import override_settings
from django.utils import timezone

from prefscore.games.presenters.trail import when
from prefscore.settings import time_zone
from tests.helpers import run_python


@pytest.fixture
def machine_zone(monkeypatch):
    """Set the machine's zone as TZ does; tzlocal reads it afresh."""

    def set_to(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()  # the C library's clock too, which tzlocal checks the zone against
        tzlocal.reload_localzone()

    yield set_to
    monkeypatch.delenv("TZ", raising=False)
    time.tzset()
    tzlocal.reload_localzone()


def test_the_machine_zone_is_the_default(machine_zone):
    machine_zone("Asia/Vladivostok")

    assert time_zone({}) == "Asia/Vladivostok"


def test_time_zone_in_the_environment_wins_over_the_machine(machine_zone):
    machine_zone("Asia/Vladivostok")

    assert time_zone({"TIME_ZONE": "Europe/Kaliningrad"}) == "Europe/Kaliningrad"


def test_a_machine_zone_that_cannot_be_read_gives_utc(monkeypatch):
    def broken() -> str:
        raise OSError("no zone configured")

    monkeypatch.setattr(tzlocal, "get_localzone_name", broken)

    assert time_zone({}) == "UTC"


def test_a_machine_zone_the_database_does_not_know_gives_utc(monkeypatch):
    monkeypatch.setattr(tzlocal, "get_localzone_name", lambda: "Mars/Olympus_Mons")

    assert time_zone({}) == "UTC"


def test_the_server_started_on_a_machine_in_vladivostok_uses_its_zone(tmp_path):
    result = run_python(
        "manage.py",
        "shell",
        "-c",
        "from django.conf import settings; print(settings.TIME_ZONE)",
        env={"DEBUG": "1", "TZ": "Asia/Vladivostok"},
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "Asia/Vladivostok"


@override_settings(TIME_ZONE="Asia/Vladivostok")
def test_the_audit_and_the_statistics_show_the_zones_time_and_date():
    moment = datetime(2026, 12, 7, 20, 30, 5, tzinfo=UTC)  # 06:30 the next day there

    assert when(moment).endswith("06:30:05")
    assert timezone.localdate(moment).isoformat() == "2026-12-08"
