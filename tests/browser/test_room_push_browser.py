"""Push on the room's wall: the projector (1920×1080, in Russian and in English) shows a
deal recorded at a table without its poll timer firing (docs/push.md;
static/js/room-push.js, prefscore/tournaments/views/events.py).

The site runs under uvicorn (``asgi_live_server``), in this process: the projector's
timer is set to 10 minutes for the test, so only the change signal can bring the deal.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments.presenters import room
from tests.browser.asgi_server import asgi_live_server  # noqa: F401 (a fixture)
from tests.browser.support import ensure_presets, screenshot
from tests.web.fixtures_access import build_world
from tests.web.fixtures_tournaments import draw, enter, make_tournament, table_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
PLAYERS = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor")


def drawn_world() -> Any:
    """The access world with a public tournament of six at two tables, round 1 published
    and no deal recorded yet."""
    ensure_presets()
    world = build_world()
    players = [Player.objects.get_or_create(club=world.club, name=n)[0] for n in PLAYERS]
    world.tournament = make_tournament(world.club, "Spring cup", slug="spring", public=True)
    enter(world.tournament, players)
    assert draw(world, world.tournament).status_code == 302
    return world


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_projector_shows_a_deal_by_push_without_its_timer(
    asgi_live_server,  # noqa: F811 (the fixture)
    new_context,
    monkeypatch,
    language,
    screenshot_dir,
):
    monkeypatch.setattr(room, "PROJECTOR_POLL_SECONDS", 600)
    world = drawn_world()
    tournament = world.tournament
    table = Pulka.objects.filter(tournament=tournament).order_by("pk").first()
    assert table is not None
    context = new_context(locale=f"{language}-{language.upper()}", viewport=PROJECTOR)
    page = context.new_page()
    polls: list[str] = []
    page.on("request", lambda r: "/projector/?" in r.url and polls.append(r.url))
    page.goto(f"{asgi_live_server}/tournaments/{world.club.slug}/{tournament.slug}/projector/")
    expect(page.locator("html")).to_have_attribute("data-push", "up")
    page.wait_for_function("() => performance.getEntriesByType('resource')"
                           ".some(e => e.name.includes('/projector/?'))")  # fmt: skip
    with translation.override(language):
        before, after = (room._deals_text(tournament, deals) for deals in (0, 1))
    playing = page.locator("[data-wall=playing] li").first
    expect(playing).to_contain_text(before)

    record_deal(table.pk, table_deals(table)[0], world.users["organiser"], 1)

    expect(playing).to_contain_text(after)
    # One poll as the stream connected, one the change asked for: no timer fired; both
    # show the page on the wall again rather than turning it.
    assert len(polls) == 2, polls
    assert all(url.endswith("?page=0") for url in polls), polls
    assert page.locator("html").get_attribute("lang") == language
    screenshot(page, screenshot_dir / f"room-push-projector-{language}.png")
