"""A whole tournament of 13 players run by its director in the browser (docs/tournaments.md §7).

On a phone (390×844), in Russian and in English: two qualifying rounds drawn as drafts
and published, tables closed by time and by the arbiter's sheet, a late entry, a drop
that re-seats only its table, a cut to a final table of 4, and the standings with the
qualifying, carried and final figures; no sideways scrolling, no serious axe
violation, and ``check_tournament``'s checks find nothing wrong. The players' deals are
recorded through the games service, as their own devices would.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Pulka
from prefscore.tournaments.checks import check
from tests.browser.support import axe_violations, screenshot, sign_in
from tests.web.fixtures_tournaments import close_round, enter, make_tournament, play_round_deals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = (
    "Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya",
    "Igor", "Kira", "Lev", "Mila", "Nina", "Oleg",
)  # fmt: skip
LATE = "Pavel"

WORDS = {
    "ru": {
        "draw": "Провести жеребьёвку следующего тура",
        "draft": "Тур {n}: черновик",
        "publish": "Опубликовать и начать столы",
        "close": "Закрыть стол {n}",
        "time": "лимит времени",
        "arbiter": "итоговая запись внесена судьёй",
        "whists": "Висты: {name}",
        "close_button": "Закрыть стол",
        "register": "Зарегистрировать",
        "drop": "Снять: {name}",
        "cut_size": "Сколько игроков проходит",
        "cut": "Рассадить столы после отсечения",
        "final_draft": "Финал, тур {n}: черновик",
        "qualifying": "Отбор",
        "left": "осталось",
        "time_up": "время вышло",
        "finished": "Турнир завершён",
        "final_two": "В этой стадии остался 1 тур",
    },
    "en": {
        "draw": "Draw the next round",
        "draft": "Round {n}: draft",
        "publish": "Publish and start the tables",
        "close": "Close table {n}",
        "time": "time limit",
        "arbiter": "final sheet entered by the arbiter",
        "whists": "Whists of {name}",
        "close_button": "Close the table",
        "register": "Register",
        "drop": "Drop: {name}",
        "cut_size": "Players who go through",
        "cut": "Draw the tables after the cut",
        "final_draft": "Final, round {n}: draft",
        "qualifying": "Qualifying",
        "left": "left",
        "time_up": "time is up",
        "finished": "Finished on",
        "final_two": "This stage has 1 more round to play",
    },
}


def running(tournament: Any, number: int) -> list[Pulka]:
    return list(
        Pulka.objects.filter(
            tournament=tournament, round_number=number, status=Pulka.Status.RUNNING
        ).order_by("pk")
    )


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("language", ["en"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_director_runs_a_13_player_tournament_on_a_phone(
    live_server, new_context, presets, screenshot_dir, language
):
    words = WORDS[language]
    organiser = get_user_model().objects.create_user("director", password="pw-director-1234")
    club = Club.objects.create(name="Cup club", slug="cup")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    players = [Player.objects.create(club=club, name=name) for name in (*NAMES, LATE)]
    # The final plays 2 rounds, and a round lasts 90 minutes (the room counts them down).
    cup = make_tournament(
        club, "Thirteen", slug="thirteen", table_size=4, stage_rounds=2, round_minutes=90
    )
    enter(cup, players[:13])
    context = new_context(locale="ru-RU" if language == "ru" else "en-US", bypass_csp=True)
    sign_in(context, live_server.url, organiser)
    page = context.new_page()
    detail = f"{live_server.url}/tournaments/cup/thirteen/"
    page.goto(detail)

    def draw_and_publish(number: int) -> None:
        page.get_by_role("button", name=words["draw"]).click()
        # Defect 1: the page reloads and shows the draft at once.
        page.get_by_role("heading", name=words["draft"].format(n=number)).wait_for()
        assert fits(page)
        page.get_by_role("button", name=words["publish"]).click()
        page.locator(f"#round-{number}").wait_for()

    # Round 1: drafted, published; one table closed by time in the browser.
    draw_and_publish(1)
    assert page.locator("#round-1 .pulka-card").count() == 4
    play_round_deals(cup, 1)
    page.get_by_role("link", name=words["close"].format(n=1)).first.click()
    page.get_by_label(words["time"]).check()
    page.get_by_role("button", name=words["close_button"]).click()
    page.locator("#round-1").wait_for()
    close_round(cup, 1)

    # A late entry, then round 2 with him seated.
    page.goto(detail)
    page.get_by_label(LATE, exact=True).check()
    page.get_by_role("button", name=words["register"]).click()
    page.locator("#entries").wait_for()
    draw_and_publish(2)
    assert LATE in {name for p in running(cup, 2) for name in p.player_names}

    # A player at a table of 4 drops before its first deal: only that table is re-seated.
    four = next(p for p in running(cup, 2) if len(p.player_names) == 4)
    page.get_by_role("button", name=words["drop"].format(name=four.player_names[0])).click()
    # Asked first: the page says what the drop does at the table, and takes the reason.
    page.locator("#leave-form").wait_for()
    page.fill("#id_reason", "went home")
    page.locator("#leave-form button[type=submit]").click()
    page.locator("#entries").wait_for()
    assert sorted(len(p.player_names) for p in running(cup, 2)) == [3, 3, 3, 4]

    # The arbiter enters a table's final sheet; it must add up to zero.
    play_round_deals(cup, 2)
    three = next(p for p in running(cup, 2) if len(p.player_names) == 3)
    page.goto(f"{detail}tables/{three.pk}/close/")
    page.get_by_label(words["arbiter"]).check()
    for name, value in zip(three.player_names, ("20", "-5", "-15"), strict=True):
        page.get_by_label(words["whists"].format(name=name)).fill(value)
    assert fits(page)
    assert axe_violations(page) == []
    page.get_by_role("button", name=words["close_button"]).click()
    page.locator("#round-2").wait_for()
    close_round(cup, 2)

    # The cut to a final table of 4, seated by standing.
    page.goto(detail)
    page.get_by_label(words["cut_size"]).fill("4")
    page.get_by_role("button", name=words["cut"]).click()
    # A final of 2 rounds numbers them (docs/tournaments.md §7.5).
    page.get_by_role("heading", name=words["final_draft"].format(n=1)).wait_for()
    page.get_by_role("button", name=words["publish"]).click()
    page.locator("#round-3").wait_for()
    assert axe_violations(page) == []
    play_round_deals(cup, 3)
    close_round(cup, 3)

    # The final's second round, seated by the standings after its first.
    page.goto(detail)
    assert words["final_two"] in page.locator("#draw").inner_text()
    page.get_by_role("button", name=words["draw"]).click()
    page.get_by_role("heading", name=words["final_draft"].format(n=2)).wait_for()
    page.get_by_role("button", name=words["publish"]).click()
    page.locator("#round-4").wait_for()

    # The projector across the room, 1920×1080: the time left, then "time is up".
    wall = new_context(
        locale="ru-RU" if language == "ru" else "en-US",
        viewport={"width": 1920, "height": 1080},
        bypass_csp=True,
    )
    sign_in(wall, live_server.url, organiser)
    projector = wall.new_page()
    projector.goto(f"{detail}projector/")
    clock = projector.locator(".room-clock")
    assert words["left"] in clock.inner_text() and "1:30" in clock.inner_text()
    assert projector.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight")
    assert axe_violations(projector) == []
    screenshot(projector, screenshot_dir / f"tournament-projector-{language}.png")
    cup.rounds.filter(number=4).update(published_at=timezone.now() - timedelta(minutes=91))
    projector.reload()
    assert words["time_up"] in projector.locator(".room-clock").inner_text()

    # Its last table over, the tournament is finished and says so.
    play_round_deals(cup, 4)
    close_round(cup, 4)
    page.goto(detail)
    assert words["finished"] in page.locator("#finished").inner_text()
    assert page.get_by_role("button", name=words["draw"]).count() == 0
    assert fits(page)

    page.goto(f"{detail}standings/")
    assert page.get_by_role("columnheader", name=words["qualifying"]).is_visible()
    assert page.locator(".standings-table tbody tr").count() == 14
    cup.refresh_from_db()
    assert cup.finished
    assert page.locator(".standings-table__finalist").count() == 4
    assert fits(page)
    assert axe_violations(page) == []
    screenshot(page, screenshot_dir / f"tournament-standings-{language}.png", full_page=True)
    assert check(cup) == []
