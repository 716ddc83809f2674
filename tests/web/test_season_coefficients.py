"""Coefficients per convention, by the convention's stored name (docs/seasons.md §3).

The season form offers a field per convention the club plays (the presets, the club's
own, and whatever its pulkas were played under), and stores each coefficient under the
name a pulka stores; a name that matches no convention is refused, naming it; a season
saved with one is repaired by the migration where the match is unambiguous, and listed
by ``check_season`` otherwise.
"""

from __future__ import annotations

import datetime
import importlib
from fractions import Fraction

import pytest
from django.apps import apps as global_apps
from django.urls import reverse
from django.utils import translation

from prefscore.seasons import standings
from prefscore.seasons.coefficients import field_name, unknown, weighable
from prefscore.seasons.models import Season
from scoring.engine.conventions import preset
from scoring.models import Convention
from tests.web.fixtures_table import EN, HTMX
from tests.web.season_fixtures import DAY, evening
from tests.web.test_seasons import FORM, RU

pytestmark = pytest.mark.django_db


def _own_convention(club, name: str = "Наша сочинка") -> Convention:
    own = Convention.from_engine(preset("sochi"), name=name, slug="nasha", owner=club)
    own.save()
    return own


def test_the_form_offers_the_presets_the_clubs_own_and_what_it_played(access_world, client_as):
    club = access_world.club
    _own_convention(club)
    evening(club, DAY, [(("Alla", "Bella", "Cyril"), (10, 0, -10), "custom")])

    page = client_as("organiser").get(reverse("seasons:create", args=["home"]), headers=RU)

    body = page.content.decode()
    names = [name for name, _label in weighable(club)]
    assert names[:4] == ["sochi", "leningrad", "rostov", "fspr"]
    assert "Наша сочинка" in names and "custom" in names
    for name in ("sochi", "Наша сочинка", "custom"):
        assert f'name="{field_name(name)}"' in body
    assert "Ленинград" in body and "Коэффициенты конвенций" in body


def test_a_coefficient_is_stored_by_the_conventions_name_and_counts(access_world, client_as):
    club = access_world.club
    evening(club, DAY, [(("Alla", "Bella", "Cyril"), (30, 0, -30), "leningrad")])
    url = reverse("seasons:create", args=["home"])
    data = {**FORM, "aggregate": "sum", "minimum": "0", field_name("leningrad"): "4/3"}
    data.pop(field_name("rostov"))

    assert client_as("organiser").post(url, data, headers=EN).status_code == 302

    season = Season.objects.get(club=club, slug=FORM["slug"])
    assert season.coefficients == {"leningrad": "4/3", "sochi": "2"}
    season.starts_on, season.ends_on = DAY, DAY
    season.save()
    standings.refresh(season)
    totals = dict(season.lines.values_list("player__name", "total"))
    assert Fraction(totals["Alla"]) == 3 * Fraction(4, 3)


def test_a_stored_name_of_no_convention_is_shown_refused_and_dropped_when_emptied(
    access_world, client_as
):
    club = access_world.club
    season = Season.objects.create(
        club=club,
        name="Old",
        slug="old",
        starts_on=DAY,
        ends_on=DAY,
        coefficients={"Ленинградка по-нашему": "2", "sochi": "3/2"},
    )
    assert unknown(season) == ["Ленинградка по-нашему"]
    url = reverse("seasons:edit", args=["home", "old"])
    client = client_as("organiser")
    form = client.get(url, headers=EN).context["form"]
    stray = field_name("Ленинградка по-нашему")
    data = {
        key: value
        for key, value in {**FORM, "slug": "old", "name": "Old"}.items()
        if not key.startswith("coefficient_")
    }
    data.update({stray: "2", field_name("sochi"): "3/2"})
    assert form[stray].initial == "2"

    refused = client.post(url, data, headers=HTMX)

    errors = refused.context["form"].errors[stray]
    assert any("“Ленинградка по-нашему”" in error for error in errors)
    season.refresh_from_db()
    assert season.coefficients == {"Ленинградка по-нашему": "2", "sochi": "3/2"}

    data[stray] = ""
    assert client.post(url, data, headers=EN).status_code == 302
    season.refresh_from_db()
    assert season.coefficients == {"sochi": "3/2"}


def test_the_russian_refusal_names_the_convention(access_world, client_as):
    Season.objects.create(
        club=access_world.club,
        name="Old",
        slug="old",
        starts_on=DAY,
        ends_on=DAY,
        coefficients={"Leningrad": "4/3"},
    )
    url = reverse("seasons:edit", args=["home", "old"])
    data = {k: v for k, v in FORM.items() if not k.startswith("coefficient_")}
    data.update({"slug": "old", field_name("Leningrad"): "4/3"})

    body = client_as("organiser").post(url, data, headers=RU).content.decode()

    assert "Ни одна конвенция клуба не называется «Leningrad»" in body


# --- the migration that repairs saved seasons -------------------------------------------


def _repair():
    migration = importlib.import_module("prefscore.seasons.migrations.0003_coefficients_by_name")
    migration.repair(global_apps, None)


@pytest.mark.parametrize(
    ("saved", "repaired"),
    [
        ({"Leningrad": "4/3"}, {"leningrad": "4/3"}),
        ({"SOCHI": "2", "Ростов": "3/2"}, {"sochi": "2", "rostov": "3/2"}),
        ({"ленинградка": "4/3"}, {"leningrad": "4/3"}),
        ({"leningrad": "4/3"}, {"leningrad": "4/3"}),
        ({"Leningrad": "4/3", "leningrad": "2"}, {"Leningrad": "4/3", "leningrad": "2"}),
        ({"Питер-2": "2"}, {"Питер-2": "2"}),
    ],
)
def test_the_migration_repairs_an_unambiguous_name_and_keeps_the_rest(
    access_world, saved, repaired
):
    season = Season.objects.create(
        club=access_world.club, name="S", slug="s", starts_on=DAY, ends_on=DAY, coefficients=saved
    )

    _repair()

    season.refresh_from_db()
    assert season.coefficients == repaired


def test_the_migration_matches_a_clubs_own_convention_by_case(access_world):
    _own_convention(access_world.club, "Наша Сочинка")
    season = Season.objects.create(
        club=access_world.club,
        name="S",
        slug="s",
        starts_on=DAY,
        ends_on=DAY + datetime.timedelta(days=1),
        coefficients={"наша сочинка": "2"},
    )

    _repair()

    season.refresh_from_db()
    assert season.coefficients == {"Наша Сочинка": "2"}


def test_the_admin_refuses_a_coefficient_of_no_convention(access_world):
    from prefscore.seasons.admin import SeasonAdminForm

    season = Season.objects.create(
        club=access_world.club, name="S", slug="s", starts_on=DAY, ends_on=DAY
    )
    data = {
        "club": access_world.club.pk,
        "name": "S",
        "slug": "s",
        "starts_on": DAY,
        "ends_on": DAY,
        "evenings": "all",
        "measure": "places",
        "aggregate": "sum",
        "best_n": 0,
        "minimum": 0,
        "tie_breaks": '["best_result"]',
    }

    stray = SeasonAdminForm({**data, "coefficients": '{"Leningrad": "4/3"}'}, instance=season)
    kept = SeasonAdminForm({**data, "coefficients": '{"leningrad": "4/3"}'}, instance=season)

    with translation.override("en"):
        assert "“Leningrad”" in stray.errors["coefficients"][0]
    assert kept.is_valid(), kept.errors
