"""Every page obeys the Content-Security-Policy and puts the CSRF token in its forms.

As everyone the permission table (tests/web/permission_table.py) lets see it.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from tests.web.fixtures_access import World
from tests.web.permission_table import (
    EXPECTATIONS,
    OK,
    ROUTES,
    call,
    is_placeholder,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_world(access_world_once_per_module: World) -> World:
    """One world for this module's many requests, as it was at each test's start."""
    return access_world_once_per_module


# --- every page obeys the Content-Security-Policy and puts the token in its forms ---

FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S | re.I)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I)
EVENT_ATTRIBUTE = re.compile(r"<[a-z][^>]*\s(on[a-z]+)\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I)

GET_PAGES = [name for name, expect in EXPECTATIONS.items() if expect.method == "get"]
# Answers that are not pages: the poll (304 or regions), the change signal's event
# stream (204 under the test client's WSGI) and the JSON export.
NOT_HTML = {
    "games:poll",
    "games:events",
    "games:watch_events",
    "games:export",
    "games:watch_poll",
    "games:card",  # result cards: PNG
    "games:result_card",
    "tournaments:standings_card",
    "seasons:card",
    "public:card",
    "tournaments:room_events",
    "tournaments:projector_events",
    "tournaments:my_table_events",
    "stats:player_csv",
    "stats:club_csv",
    "stats:my_data",
    "tournaments:export_csv",
    "tournaments:export_json",
    "tournaments:export_file",
    "seasons:csv",
    "seasons:json",
    # The installable app's files (prefscore/offline.py): a script, JSON, an icon's address.
    "service_worker",
    "manifest",
    "favicon",
    "outbox_session",
    # Dead for everyone in the walk's world, which has its owner: its live page is
    # checked in tests/web/test_owner.py.
    "owner_setup",
}


@pytest.mark.parametrize("name", GET_PAGES)
def test_every_page_keeps_to_the_content_security_policy(name, access_world, client_as):
    """As everyone allowed to see it: an admin's page has more controls than a member's."""
    assert name in ROUTES and not is_placeholder(ROUTES[name]), name
    seen = 0
    for role, expected in EXPECTATIONS[name].outcomes.items():
        response = call(client_as(role), access_world, name)
        if expected != OK or response.status_code != 200:
            continue
        assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
        if "html" in response.get("Content-Type", ""):
            check_page(f"{name} as {role}", response.content.decode())
            seen += 1
    # Every other URL must have shown someone a page that was checked.
    assert seen or name in NOT_HTML, f"{name} showed no HTML page to anyone allowed"


def _owned_token(form: str, html: str) -> bool:
    """The token outside the form's markup, joined to it by its id (``form="…"``): as
    the table screen's forms inside its shared regions take it (docs/design.md, "How the
    table screen is cached")."""
    found = re.match(r"""<form\b[^>]*\bid=["']?([\w-]+)""", form, re.I)
    if found is None:
        return False
    owned = rf'<input\b[^>]*name="csrfmiddlewaretoken"[^>]*\bform="{found.group(1)}"'
    return re.search(owned, html) is not None


def check_page(page: str, html: str) -> None:
    assert not INLINE_SCRIPT.search(html), f"{page}: an inline <script>"
    assert not EVENT_ATTRIBUTE.search(html), f"{page}: an on* attribute"
    assert not STYLE_ATTRIBUTE.search(html), f"{page}: a style attribute"
    for form in FORM.findall(html):
        if re.search(r"""method=["']?post""", form, re.I):
            assert "csrfmiddlewaretoken" in form or _owned_token(form, html), (
                f"{page}: a POST form without the token"
            )
    if re.search(r"hx-(post|put|patch|delete)=", html):
        assert "X-CSRFToken" in html, f"{page}: htmx posts without the token header"
