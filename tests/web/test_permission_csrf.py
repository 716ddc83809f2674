"""CSRF on every POST: without the token every URL refuses it, with it every POST passes.

Over every URL of the permission table (tests/web/permission_table.py).
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.test import override_settings
from django.urls import reverse

from tests.web.fixtures_access import World
from tests.web.permission_table import (
    EXPECTATIONS,
    OK,
    ROUTES,
    is_placeholder,
    no_expectation_message,
    url_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_world(access_world_once_per_module: World) -> World:
    """One world for this module's many requests, as it was at each test's start."""
    return access_world_once_per_module


# --- CSRF on every POST ---


def csrf_refused(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Stands in for Django's CSRF failure page, so a test can tell it from a 403."""
    response = HttpResponse("csrf refused", status=403)
    response["X-Test-CSRF-Refused"] = "1"
    return response


def strongest_allowed_role(name: str) -> str:
    outcomes = EXPECTATIONS[name].outcomes
    for role in ("admin", "organiser", "member", "superuser", "outsider", "anonymous"):
        if outcomes[role] == OK:
            return role
    return "admin"


CSRF_CASES = [
    pytest.param(name, htmx, id=f"{name}-{'htmx' if htmx else 'form'}")
    for name in ROUTES
    for htmx in (False, True)
]


@override_settings(CSRF_FAILURE_VIEW="tests.web.test_permission_csrf.csrf_refused")
@pytest.mark.parametrize(("name", "htmx"), CSRF_CASES)
def test_a_post_without_the_csrf_token_is_refused(name, htmx, access_world, client_as):
    """Every URL, even one that only answers GET: the token is checked before the view."""
    assert name in EXPECTATIONS, no_expectation_message([name])
    client = client_as(strongest_allowed_role(name), enforce_csrf_checks=True)
    client.get(reverse("clubs:home"))  # the CSRF cookie, as a browser would hold it
    expect = EXPECTATIONS[name]
    data = expect.data(access_world) if expect.data else {}
    headers = {"hx-request": "true"} if htmx else {}

    response = client.post(url_for(access_world, name), data, headers=headers)

    assert response.status_code == 403
    assert response.get("X-Test-CSRF-Refused") == "1", f"{name}: refused, but not for CSRF"


@override_settings(CSRF_FAILURE_VIEW="tests.web.test_permission_csrf.csrf_refused")
@pytest.mark.parametrize(
    "name", [name for name, expect in EXPECTATIONS.items() if expect.method == "post"]
)
def test_the_same_post_with_the_token_passes_the_csrf_check(name, access_world, client_as):
    assert name in ROUTES and not is_placeholder(ROUTES[name]), name
    client = client_as(strongest_allowed_role(name), enforce_csrf_checks=True)
    client.get(reverse("clubs:home"))
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    expect = EXPECTATIONS[name]
    data = expect.data(access_world) if expect.data else {}

    response = client.post(
        url_for(access_world, name), data, headers={"x-csrftoken": token, "hx-request": "true"}
    )

    assert response.get("X-Test-CSRF-Refused") != "1"
