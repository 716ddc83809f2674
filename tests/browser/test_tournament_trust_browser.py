"""The 13-player tournament a director can trust (docs/tournaments.md §4.9, §4.10, §7).

In Russian and in English, the director on a phone (390×844) and a laptop (1280×800),
the room's projector at 1920×1080: a no-show withdrawn when round 1 is published, a
drop in round 2 that re-seats its table, an arbiter's final sheet corrected once, a
yellow card and a whist fine given on the discipline form and shown on the player's line, a cut,
a finalist's drop from the final's draft (the next in the standings takes the seat), and
the final. After the finish a correction is refused, on the page and at the service;
``check_tournament``'s checks find nothing wrong; no page scrolls sideways. The players'
deals are recorded through the games service, as their own devices would.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.corrections import correct_deal
from prefscore.games.models import Pulka
from prefscore.games.services import NotAllowed, record_deal
from prefscore.tournaments import entries
from prefscore.tournaments.checks import check
from prefscore.tournaments.models import TableClosure, TournamentEntry, TournamentEvent
from prefscore.tournaments.services import standings
from tests.browser.support import axe_violations, screenshot, sign_in
from tests.web.fixtures_tournaments import (
    close_round,
    enter,
    make_tournament,
    play_round_deals,
    table_deals,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = (
    "Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya",
    "Igor", "Kira", "Lev", "Mila", "Nina", "Oleg",
)  # fmt: skip
NO_SHOW = "Pavel"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
WALL = {"width": 1920, "height": 1080}

WORDS = {
    "ru": {
        "check_in": "Отметить: {name}",
        "draw": "Провести жеребьёвку следующего тура",
        "draft": "Тур {n}: черновик",
        "publish": "Опубликовать и начать столы",
        "absent": "не явился",
        "drop": "Снять: {name}",
        "arbiter": "итоговая запись внесена судьёй",
        "whists": "Висты: {name}",
        "close_button": "Закрыть стол",
        "correct": "Исправить итоговую запись стола {n}",
        "reason": "Причина",
        "correct_button": "Исправить итоговую запись",
        "decisions": "Решения после подведения итогов",
        "cut_size": "Сколько игроков проходит",
        "cut": "Рассадить столы после отсечения",
        "final_draft": "Финал: черновик",
        "finished": "Турнир завершён",
        "final_notice": "Чтобы их изменить, откройте его снова",
        "marks": "1 жёлтая карточка · штраф 10 вистов",
    },
    "en": {
        "check_in": "Check in: {name}",
        "draw": "Draw the next round",
        "draft": "Round {n}: draft",
        "publish": "Publish and start the tables",
        "absent": "absent",
        "drop": "Drop: {name}",
        "arbiter": "final sheet entered by the arbiter",
        "whists": "Whists of {name}",
        "close_button": "Close the table",
        "correct": "Correct the final sheet of table {n}",
        "reason": "Reason",
        "correct_button": "Correct the final sheet",
        "decisions": "Decisions after the results",
        "cut_size": "Players who go through",
        "cut": "Draw the tables after the cut",
        "final_draft": "Final: draft",
        "finished": "Finished on",
        "final_notice": "Reopen it to change them",
        "marks": "1 yellow card · fined 10 whists",
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


def on_every_screen(page: Any, url: str) -> None:
    """The page fits the phone and the laptop alike, with no serious axe violation."""
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(size)
        page.goto(url)
        assert fits(page), (url, size)
    assert axe_violations(page) == []
    page.set_viewport_size(PHONE)


def give(page: Any, form: str, action: str, reason: str, points: str = "") -> None:
    """A card or a fine by the director's discipline form (docs/tournaments.md §4.9)."""
    page.goto(form)
    page.locator(f"input[value={action}]").check()
    if points:
        page.locator("input[name=points]").fill(points)
    page.locator("input[name=reason]").fill(reason)
    assert fits(page)
    page.locator("#discipline-form button[type=submit]").click()
    page.wait_for_url("**#decisions")


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_director_runs_a_tournament_he_can_trust(
    live_server, new_context, presets, screenshot_dir, language
):
    words = WORDS[language]
    locale = "ru-RU" if language == "ru" else "en-US"
    organiser = get_user_model().objects.create_user("director", password="pw-director-1234")
    club = Club.objects.create(name="Cup club", slug="cup")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    players = [Player.objects.create(club=club, name=name) for name in (*NAMES, NO_SHOW)]
    cup = make_tournament(club, "Thirteen", slug="thirteen", table_size=4)
    enter(cup, players)
    for entry in cup.entries.exclude(player__name__in=(NO_SHOW, NAMES[0])):
        entries.move(cup, entry.pk, "check_in", organiser)
    context = new_context(locale=locale, viewport=PHONE, bypass_csp=True)
    sign_in(context, live_server.url, organiser)
    page = context.new_page()
    detail = f"{live_server.url}/tournaments/cup/thirteen/"
    page.goto(detail)

    # The last of the thirteen checks in on the phone; Pavel never comes.
    page.get_by_role("button", name=words["check_in"].format(name=NAMES[0])).click()
    page.locator("#entries").wait_for()

    def draw_and_publish(number: int) -> None:
        page.goto(detail)
        page.get_by_role("button", name=words["draw"]).click()
        page.get_by_role("heading", name=words["draft"].format(n=number)).wait_for()
        assert fits(page)
        page.get_by_role("button", name=words["publish"]).click()
        page.locator(f"#round-{number}").wait_for()

    # Round 1: Pavel, not checked in, is withdrawn as absent, never ranked.
    draw_and_publish(1)
    assert page.locator("#round-1 .pulka-card").count() == 4
    pavel = cup.entries.get(player__name=NO_SHOW)
    assert pavel.state == TournamentEntry.State.ABSENT
    assert words["absent"] in page.locator("#entries").inner_text()
    play_round_deals(cup, 1)
    close_round(cup, 1, organiser)

    # Round 2: a player of the table of 4 drops before its first deal: that table is
    # re-seated, playing short, and keeps its number.
    draw_and_publish(2)
    four = next(p for p in running(cup, 2) if len(p.player_names) == 4)
    number = four.title.rsplit(" ", 1)[1]
    page.get_by_role("button", name=words["drop"].format(name=four.player_names[0])).click()
    # Asked first: the page says what the drop does at the table, and takes the reason.
    page.locator("#leave-form").wait_for()
    page.fill("#id_reason", "went home")
    page.locator("#leave-form button[type=submit]").click()
    page.locator("#entries").wait_for()
    assert sorted(len(p.player_names) for p in running(cup, 2)) == [3, 3, 3, 3]
    reseated = max(running(cup, 2), key=lambda p: p.pk)
    assert reseated.title.endswith(f" {number}")

    # The arbiter enters a table's final sheet, then corrects it once, with a reason.
    play_round_deals(cup, 2)
    three = running(cup, 2)[0]
    table_number = three.title.rsplit(" ", 1)[1]
    page.goto(f"{detail}tables/{three.pk}/close/")
    page.get_by_label(words["arbiter"]).check()
    for name, value in zip(three.player_names, ("20", "-5", "-15"), strict=True):
        page.get_by_label(words["whists"].format(name=name)).fill(value)
    page.get_by_role("button", name=words["close_button"]).click()
    page.locator("#round-2").wait_for()
    page.get_by_role("link", name=words["correct"].format(n=table_number)).click()
    page.get_by_label(words["whists"].format(name=three.player_names[0])).fill("25")
    page.get_by_label(words["whists"].format(name=three.player_names[2])).fill("-20")
    page.get_by_label(words["reason"]).fill("Typo")
    assert fits(page)
    assert axe_violations(page) == []
    page.get_by_role("button", name=words["correct_button"]).click()
    page.locator("#decisions").wait_for()
    assert "Typo" in page.locator("#decisions").inner_text()
    assert TableClosure.objects.get(pulka=three).whists == [25, -5, -20]

    # A card and a fine for a player still playing: the fine on his sheet, both on his line.
    fined_table = running(cup, 2)[0]
    fined = cup.entries.get(player__name=fined_table.player_names[0])
    give(page, f"{detail}entries/{fined.pk}/discipline/", "fine", "Phone", points="10")
    give(page, f"{detail}entries/{fined.pk}/discipline/", "yellow_card", "Late")
    line = page.locator(".entry-list__item", has_text=fined.player.name).first.inner_text()
    assert words["marks"] in line
    assert fits(page)
    kinds = set(cup.events.filter(entry=fined).values_list("action", flat=True))
    assert kinds == {TournamentEvent.Action.FINE, TournamentEvent.Action.YELLOW_CARD}
    close_round(cup, 2, organiser)

    # The cut to a final table of 4; a finalist drops from the final's draft, and the
    # next in the standings takes the seat.
    fifth = [standings(cup).players[line.player].name for line in standings(cup).lines][4]
    on_every_screen(page, detail)
    page.get_by_label(words["cut_size"]).fill("4")
    page.get_by_role("button", name=words["cut"]).click()
    page.get_by_role("heading", name=words["final_draft"]).wait_for()
    final = cup.rounds.get(number=3)
    finalist = cup.entries.get(player_id=int(final.tables[0]["players"][0])).player.name
    page.get_by_role("button", name=words["drop"].format(name=finalist)).click()
    page.locator("#leave-form").wait_for()  # asked first, the reason taken
    page.fill("#id_reason", "went home")
    page.locator("#leave-form button[type=submit]").click()
    page.locator("#entries").wait_for()
    final.refresh_from_db()
    seated = {cup.entries.get(player_id=int(k)).player.name for k in final.tables[0]["players"]}
    assert fifth in seated and finalist not in seated
    page.goto(detail)
    page.get_by_role("button", name=words["publish"]).click()
    page.locator("#round-3").wait_for()

    # The final is played out: the tournament is finished, and says so.
    table = running(cup, 3)[0]
    for index, facts in enumerate(table_deals(table), start=1):
        record_deal(table.pk, facts, None, index)
    close_round(cup, 3, organiser)
    cup.refresh_from_db()
    assert cup.finished
    page.goto(detail)
    assert words["finished"] in page.locator("#finished").inner_text()

    # After the finish a correction is refused: the arbiter's sheet and his correction.
    page.goto(f"{detail}tables/{three.pk}/correct/")
    assert words["final_notice"] in page.locator("main").inner_text()
    with pytest.raises(NotAllowed):
        correct_deal(table.pk, organiser, 1, table_deals(table)[0], arbiter_reason="late")
    assert TableClosure.objects.get(pulka=three).whists == [25, -5, -20]
    assert TournamentEvent.objects.filter(tournament=cup, action="no_show").count() == 1

    # The standings on the phone and the laptop; the projector on the wall.
    on_every_screen(page, f"{detail}standings/")
    names = page.locator(".standings-table tbody th").all_inner_texts()
    assert not any(NO_SHOW in name for name in names)
    screenshot(page, screenshot_dir / f"trust-standings-{language}.png", full_page=True)
    wall = new_context(locale=locale, viewport=WALL, bypass_csp=True)
    sign_in(wall, live_server.url, organiser)
    projector = wall.new_page()
    projector.goto(f"{detail}projector/?show=standings")
    assert fits(projector)
    assert NO_SHOW not in projector.locator(".projector__standings").inner_text()
    assert axe_violations(projector) == []
    screenshot(projector, screenshot_dir / f"trust-projector-{language}.png")
    assert check(cup) == []
