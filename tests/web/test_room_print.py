"""The printables (docs/tournaments.md §6.2): seating by table and alphabetically, table
cards, standings, and the blank protocol with the Кодекс 4.2.11 column; organisers only."""

from __future__ import annotations

import re

import pytest

from prefscore.games.models import Pulka
from prefscore.tournaments import checkin
from prefscore.tournaments.presenters import printables
from tests.web.fixtures_tournaments import HTMX, client_as, draw, enter, make_tournament, url

pytestmark = pytest.mark.django_db

PRINTABLES = ("print_seating", "print_cards", "print_standings", "print_protocol")


@pytest.fixture
def drawn(tournament_world, cup):
    draw(tournament_world, cup)
    return cup


def page(world, name, tournament, role="organiser", **headers):
    response = client_as(world, role).get(url(name, tournament), headers=headers or None)
    assert response.status_code == 200
    return response.content.decode()


def seats(tournament) -> list[list[str]]:
    pulkas = Pulka.objects.filter(tournament=tournament).order_by("pk")
    return [[s.player.name for s in p.seats.order_by("seat")] for p in pulkas]


def test_the_seating_lists_each_table_and_every_player_by_name(tournament_world, drawn):
    body = page(tournament_world, "print_seating", drawn)

    tables = seats(drawn)
    assert body.count('class="print-tables__table"') == 3
    by_name = re.findall(
        r'<tr><th scope="row"><bdi>([^<]+)</bdi></th><td>(\d+)</td><td>(\d+)</td></tr>', body
    )
    expected = sorted(
        (name, str(t), str(s))
        for t, names in enumerate(tables, start=1)
        for s, name in enumerate(names, start=1)
    )
    assert by_name == expected
    assert "printable__section--new-page" in body


def test_each_table_gets_a_card(tournament_world, drawn):
    body = page(tournament_world, "print_cards", drawn)

    assert body.count('class="table-card"') == 3
    for number, names in enumerate(seats(drawn), start=1):
        assert f'id="card-{number}">Table {number}</h2>' in body
        assert "".join(f"<li><bdi>{name}</bdi></li>" for name in names) in body


def test_the_standings_print_every_player(tournament_world, drawn):
    body = page(tournament_world, "print_standings", drawn)

    assert body.count('<th scope="row">') == 9


def test_a_protocol_per_table_with_the_game_and_result_column(tournament_world, drawn):
    body = page(tournament_world, "print_protocol", drawn)

    assert body.count('class="protocol-sheet"') == 3
    assert body.count("Кодекс 4.2.11") == 3
    assert "6/= made, 8/−1 one down" in body
    # the cup plays 4 deals a round: four rows per sheet; per player pulya, gora and
    # the whists on each of the two others
    first = body[body.index('class="protocol-sheet"') : body.index("</article>")]
    assert len(re.findall(r'<tr><th scope="row">\d+</th>', first)) == 4
    assert first.count('class="protocol-grid__sub"') == 12
    assert all(name in first for name in seats(drawn)[0])


def test_a_blank_protocol_before_any_round(tournament_world):
    tournament = make_tournament(tournament_world.club, slug="blank", deals_per_round=None)

    sheets = printables.protocols(tournament).sheets

    assert len(sheets) == 1 and sheets[0].names == ("", "", "")
    assert len(sheets[0].rows) == printables.PROTOCOL_ROWS_WITHOUT_LIMIT


def test_the_printables_before_any_round_say_so(tournament_world, cup):
    """The cards too, when nobody is entered yet to check in (else: the check-in cards)."""
    empty = make_tournament(tournament_world.club, "Empty", slug="empty")
    assert "No round has been drawn yet." in page(tournament_world, "print_seating", cup)
    assert "No round has been drawn yet." in page(tournament_world, "print_cards", empty)


@pytest.mark.parametrize("name", PRINTABLES)
def test_a_printable_is_the_same_page_to_htmx(tournament_world, drawn, name):
    assert "<html" in page(tournament_world, name, drawn, **HTMX)


@pytest.mark.parametrize("name", PRINTABLES)
@pytest.mark.parametrize(
    ("role", "status"), [("member", 403), ("outsider", 403), ("anonymous", 302)]
)
def test_only_organisers_print(tournament_world, drawn, name, role, status):
    response = client_as(tournament_world, role).get(url(name, drawn))

    assert response.status_code == status


@pytest.mark.parametrize("name", PRINTABLES)
def test_the_printables_answer_only_get(tournament_world, drawn, name):
    assert client_as(tournament_world, "organiser").post(url(name, drawn)).status_code == 405


def test_an_unknown_tournament_has_no_printables(tournament_world, drawn):
    path = url("print_cards", drawn).replace("spring-cup", "nope")

    assert client_as(tournament_world, "organiser").get(path).status_code == 404


def test_before_round_one_each_table_card_carries_the_check_in_code(tournament_world, cup):
    response = client_as(tournament_world, "organiser").get(url("print_cards", cup))

    body = response.content.decode()
    assert body.count('class="table-card"') == 3  # nine players at tables of 3
    assert body.count('class="qr__code"') == 3
    link = response.context["checkin_qr"].url
    token = checkin.token(cup)
    assert link.endswith(f"/tournaments/cup/{cup.slug}/check-in/{token}/")
    assert "Check in: scan this code" in body


def test_a_field_the_plan_cannot_seat_yet_still_gets_a_card_per_table(tournament_world):
    ten = make_tournament(tournament_world.club, "Ten", slug="ten")
    extra = tournament_world.players[0].club.players.create(name="Lev")
    enter(ten, [*tournament_world.players, extra])

    body = page(tournament_world, "print_cards", ten)

    assert body.count('class="qr__code"') == 4


def test_once_round_one_is_out_the_cards_are_the_tables_without_a_code(tournament_world, drawn):
    body = page(tournament_world, "print_cards", drawn)

    assert body.count('class="table-card"') == 3
    assert 'class="qr__code"' not in body
