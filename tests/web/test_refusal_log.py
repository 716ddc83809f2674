"""A refused request logs one line, not a traceback (prefscore/web/log.py); a fault keeps
its traceback."""

from __future__ import annotations

import io
import logging

import pytest
from django.urls import reverse

from prefscore.web.log import OneLineRefusals


@pytest.fixture
def request_log():
    """What django.request writes, through the site's console filter."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(OneLineRefusals())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    try:
        yield out
    finally:
        logger.removeHandler(handler)


def test_a_403_raised_as_permission_denied_is_one_line(make_table_pulka, table_client, request_log):
    pulka = make_table_pulka()
    client = table_client("olaf")  # another club's member
    client.raise_request_exception = False

    response = client.get(reverse("games:sheet", args=[pulka.pk]))

    assert response.status_code == 403
    lines = request_log.getvalue().strip().splitlines()
    assert lines == [f"Forbidden (Permission denied): /pulkas/{pulka.pk}/"]


def test_a_fault_keeps_its_traceback():
    record = logging.LogRecord("django.request", logging.ERROR, "", 0, "boom", (), None)
    try:
        raise ValueError("broken")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    record.status_code = 500

    OneLineRefusals().filter(record)

    assert record.exc_info is not None


def test_the_sites_console_handler_has_the_filter(settings):
    assert "one_line_refusals" in settings.LOGGING["handlers"]["console"]["filters"]
