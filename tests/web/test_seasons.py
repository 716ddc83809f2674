"""The season pages and the stored table, through the views (docs/seasons.md)."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.urls import reverse

from prefscore.deferred.worker import run_due
from prefscore.seasons import standings
from prefscore.seasons.coefficients import field_name
from prefscore.seasons.models import PolicyChange, Season, SeasonLine
from tests.web.fixtures_table import EN, HTMX
from tests.web.season_fixtures import DAY, play_series

pytestmark = pytest.mark.django_db

RU = {"accept-language": "ru"}


def make_season(club, **policy) -> Season:
    defaults = {
        "name": "Spring series",
        "slug": "spring",
        "starts_on": DAY,
        "ends_on": DAY + datetime.timedelta(days=60),
        "aggregate": "best",
        "best_n": 4,
        "minimum": 3,
        "coefficients": {"sochi": "2"},
        "tie_breaks": ["best_result", "attended"],
    }
    return Season.objects.create(club=club, **{**defaults, **policy})


def table_url(season: Season) -> str:
    return reverse("seasons:table", args=[season.club.slug, season.slug])


def shown_table(response) -> list[tuple]:
    return [(row.rank, row.name, row.total) for row in response.context["rows"]]


HAND_WORKED = [
    (1, "Bella", "10,50"),
    (2, "Cyril", "9"),
    (3, "Alla", "9"),
    (4, "Dima", "8"),
    (5, "Egor", "1,50"),
    (None, "Xenia", "1"),
]


def test_the_six_evening_series_shows_the_hand_worked_table(access_world, client_as):
    """Best 4 of 6, minimum 3, Sochi ×2, tables of 3 and 4 (worked in tests/engine/test_season.py)."""
    season = make_season(access_world.club)
    play_series(access_world.club)
    standings.refresh(season)

    response = client_as("member").get(table_url(season), headers=RU)

    assert response.status_code == 200
    assert shown_table(response) == HAND_WORKED
    page = response.content.decode()
    assert "ещё 2 события до места" in page
    xenia = SeasonLine.objects.get(season=season, player__name="Xenia")
    assert xenia.needed == 2


def test_a_player_line_shows_what_best_n_drops(access_world, client_as):
    season = make_season(access_world.club)
    play_series(access_world.club)
    standings.refresh(season)
    cyril = SeasonLine.objects.get(season=season, player__name="Cyril")
    url = reverse("seasons:player", args=["home", "spring", cyril.player_id])

    response = client_as("member").get(url, headers=EN)

    assert response.status_code == 200
    events = response.context["row"].events
    assert [(e.points, e.counts) for e in events] == [
        ("1", True),
        ("4", True),
        ("2", True),
        ("2", True),
        ("0", False),
    ]
    assert "dropped (not among the best)" in response.content.decode()
    partial = client_as("member").get(url, headers=HTMX)
    assert partial.status_code == 200
    assert b'id="season-line"' in partial.content and b"<html" not in partial.content


def test_the_table_as_an_htmx_region(access_world, client_as):
    season = make_season(access_world.club)
    play_series(access_world.club)
    standings.refresh(season)
    response = client_as("member").get(table_url(season), headers=HTMX)
    assert response.status_code == 200
    assert b'id="season-standings"' in response.content and b"<html" not in response.content


@pytest.mark.parametrize(
    ("role", "public", "status"),
    [
        ("anonymous", False, 302),
        ("outsider", False, 403),
        ("member", False, 200),
        ("anonymous", True, 200),
        ("outsider", True, 200),
    ],
)
def test_who_reads_the_table(access_world, client_as, role, public, status):
    season = make_season(access_world.club, public=public)
    response = client_as(role).get(table_url(season), headers=EN)
    assert response.status_code == status


def test_an_unknown_season_or_player_is_404(access_world, client_as):
    season = make_season(access_world.club)
    member = client_as("member")
    assert member.get(reverse("seasons:table", args=["home", "nope"])).status_code == 404
    url = reverse("seasons:player", args=["home", season.slug, 999999])
    assert member.get(url).status_code == 404


def test_the_table_refuses_post(access_world, client_as):
    season = make_season(access_world.club)
    assert client_as("member").post(table_url(season)).status_code == 405


def test_the_archive_lists_public_seasons_to_outsiders(access_world, client_as):
    make_season(access_world.club, public=True)
    make_season(access_world.club, slug="autumn", name="Autumn league")
    url = reverse("seasons:archive", args=["home"])
    listed = client_as("member").get(url).context["seasons"]
    assert [s.slug for s in listed] == ["autumn", "spring"]
    assert [s.slug for s in client_as("anonymous").get(url).context["seasons"]] == ["spring"]
    partial = client_as("member").get(url, headers=HTMX)
    assert b'id="seasons"' in partial.content and b"<html" not in partial.content


def test_the_archive_of_a_club_without_a_public_season_is_members_only(access_world, client_as):
    make_season(access_world.club, slug="autumn", name="Autumn league")
    url = reverse("seasons:archive", args=["home"])

    anonymous = client_as("anonymous").get(url)
    outsider = client_as("outsider")
    outsider.raise_request_exception = False
    refused = outsider.get(url)

    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert refused.status_code == 403
    assert access_world.club.name not in refused.content.decode()
    assert client_as("member").get(url).status_code == 200


FORM = {
    "name": "Summer series",
    "slug": "summer",
    "starts_on": "2026-06-01",
    "ends_on": "2026-08-31",
    "regulations": "Best 8 of 10.",
    "evenings": "all",
    "measure": "places",
    "aggregate": "best",
    "best_n": "8",
    "minimum": "3",
    field_name("rostov"): "4/3",
    field_name("sochi"): "2",
    "first_tie_break": "best_result",
    "second_tie_break": "wins",
}


def test_an_organiser_creates_a_season(access_world, client_as):
    url = reverse("seasons:create", args=["home"])
    assert client_as("organiser").get(url, headers=EN).status_code == 200

    response = client_as("organiser").post(url, FORM, headers=EN)

    assert response.status_code == 302
    season = Season.objects.get(club=access_world.club, slug="summer")
    assert season.coefficients == {"rostov": "4/3", "sochi": "2"}
    assert season.tie_breaks == ["best_result", "wins"]
    assert season.created_by == access_world.users["organiser"]


def test_a_season_without_a_short_name_gets_one_from_its_name(access_world, client_as):
    """As a club's: the organiser need not invent a link name, and two seasons of one
    name get two links (found walking the form on a phone: the field was required)."""
    url = reverse("seasons:create", args=["home"])
    nameless = {**FORM, "name": "Зима 2026–27", "slug": ""}

    first = client_as("organiser").post(url, nameless, headers=RU)
    second = client_as("organiser").post(url, nameless, headers=RU)

    assert first.status_code == second.status_code == 302
    slugs = list(
        Season.objects.filter(club=access_world.club).order_by("pk").values_list("slug", flat=True)
    )
    assert slugs == ["zima-202627", "zima-202627-2"]
    assert first["Location"].endswith("/zima-202627/")


def test_the_form_says_when_the_club_has_no_tournament_to_choose(access_world, client_as):
    from tests.web.fixtures_tournaments import make_tournament

    url = reverse("seasons:create", args=["home"])
    empty = client_as("organiser").get(url, headers=RU).content.decode()
    make_tournament(access_world.club, name="Spring cup", slug="spring-cup")
    listed = client_as("organiser").get(url, headers=RU).content.decode()

    assert "У клуба пока нет турниров" in empty
    assert "У клуба пока нет турниров" not in listed and "Spring cup" in listed


def test_the_tournaments_chosen_on_the_form_are_the_seasons(access_world, client_as):
    """Found by the browser test: the form's tournaments were never saved."""
    from tests.web.fixtures_tournaments import make_tournament

    cup = make_tournament(access_world.club, name="Spring cup", slug="spring-cup")
    url = reverse("seasons:create", args=["home"])

    response = client_as("organiser").post(url, {**FORM, "tournaments": [cup.pk]}, headers=EN)

    assert response.status_code == 302
    season = Season.objects.get(club=access_world.club, slug="summer")
    assert list(season.tournaments.all()) == [cup]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({field_name("rostov"): "four"}, field_name("rostov"), "must be a number"),
        ({field_name("rostov"): "0"}, field_name("rostov"), "above zero"),
        ({field_name("rostov"): "1/0"}, field_name("rostov"), "must be a number"),
        ({"best_n": "0"}, "best_n", "at least 1"),
        ({"ends_on": "2026-05-01"}, "ends_on", "cannot come before"),
        ({"second_tie_break": "best_result"}, "second_tie_break", "two different"),
        ({"slug": "new"}, "slug", "short name"),
        ({"yellow_cards_limit": "0"}, "yellow_cards_limit", "At least one yellow card"),
    ],
)
def test_bad_input_is_refused_next_to_the_field(access_world, client_as, change, field, message):
    url = reverse("seasons:create", args=["home"])
    response = client_as("organiser").post(url, {**FORM, **change}, headers=HTMX)
    assert response.status_code == 422 or response.status_code == 200
    errors = response.context["form"].errors[field]
    assert any(message in error for error in errors)
    assert not Season.objects.filter(slug=FORM["slug"]).exists()


def test_a_russian_error_reaches_a_russian_page(access_world, client_as):
    url = reverse("seasons:create", args=["home"])
    response = client_as("organiser").post(url, {**FORM, field_name("rostov"): "0"}, headers=RU)
    assert "выше нуля" in response.content.decode()


@pytest.mark.parametrize(
    ("role", "status"), [("anonymous", 302), ("member", 403), ("outsider", 403)]
)
def test_only_organisers_change_seasons(access_world, client_as, role, status):
    season = make_season(access_world.club)
    url = reverse("seasons:edit", args=["home", season.slug])
    assert client_as(role).post(url, FORM).status_code == status
    assert not Season.objects.filter(slug="summer").exists()


def test_the_form_needs_the_csrf_token(access_world, client_as):
    url = reverse("seasons:create", args=["home"])
    client = client_as("organiser", enforce_csrf_checks=True)
    assert client.post(url, FORM).status_code == 403
    assert not Season.objects.exists()


def test_the_policy_freezes_at_the_first_event_and_changes_are_logged(access_world, client_as):
    season = make_season(access_world.club)
    url = reverse("seasons:edit", args=["home", season.slug])
    edit = {**FORM, "slug": "spring", "starts_on": "2026-05-01", "ends_on": "2026-07-01"}
    client_as("organiser").post(url, edit)
    assert not PolicyChange.objects.exists()  # nothing counts yet: changed freely
    season.refresh_from_db()
    assert season.policy_frozen_at is None

    play_series(access_world.club)
    standings.refresh(season)
    season.refresh_from_db()
    assert season.policy_frozen_at is not None

    client_as("organiser").post(url, {**edit, "best_n": "4"})
    change = PolicyChange.objects.get(season=season)
    assert (change.field, change.before, change.after) == ("best_n", "8", "4")
    assert change.changed_by == access_world.users["organiser"]
    assert SeasonLine.objects.get(season=season, player__name="Cyril").total == "9"
    page = client_as("member").get(table_url(season), headers=EN).content.decode()
    assert "Changes of the standings policy" in page and "best_n: 8 → 4" in page


def test_check_season_agrees_then_finds_a_difference(access_world, capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    season = make_season(access_world.club)
    play_series(access_world.club)
    standings.refresh(season)
    call_command("check_season", "home/spring")
    assert "agrees with its sheets" in capsys.readouterr().out
    SeasonLine.objects.filter(season=season, player__name="Alla").update(total="12")
    with pytest.raises(SystemExit) as stopped:
        call_command("check_season", "home/spring")
    assert stopped.value.code == 1
    assert "Alla: total stored 12, recounted" in capsys.readouterr().out


def test_check_season_names_an_unknown_season(access_world, monkeypatch):
    from django.core.management.base import CommandError

    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    with pytest.raises(CommandError, match="nope") as refused:
        call_command("check_season", "home/nope")
    assert refused.value.returncode == 2


@pytest.mark.parametrize("evenings", [2, 6])
def test_the_table_reads_in_the_same_queries_at_any_size(
    access_world, client_as, django_assert_num_queries, evenings
):
    season = make_season(access_world.club)
    play_series(access_world.club, evenings)
    standings.refresh(season)
    client = client_as("member")
    client.get(table_url(season))  # the session, warmed
    with django_assert_num_queries(QUERIES):
        client.get(table_url(season))


# A fixed number: the same at 2 and 6 evenings, 5 and 6 players (two: is a recount of the
# club, is a count of the season waiting).
QUERIES = 10


def test_the_top_three_and_a_wildcard_enter_the_final_seeded_by_the_table(access_world, client_as):
    """docs/seasons.md §9, on the hand-worked series: Bella, Cyril, Alla, then Xenia."""
    from prefscore.clubs.models import Player
    from prefscore.seasons.models import Qualification
    from prefscore.tournaments.models import TournamentEntry
    from tests.web.fixtures_tournaments import make_tournament

    season = make_season(access_world.club)
    play_series(access_world.club)
    standings.refresh(season)
    url = reverse("seasons:qualify", args=["home", season.slug])
    xenia = Player.objects.get(club=access_world.club, name="Xenia")

    refused = client_as("organiser").post(url, {"top": "3"}, headers=EN)
    assert any("final first" in e for e in refused.context["form"].non_field_errors())
    assert not Qualification.objects.exists()

    season.final = make_tournament(access_world.club, name="Final")
    season.save()
    assert client_as("organiser").get(url, headers=HTMX).status_code == 200
    response = client_as("organiser").post(url, {"top": "3", "wildcards": [xenia.pk]})

    assert response.status_code == 302
    seeded = Qualification.objects.filter(season=season).order_by("seed")
    assert [(q.player.name, q.seed, q.wildcard) for q in seeded] == [
        ("Bella", 1, False),
        ("Cyril", 2, False),
        ("Alla", 3, False),
        ("Xenia", 4, True),
    ]
    entered = TournamentEntry.objects.filter(tournament=season.final)
    assert sorted(entered.values_list("player__name", flat=True)) == [
        "Alla",
        "Bella",
        "Cyril",
        "Xenia",
    ]
    assert seeded[0].chosen_by == access_world.users["organiser"]


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("anonymous", 302)])
def test_only_organisers_qualify(access_world, client_as, role, status):
    season = make_season(access_world.club)
    url = reverse("seasons:qualify", args=["home", season.slug])
    assert client_as(role).post(url, {"top": "3"}).status_code == status


def test_qualifying_a_negative_top_is_refused(access_world, client_as):
    season = make_season(access_world.club)
    url = reverse("seasons:qualify", args=["home", season.slug])
    response = client_as("organiser").post(url, {"top": "-1"}, headers=HTMX)
    assert response.context["form"].errors["top"]


def test_the_table_as_csv_and_json(access_world, client_as):
    import csv
    import io
    import json

    season = make_season(access_world.club, public=True)
    play_series(access_world.club)
    standings.refresh(season)
    reader = client_as("anonymous")
    response = reader.get(reverse("seasons:csv", args=["home", season.slug]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["rank", "player", "total", "total_exact", "played", "counted", "needed"]
    assert rows[1] == ["1", "Bella", "10.5", "'21/2", "4", "4", "0"]  # a date never
    assert rows[-1] == ["", "Xenia", "1", "1", "1", "1", "2"]
    data = json.loads(reader.get(reverse("seasons:json", args=["home", season.slug])).content)
    cyril = next(line for line in data["lines"] if line["player"] == "Cyril")
    assert [e["counts"] for e in cyril["events"]] == [True, True, True, True, False]
    assert data["policy"]["best_n"] == 4


def test_exports_and_projector_follow_the_table_access(access_world, client_as):
    season = make_season(access_world.club)
    for name in ("csv", "json", "projector"):
        url = reverse(f"seasons:{name}", args=["home", season.slug])
        assert client_as("outsider").get(url).status_code == 403
        assert client_as("anonymous").get(url).status_code == 302
        assert client_as("member").get(url).status_code == 200
        assert client_as("member").post(url).status_code == 405


def test_the_projector_polls_its_region(access_world, client_as):
    season = make_season(access_world.club)
    play_series(access_world.club)
    standings.refresh(season)
    url = reverse("seasons:projector", args=["home", season.slug])
    page = client_as("member").get(url, headers=EN).content.decode()
    assert 'hx-trigger="every 30s"' in page and "Bella" in page
    region = client_as("member").get(url, headers=HTMX)
    assert b"<html" not in region.content and b"Bella" in region.content


def test_a_two_division_season_previews_then_confirms_promotion_and_relegation(
    access_world, client_as
):
    """docs/seasons.md §10 on the hand-worked series (tests/engine/test_season.py):
    Masters: Alla, Bella, Xenia; Amateurs: Cyril, Dima, Egor. Within Masters Bella 1,
    Alla 2, Xenia unranked (the bottom); within Amateurs Cyril 1, Dima 2, Egor 3.
    One each way: Cyril goes up, Xenia down."""
    from prefscore.seasons.models import DivisionMove

    season = make_season(access_world.club)
    autumn = make_season(access_world.club, slug="autumn", name="Autumn")
    play_series(access_world.club)
    url = reverse("seasons:divisions", args=["home", season.slug])
    organiser = client_as("organiser")
    text = "Masters = Alla, Bella, Xenia\nAmateurs = Cyril, Dima, Egor"
    assert organiser.post(url, {"action": "set", "text": text}).status_code == 302
    assert run_due() == 1  # the worker counts the table (seasons/counts.py)

    table = organiser.get(table_url(season), headers=EN)
    assert [(row.division, row.rank, row.name) for row in table.context["rows"]] == [
        ("Masters", 1, "Bella"),
        ("Masters", 2, "Alla"),
        ("Masters", None, "Xenia"),
        ("Amateurs", 1, "Cyril"),
        ("Amateurs", 2, "Dima"),
        ("Amateurs", 3, "Egor"),
    ]
    shown = organiser.get(url, {"count": "1"}, headers=EN)
    assert [(m.player, m.from_division, m.to_division) for m in shown.context["preview"]] == [
        ("Xenia", "Masters", "Amateurs"),
        ("Cyril", "Amateurs", "Masters"),
    ]
    assert not DivisionMove.objects.exists()  # a preview changes nothing

    confirmed = organiser.post(
        url, {"action": "confirm", "count": "1", "next_season": autumn.pk}, headers=EN
    )

    assert confirmed.status_code == 302
    after = {d.name: sorted(p.name for p in d.players.all()) for d in autumn.divisions.all()}
    assert after == {"Masters": ["Alla", "Bella", "Cyril"], "Amateurs": ["Dima", "Egor", "Xenia"]}
    assert DivisionMove.objects.filter(season=season).count() == 2
    assert DivisionMove.objects.first().confirmed_by == access_world.users["organiser"]
    again = organiser.post(
        url, {"action": "confirm", "count": "1", "next_season": autumn.pk}, headers=EN
    )
    assert again.status_code in (200, 422)
    assert DivisionMove.objects.filter(season=season).count() == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Masters = Alla, Nobody", "No player of the club is named Nobody"),
        ("Masters = Alla\nAmateurs = Alla", "Alla is in two divisions"),
        ("Masters Alla", "division = players"),
    ],
)
def test_bad_divisions_are_refused(access_world, client_as, text, message):
    season = make_season(access_world.club)
    play_series(access_world.club)
    url = reverse("seasons:divisions", args=["home", season.slug])
    response = client_as("organiser").post(url, {"action": "set", "text": text}, headers=EN)
    assert any(message in error for error in response.context["setting"].errors["text"])
    assert not season.divisions.exists()


@pytest.mark.parametrize(("role", "status"), [("member", 403), ("anonymous", 302)])
def test_only_organisers_set_divisions(access_world, client_as, role, status):
    season = make_season(access_world.club)
    url = reverse("seasons:divisions", args=["home", season.slug])
    assert client_as(role).post(url, {"action": "set", "text": "A = Anna"}).status_code == status
    assert not season.divisions.exists()
