"""A player leaves a qualifying table of 4 after deals (docs/tournaments.md §4.9).

The regulations choose (``Tournament.after_drop``): the table is closed as it stands
(the default), or the other three play on at a sheet of three for the same table,
whose result adds to theirs. Either way the deals played stand, the table keeps its
number, the round counts once, check_tournament finds it sound and the tournament file
carries it back exactly.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from prefscore.clubs.models import Player
from prefscore.games import render_cache
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments import checks, exports, imports, results, services, tables
from prefscore.tournaments.models import TableClosure, Tournament, TournamentEvent
from tests.web.fixtures_tournaments import (
    client_as,
    draw,
    enter,
    make_tournament,
    table_deals,
    url,
)

pytestmark = pytest.mark.django_db


def _play(pulka: Pulka, user: Any, first: int = 1) -> None:
    for number, facts in enumerate(table_deals(pulka), start=first):
        with TestCase.captureOnCommitCallbacks(execute=True):
            record_deal(pulka.pk, facts, user, number)


def _whists(tournament: Tournament) -> dict[str, int]:
    return {line.player: line.whists for line in services.standings(tournament).lines}


def _sheet(pulka: Pulka) -> dict[str, int]:
    row = results.recount([pulka])[0]
    seats = pulka.seats.order_by("seat")
    return {str(s.player_id): w for s, w in zip(seats, row.whists, strict=True)}


def _short(cup: Tournament, four: Pulka) -> Pulka:
    """The sheet of three the table of 4 went on with."""
    at_four = {s.player_id for s in four.seats.all()}
    running = Pulka.objects.filter(tournament=cup, status=Pulka.Status.RUNNING)
    return next(p for p in running if {s.player_id for s in p.seats.all()} < at_four)


def _ten(world: Any, after_drop: str) -> Tournament:
    """Ten players: a table of 4 and two of 3, round 1 published, a deal at the 4."""
    lev = Player.objects.create(club=world.club, name="Lev")
    cup = make_tournament(world.club, "Ten", slug="ten", table_size=4, after_drop=after_drop)
    enter(cup, [*world.players, lev])
    draw(world, cup)
    return cup


def _leave_the_four(world: Any, cup: Tournament) -> tuple[Pulka, str, int]:
    """A deal at the table of 4, then one of its players drops: (table, leaver, number)."""
    four = next(p for p in Pulka.objects.filter(tournament=cup) if len(p.player_names) == 4)
    _play(four, world.users["organiser"])
    number = services.table_numbers(cup.rounds.get(number=1), list(services.live_pulkas(cup)))
    leaver = four.seats.order_by("seat").first()
    entry = cup.entries.get(player_id=leaver.player_id)
    client_as(world, "organiser").post(
        url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "went home"}
    )
    return four, str(leaver.player_id), number[four.pk]


def test_by_default_the_table_of_4_is_closed_as_it_stands(tournament_world):
    cup = _ten(tournament_world, Tournament.AfterDrop.CLOSE)

    four, _leaver, _number = _leave_the_four(tournament_world, cup)

    four.refresh_from_db()
    assert four.status == Pulka.Status.FINISHED
    assert TableClosure.objects.get(pulka=four).reason == TableClosure.Reason.DROP
    assert not Pulka.objects.filter(tournament=cup, status=Pulka.Status.RUNNING).filter(
        seats__player_id__in=[s.player_id for s in four.seats.all()]
    )


def test_the_three_play_on_at_a_sheet_of_three_with_the_same_number(tournament_world):
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, leaver, number = _leave_the_four(tournament_world, cup)
    rest = {str(s.player_id) for s in four.seats.all()} - {leaver}

    four.refresh_from_db()
    assert four.status == Pulka.Status.FINISHED
    assert TableClosure.objects.get(pulka=four).reason == TableClosure.Reason.DROP
    short = _short(cup, four)
    assert {str(s.player_id) for s in short.seats.all()} == rest
    numbers = services.table_numbers(cup.rounds.get(number=1), list(services.live_pulkas(cup)))
    assert numbers[four.pk] == numbers[short.pk] == number
    assert f"table {number}" in short.title
    # The deal passes on: the 4-table's next dealer (after one deal) deals first here.
    seats = [str(s.player_id) for s in four.seats.order_by("seat")]
    next_dealer = seats[(four.first_dealer + 1) % 4]
    if next_dealer == leaver:
        next_dealer = seats[(four.first_dealer + 2) % 4]
    assert (
        short.player_names[short.first_dealer]
        == cup.entries.get(player_id=int(next_dealer)).player.name
    )
    assert cup.entries.get(player_id=int(leaver)).forfeited_round == 1


def test_both_sheets_count_as_one_table_of_the_round(tournament_world):
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, leaver, _number = _leave_the_four(tournament_world, cup)
    short = _short(cup, four)
    four.refresh_from_db()
    short.refresh_from_db()
    first, then = _sheet(four), _sheet(short)

    whists = _whists(cup)
    lines = {line.player: line for line in services.standings(cup).lines}

    for key in then:
        assert whists[key] == first[key] + then[key]
        assert lines[key].rounds == 1
    assert whists[leaver] == first[leaver]
    assert checks.check(cup) == []


def test_the_next_draw_counts_the_three_as_having_met_once(tournament_world):
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, leaver, _number = _leave_the_four(tournament_world, cup)

    past = services.history(list(services.live_pulkas(cup).prefetch_related("seats")))

    assert len(past[0]) == 3  # the table of 4 and the two of 3: the sheet of three met there
    assert checks.check(cup) == []


def _without(data: dict[str, Any]) -> dict[str, Any]:
    data = copy.deepcopy(data)
    data.pop("exported_at")
    data["tournament"].pop("slug")
    for round_ in data["rounds"]:
        round_.pop("drawn_at")
    return data


def test_the_tournament_file_carries_both_sheets_back_exactly(tournament_world):
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, _leaver, number = _leave_the_four(tournament_world, cup)
    data = exports.export_data(cup)
    tables = data["rounds"][0]["tables"]
    assert [t["number"] for t in tables].count(number) == 2
    assert [t.get("continues", False) for t in tables if t["number"] == number] == [False, True]
    assert data["tournament"]["after_drop"] == "play_on"

    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(exports.export_text(cup)), None
    )

    assert _without(exports.export_data(copy_)) == _without(data)
    assert checks.check(copy_) == []


def test_a_file_whose_sheet_of_three_continues_no_table_is_refused(tournament_world):
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    _leave_the_four(tournament_world, cup)
    data = exports.export_data(cup)
    tables = data["rounds"][0]["tables"]
    short = next(t for t in tables if t.get("continues"))
    tables.remove(short)
    tables.insert(0, short)
    import json

    with pytest.raises(imports.ImportRefused, match="continues no closed table of 4"):
        imports.read_file(json.dumps(data, ensure_ascii=False))


@pytest.mark.parametrize(
    ("language", "label", "choice"),
    [
        ("en", "When a player leaves a table of 4 in play", "the other three play on"),
        ("ru", "Когда игрок покидает стол на четверых", "остальные трое играют дальше"),
    ],
)
def test_the_regulations_offer_the_choice_in_both_languages(
    tournament_world, cup, language, label, choice
):
    page = client_as(tournament_world, "organiser", language).get(url("regulations", cup))

    body = page.content.decode()
    assert 'name="after_drop"' in body
    assert label in body and choice in body


@pytest.mark.parametrize("name", ["detail", "room", "projector", "standings", "bracket"])
def test_the_screens_show_the_table_once_playing_under_its_number(tournament_world, name):
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, _leaver, number = _leave_the_four(tournament_world, cup)
    short = _short(cup, four)

    page = client_as(tournament_world, "organiser").get(url(name, cup))

    assert page.status_code == 200
    if name == "room":
        tables = page.context["board"].current.tables
        both = [t.number for t in tables if t.pulka_id in (four.pk, short.pk)]
        assert both == [number, number]


def test_the_organiser_sets_the_choice_and_a_stranger_value_is_refused(tournament_world, cup):
    from tests.web.test_tournament_forfeit import _form

    client = client_as(tournament_world, "organiser")
    odd = client.post(url("regulations", cup), {**_form(cup), "after_drop": "vanish"})
    cup.refresh_from_db()
    assert odd.status_code in (200, 422) and "valid choice" in odd.content.decode()
    assert cup.after_drop == Tournament.AfterDrop.CLOSE

    client.post(url("regulations", cup), {**_form(cup), "after_drop": "play_on"})

    cup.refresh_from_db()
    assert cup.after_drop == Tournament.AfterDrop.PLAY_ON
    summary = client.get(url("detail", cup)).content.decode()
    assert "the other three play on at a sheet of three" in summary


def test_leaving_the_sheet_of_three_before_its_first_deal_is_a_forfeit_and_closes_it(
    tournament_world,
):
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, _leaver, _number = _leave_the_four(tournament_world, cup)
    short = _short(cup, four)
    second = cup.entries.get(player_id=short.seats.order_by("seat").first().player_id)

    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=second.pk), {"action": "drop", "reason": "went home"}
    )

    short.refresh_from_db()
    second.refresh_from_db()
    assert short.status == Pulka.Status.FINISHED
    assert second.forfeited_round == 1
    assert checks.check(cup) == []


def test_the_floor_card_waits_for_the_end_of_the_round_at_the_sheet_of_three(tournament_world):
    """The regulations' floor (§4.9) is the round's whists: the three's first sheet alone
    gives no card; their sheet, once over, counts with it."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four = next(p for p in Pulka.objects.filter(tournament=cup) if len(p.player_names) == 4)
    _play(four, tournament_world.users["organiser"])
    sheet = _sheet(four)
    leaver = four.seats.order_by("seat").first()
    lowest = min(v for k, v in sheet.items() if k != str(leaver.player_id))
    Tournament.objects.filter(pk=cup.pk).update(round_floor=min(lowest + 1, 0))
    if lowest + 1 > 0:
        pytest.skip("nobody of the three is below zero after this deal")
    entry = cup.entries.get(player_id=leaver.player_id)
    organiser = tournament_world.users["organiser"]
    client_as(tournament_world, "organiser").post(
        url("entry_state", cup, entry=entry.pk), {"action": "drop", "reason": "went home"}
    )
    cards = TournamentEvent.objects.filter(tournament=cup, action="yellow_card")
    assert not cards.exclude(entry=entry).exists()

    tables.close_table(_short(cup, four).pk, cup, TableClosure.Reason.TIME, organiser)

    below = {str(e.entry.player_id) for e in cards.exclude(entry=entry)}
    assert below == {k for k, v in sheet.items() if k != str(leaver.player_id) and v < lowest + 1}


@pytest.mark.parametrize("htmx", [False, True])
def test_my_table_now_leads_one_of_the_three_to_the_sheet_of_three(tournament_world, htmx):
    """Both sheets show under the table's number; a player of the three is sent to the
    running sheet of three, not to the closed sheet of four with the leaver (§4.9)."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, leaver, number = _leave_the_four(tournament_world, cup)
    short = _short(cup, four)
    stays = short.seats.order_by("seat").first().player
    Player.objects.filter(pk=stays.pk).update(user=tournament_world.users["member"])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    page = client_as(tournament_world, "member").get(url("my_table", cup), **headers)

    assert page.status_code == 200
    mine = page.context["mine"]
    assert (mine.table.pulka_id, mine.table.number) == (short.pk, number)
    leaver_name = cup.entries.get(player_id=int(leaver)).player.name
    assert leaver_name not in mine.others and len(mine.others) == 2
    assert f"/{short.pk}/" in page.content.decode()


@pytest.mark.parametrize("name", ["regulations", "create"])
def test_the_choices_that_are_sentences_are_radios_named_by_their_legend(
    tournament_world, cup, name
):
    """A phone's select cut "остальные трое играют дальше на новой пульке втроём; …"
    after a few words: each choice is a radio whose whole sentence wraps, and the
    group is a fieldset its legend names."""
    where = url(name, cup) if name == "regulations" else f"/tournaments/{cup.club.slug}/new/"

    body = client_as(tournament_world, "organiser", "ru").get(where).content.decode()

    for field, legend in (
        ("after_drop", "Когда игрок покидает стол на четверых во время игры"),
        ("at_time", "Когда время вышло"),
    ):
        assert f'<select name="{field}"' not in body
        assert body.count(f'type="radio" name="{field}"') == 2
        group = body[body.rindex("<fieldset", 0, body.index(f'name="{field}"')) :]
        assert group.index(f"<legend>{legend}:</legend>") < group.index(f'name="{field}"')


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "the three play on after a drop"), ("ru", "трое играют дальше после выбытия")],
)
def test_the_detail_page_says_which_of_the_two_sheets_the_three_play_on(
    tournament_world, language, words
):
    """Both sheets show as "Table n" (§4.9): the sheet of three says it plays on."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, _leaver, _number = _leave_the_four(tournament_world, cup)
    short = _short(cup, four)

    body = client_as(tournament_world, "organiser", language).get(url("detail", cup))
    body = body.content.decode()

    assert body.count(words) == 1
    card = body[body.index(f'href="{reverse("games:sheet", args=[short.pk])}"') :]
    assert card.index(words) < card.index("</a>")


# --- the two sheets of a table played on short name each other (§4.9) -----------------

WORDS = {
    "en": {
        "continued": "Ten · round 1 · table {n}, continued",
        "first": "Ten · round 1 · table {n}",
        "on_three": "Table {n} continued after a player left; the first sheet:",
        "on_four": "The three play on at a new sheet:",
        "both": "Both sheets count for the round.",
    },
    "ru": {
        "continued": "Ten · тур 1 · стол {n}, продолжение",
        "first": "Ten · тур 1 · стол {n}",
        "on_three": "Продолжение стола {n} после выбытия игрока; первый лист —",
        "on_four": "Трое доигрывают на новом листе —",
        "both": "Оба листа идут в зачёт тура.",
    },
}


def _sheet_page(world: Any, pulka: Pulka, language: str, htmx: bool) -> str:
    """The sheet page, or with htmx a poll of an older version: its regions."""
    client = client_as(world, "organiser", language)
    if htmx:
        address = reverse("games:poll", args=[pulka.pk]) + f"?v={pulka.version - 1}"
        answer = client.get(address, headers={"HX-Request": "true"})
    else:
        answer = client.get(reverse("games:sheet", args=[pulka.pk]))
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_sheet_of_three_is_titled_as_the_tables_continuation(tournament_world, language):
    """Worded in the request's language from the pulka's parts (games/titles.py): the
    sheet of three says it continues the table; the first sheet keeps its title."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four, _leaver, number = _leave_the_four(tournament_world, cup)
    short = _short(cup, four)
    four.refresh_from_db()
    words = WORDS[language]

    body = client_as(tournament_world, "organiser", language)
    three = body.get(reverse("games:sheet", args=[short.pk])).content.decode()
    first = body.get(reverse("games:sheet", args=[four.pk])).content.decode()

    assert f"<bdi>{words['continued'].format(n=number)}</bdi>" in three
    assert f"<bdi>{words['first'].format(n=number)}</bdi>" in first
    assert short.title_parts["continues"] == four.pk
    assert four.title_parts["continued_by"] == short.pk


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_of_the_two_sheets_links_to_the_other_and_says_both_count(
    tournament_world, language, htmx
):
    """In the status line, shared by every viewer of a version: the first sheet's open
    devices see it at their next poll, since the closing moves its version."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four = next(p for p in Pulka.objects.filter(tournament=cup) if len(p.player_names) == 4)
    before = _sheet_page(tournament_world, four, language, htmx=False)  # kept in the cache
    four, _leaver, number = _leave_the_four(tournament_world, cup)
    four.refresh_from_db()
    short = _short(cup, four)
    words = WORDS[language]

    three = _sheet_page(tournament_world, short, language, htmx)
    first = _sheet_page(tournament_world, four, language, htmx)

    assert words["on_four"] not in before and words["both"] not in before
    status = three[three.index('id="status"') :]
    status = status[: status.index("</p>")]
    assert words["on_three"].format(n=number) in status and words["both"] in status
    assert f'href="{reverse("games:sheet", args=[four.pk])}"' in status
    status = first[first.index('id="status"') :]
    status = status[: status.index("</p>")]
    assert words["on_four"] in status and words["both"] in status
    assert f'href="{reverse("games:sheet", args=[short.pk])}"' in status


def test_the_region_key_covers_the_link_to_the_other_sheet(tournament_world):
    """A link set without moving the version still names new keys (render_cache)."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    pulka = Pulka.objects.filter(tournament=cup).first()
    before = render_cache.pulka_key(pulka)

    pulka.title_parts = {**pulka.title_parts, "continued_by": pulka.pk + 1}

    assert render_cache.pulka_key(pulka) != before


@pytest.mark.parametrize(
    ("language", "action", "words"),
    [
        ("ru", "drop", "закрыт, выбытие: {name} — штраф по §4.9"),
        ("en", "drop", "closed: {name} left, a forfeit (§4.9)"),
        ("ru", "disqualify", "закрыт, дисквалификация: {name} — штраф по §4.9"),
    ],
)
def test_the_closed_card_names_who_left_and_his_forfeit(tournament_world, language, action, words):
    """The first sheet's card says who left and that it cost him the round (§4.9)."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    four = next(p for p in Pulka.objects.filter(tournament=cup) if len(p.player_names) == 4)
    _play(four, tournament_world.users["organiser"])
    leaver = four.seats.order_by("seat").first()
    entry = cup.entries.get(player_id=leaver.player_id)
    organiser = client_as(tournament_world, "organiser", language)
    organiser.post(
        url("entry_state", cup, entry=entry.pk), {"action": action, "reason": "the test"}
    )

    body = organiser.get(url("detail", cup)).content.decode()

    card = body[body.index(f'href="{reverse("games:sheet", args=[four.pk])}"') :]
    card = card[: card.index("</a>")].replace("\xa0", " ")  # "по\xa0§4.9" never splits
    assert words.format(name=leaver.player.name) in card


# --- the regulations in short, as its 390 px screenshots showed them --------------------


@pytest.mark.parametrize("page", ["detail", "print_standings"])
def test_the_regulations_write_a_negative_floor_with_a_minus_sign(tournament_world, page):
    """A floor of −1000 as every figure of the site: a true minus, not a hyphen."""
    cup = make_tournament(tournament_world.club, "Floor", slug="floor", round_floor=-1000)

    body = client_as(tournament_world, "organiser", "ru").get(url(page, cup)).content.decode()

    assert "\u22121000" in body.replace("\xa0", "")
    assert "-1000" not in body


def test_an_imported_table_played_on_short_links_its_two_sheets(tournament_world):
    """The round trip's copy titles and links its sheets as the drop did (games/titles.py)."""
    cup = _ten(tournament_world, Tournament.AfterDrop.PLAY_ON)
    _leave_the_four(tournament_world, cup)

    copy_ = imports.import_tournament(
        tournament_world.club, imports.read_file(exports.export_text(cup)), None
    )

    (later, first), *_ = results.continued(copy_.rounds.all()).items()
    three, four = Pulka.objects.get(pk=later), Pulka.objects.get(pk=first)
    assert three.title_parts["continues"] == four.pk
    assert four.title_parts["continued_by"] == three.pk
    assert str(three).endswith(", continued") and not str(four).endswith(", continued")
