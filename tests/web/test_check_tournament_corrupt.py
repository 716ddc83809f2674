"""``check_tournament`` names every corruption and never prints a traceback
(docs/tournaments.md §4.13): a table gone from its round, a qualifying round relabelled
the final, a seat/key mismatch, a closing's whists of the wrong length or as strings."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from prefscore.games.models import Pulka, PulkaSeat
from prefscore.tournaments import checks, tables
from prefscore.tournaments.models import Round, TableClosure
from tests.web.fixtures_tournaments import close_round, draw, play_round_deals

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament_world, cup):
    """Two qualifying rounds played and closed; table 1 of round 2 on the arbiter's sheet."""
    draw(tournament_world, cup)
    play_round_deals(cup, 1)
    close_round(cup, 1)
    draw(tournament_world, cup)
    first = Pulka.objects.filter(tournament=cup, round_number=2).order_by("pk").first()
    tables.close_table(first.pk, cup, TableClosure.Reason.ARBITER, None, [6, -2, -4])
    play_round_deals(cup, 2)
    close_round(cup, 2)
    assert checks.check(cup) == []
    return cup


def run(cup, capsys):
    with pytest.raises(SystemExit) as exited:
        call_command("check_tournament", cup.slug)
    out, err = capsys.readouterr()
    assert exited.value.code == 1
    assert "Traceback" not in out + err
    return out


def test_a_table_silently_gone_from_its_round_is_named(played, capsys):
    gone = Pulka.objects.filter(tournament=played, round_number=1).order_by("pk").last()
    Pulka.objects.filter(pk=gone.pk).update(status=Pulka.Status.ARCHIVED)

    assert "round 1: table 3 of the draw" in run(played, capsys)


def test_a_qualifying_round_relabelled_final_is_named(played, capsys):
    Round.objects.filter(tournament=played, number=2).update(stage=Round.Stage.FINAL)

    out = run(played, capsys)
    assert "round 2: stage final but is_final is False" in out
    assert "round 2: a final round seated by" in out


def test_a_seat_key_mismatch_is_named_without_a_traceback(played, capsys):
    pulka = Pulka.objects.filter(tournament=played, round_number=1).order_by("pk").first()
    PulkaSeat.objects.filter(pulka=pulka, seat=2).delete()

    assert f"round 1, table {pulka.pk}: seats [0, 1] do not match the 3 players" in run(
        played, capsys
    )


@pytest.mark.parametrize(
    ("whists", "said"),
    [([6, -6], "the closing has 2 whists for 3 players"), (["6", "-2", "-4"], "not whole")],
)
def test_a_closing_with_bad_whists_is_named_without_a_traceback(played, capsys, whists, said):
    closure = TableClosure.objects.get(pulka__tournament=played, reason="arbiter")
    TableClosure.objects.filter(pk=closure.pk).update(whists=whists)

    assert said in run(played, capsys)
