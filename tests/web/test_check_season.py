"""``check_season`` recounts a season from the sheets, not from what the table is kept
from (docs/seasons.md §1–§6): a summary row changed, a deal edited, a tournament's
stored result changed, a stored line edited, a seat deleted are each named; a
coefficient of no convention is listed; it speaks the shell's language, takes
``club/slug`` and exits non-zero on any finding."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from prefscore.games.models import Deal, Pulka, PulkaSeat
from prefscore.seasons import standings
from prefscore.seasons.models import Season, SeasonLine
from prefscore.stats.models import PulkaSummary
from prefscore.tournaments import stages
from prefscore.tournaments.models import TableResult
from tests.web.fixtures_tournaments import close_round, draw, play_round_deals
from tests.web.season_fixtures import DAY, open_season, play_series

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)


@pytest.fixture
def series(access_world) -> Season:
    """Six evenings played, counted under place points with a coefficient for Sochi."""
    play_series(access_world.club)
    season = Season.objects.create(
        club=access_world.club,
        name="Spring",
        slug="spring",
        starts_on=DAY,
        ends_on=DAY.replace(year=DAY.year + 1),
        coefficients={"sochi": "2"},
    )
    standings.refresh(season)
    return season


def findings(capsys, address: str = "home/spring") -> str:
    with pytest.raises(SystemExit) as stopped:
        call_command("check_season", address)
    out, err = capsys.readouterr()
    assert stopped.value.code == 1
    assert "Traceback" not in out + err and "could not finish" not in out
    return out


def test_a_sound_season_agrees_in_the_shells_language(series, capsys, monkeypatch):
    call_command("check_season", "home/spring")
    assert "The table of Spring agrees with its sheets." in capsys.readouterr().out

    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    call_command("check_season", "spring")
    assert "Таблица сезона Spring сходится с листами." in capsys.readouterr().out


def test_a_summary_row_changed_is_found_though_the_table_follows_it(series, capsys):
    """The table is counted again from the changed row: only a recount from the sheet
    sees it."""
    row = PulkaSummary.objects.filter(player__name="Egor").order_by("pulka_id").first()
    PulkaSummary.objects.filter(pulka=row.pulka).update(result="0")
    standings.refresh(series)

    out = findings(capsys)

    assert "Egor: total stored" in out


def test_a_deal_edited_behind_the_audit_is_found(series, capsys):
    deal = Deal.objects.filter(pulka__summaries__isnull=False, facts__has_key="manual").first()
    line = dict(deal.facts["manual"])
    line["player"], line["on"] = line["on"], line["player"]  # the gain becomes a loss
    Deal.objects.filter(pk=deal.pk).update(facts={"manual": line})

    out = findings(capsys)

    assert "recounted" in out


def test_a_stored_line_edited_is_found(series, capsys):
    SeasonLine.objects.filter(season=series, player__name="Alla").update(total="12", wins=9)

    out = findings(capsys)

    assert "Alla: total stored 12, recounted" in out
    assert "tables won stored 9, recounted" in out


def test_a_seat_deleted_is_named_without_a_crash(series, capsys):
    pulka = Pulka.objects.filter(summaries__isnull=False).order_by("pk").first()
    PulkaSeat.objects.filter(pulka=pulka, seat=1).delete()

    out = findings(capsys)

    assert "cannot be read from its sheet" in out


def test_a_coefficient_of_no_convention_is_listed(series, capsys):
    Season.objects.filter(pk=series.pk).update(coefficients={"Leningrad": "4/3"})
    series.refresh_from_db()
    standings.refresh(series)

    out = findings(capsys)

    assert "coefficient 4/3 under “Leningrad”: no convention of the club has that name" in out


def test_a_tournaments_stored_result_changed_is_found(tournament_world, cup, capsys):
    organiser = tournament_world.users["organiser"]
    season = open_season(tournament_world.club)
    season.tournaments.add(cup)
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1, organiser)
    stages.finish_by_hand(cup.pk, organiser)
    call_command("check_season", "cup/spring")
    assert "agrees" in capsys.readouterr().out

    table = Pulka.objects.filter(tournament=cup).order_by("pk").first()
    TableResult.objects.filter(pulka=table).update(whists=[90, -45, -45])
    standings.refresh(season)

    assert "recounted" in findings(capsys, "cup/spring")
