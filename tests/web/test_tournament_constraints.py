"""Seating constraints in the UI (docs/tournaments.md §4.3): pairs kept apart in every
qualifying draw, and clubmates apart in round 1; the engine takes ``forbidden=`` and
``clubs=``, and the web now passes them."""

from __future__ import annotations

import itertools

import pytest

from prefscore.tournaments.models import Round
from tests.web.fixtures_tournaments import HTMX, client_as, close_round, draw, draw_draft, url

pytestmark = pytest.mark.django_db


def player_id(cup, name):
    return cup.entries.get(player__name=name).player_id


def draft_tables(cup, number=1):
    return [set(map(int, t["players"])) for t in cup.rounds.get(number=number).tables]


def together(tables, a, b):
    return any(a in table and b in table for table in tables)


@pytest.mark.parametrize("htmx", [False, True])
def test_a_pair_kept_apart_never_sits_together_in_any_draw(tournament_world, cup, htmx):
    client = client_as(tournament_world, "organiser")
    assert url("constraints", cup) in client.get(url("detail", cup)).content.decode()
    # Without the constraint the seed seats the first table's first two together.
    draw_draft(tournament_world, cup)
    first = sorted(draft_tables(cup)[0])
    client.post(url("discard_round", cup, number=1))
    a, b = first[0], first[1]

    response = client.post(
        url("constraints", cup),
        {"action": "forbid", "first": a, "second": b},
        headers=HTMX if htmx else {},
    )

    assert response.status_code in (200, 302)
    cup.refresh_from_db()
    assert cup.forbidden_pairs == [sorted([a, b])]
    for number in (1, 2, 3):
        draw(tournament_world, cup)
        assert not together(draft_tables(cup, number), a, b)
        close_round(cup, number)
    page = client.get(url("constraints", cup)).content.decode()
    assert "Let sit together" in page


def test_clubmates_are_kept_apart_in_round_1(tournament_world, cup):
    client = client_as(tournament_world, "organiser")
    entries = list(cup.entries.order_by("pk"))
    clubs = ["Vyborg", "Vyborg", "Vyborg", "Luga", "Luga", "Luga", "", "", ""]
    data = {"action": "clubs"} | {f"club_{e.pk}": c for e, c in zip(entries, clubs, strict=True)}

    assert client.post(url("constraints", cup), data).status_code == 302
    draw_draft(tournament_world, cup)

    tables = draft_tables(cup)
    for club in ("Vyborg", "Luga"):
        mates = [e.player_id for e, c in zip(entries, clubs, strict=True) if c == club]
        assert not any(together(tables, a, b) for a, b in itertools.combinations(mates, 2))
    assert "Vyborg" in client.get(url("detail", cup)).content.decode()


def test_refusals_and_a_draw_that_cannot_keep_the_pairs_apart(tournament_world, cup):
    client = client_as(tournament_world, "organiser", language="ru")
    anna, boris, vera = (player_id(cup, n) for n in ("Anna", "Boris", "Vera"))

    same = client.post(url("constraints", cup), {"action": "forbid", "first": anna, "second": anna})
    foreign = client.post(
        url("constraints", cup), {"action": "forbid", "first": "١", "second": anna}
    )
    unknown = client.post(url("constraints", cup), {"action": "shout"}, headers=HTMX)
    assert "двух разных игроков" in same.content.decode()
    assert foreign.context["pair_form"].errors["first"]
    assert unknown.status_code == 200 and unknown.context["error"]
    cup.refresh_from_db()
    assert cup.forbidden_pairs == []

    # Nine players at three tables: Anna kept from all of 6 others cannot be seated.
    others = list(cup.entries.exclude(player_id=anna).values_list("player_id", flat=True))
    for other in others[:7]:
        client.post(url("constraints", cup), {"action": "forbid", "first": anna, "second": other})
    response = client.post(url("draw", cup), headers=HTMX)
    assert not cup.rounds.filter(status=Round.Status.DRAFT).exists()
    assert "разведённых" in response.content.decode()

    client.post(url("constraints", cup), {"action": "allow", "first": anna, "second": others[0]})
    cup.refresh_from_db()
    assert len(cup.forbidden_pairs) == 6 and boris != vera


def test_constraints_are_the_organisers(tournament_world, cup):
    data = {"action": "clubs"}
    member = client_as(tournament_world, "member")
    assert member.get(url("constraints", cup)).status_code == 403
    assert member.post(url("constraints", cup), data).status_code == 403
    organiser = client_as(tournament_world, "organiser")
    assert organiser.put(url("constraints", cup)).status_code == 405
    csrf = client_as(tournament_world, "organiser", enforce_csrf_checks=True)
    assert csrf.post(url("constraints", cup), data).status_code == 403
