"""The presets' data migrations, scoring.0002_presets and 0006_presets_peers: the eight
presets, exactly as the engine has them.

The migration holds its own copy of the presets' options (it must write the same rows
whatever the engine becomes); these tests check that copy against the engine.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.apps import apps as django_apps

from prefscore.clubs.models import Club
from scoring.engine.conventions import PRESET_NAMES, preset
from scoring.models import Convention
from tests.helpers import run_python

PRESETS = {
    "sochi": "Sochi",
    "leningrad": "Leningrad",
    "rostov": "Rostov",
    "fspr": "ФСПР",
    "pu-home": "PU home",
    "pu-fspr": "FSPR (PU)",
    "rs-sochi": "RS Sochi",
    "gchet": "gchet",
}


@pytest.mark.django_db
def test_the_migrated_database_holds_the_eight_presets():
    presets = Convention.objects.presets()

    assert {c.slug: c.name for c in presets} == PRESETS
    assert set(PRESETS) == set(PRESET_NAMES)
    assert all(c.owner is None for c in presets)


@pytest.mark.django_db
@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_each_preset_has_exactly_the_engines_options(slug):
    convention = Convention.objects.get(slug=slug)

    assert convention.to_engine() == preset(slug)
    assert convention.snapshot() == preset(slug).to_options()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_each_preset_passes_the_models_own_validation(slug):
    Convention.objects.get(slug=slug).full_clean()


MIGRATIONS = Path(__file__).resolve().parent.parent / "scoring/migrations"


@pytest.mark.parametrize(
    "name",
    [
        "0002_presets",
        "0006_presets_peers",
        "0007_gchet_zero_bonus_returned_whist",
        "0008_pu_options",
        "0009_rs_options",
    ],
)
def test_the_presets_migrations_import_nothing_but_django(name):
    tree = ast.parse((MIGRATIONS / f"{name}.py").read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert imported == {"django.db"}


# The presets after each step: migrated, back to 0002, back to the start, migrated again.
# In one process, as `manage.py migrate` runs them (a process a step cost 24 s).
BACKWARDS_AND_FORWARDS = """
import django
django.setup()
from django.core.management import call_command
from scoring.models import Convention
for target in ([], ["scoring", "0002_presets"], ["scoring", "0001_initial"], []):
    call_command("migrate", *target, interactive=False, verbosity=0)
    print(Convention.objects.filter(is_preset=True).count())
"""


@pytest.mark.own_database
def test_the_migration_runs_backwards_and_forwards(tmp_path: Path) -> None:
    """On a database of its own, so that no other test's data is at stake."""
    env = {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}

    done = run_python("-c", BACKWARDS_AND_FORWARDS, env=env)

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["8", "4", "0", "8"]


@pytest.mark.django_db
def test_a_clubs_own_convention_named_like_a_new_preset_keeps_its_options():
    """A club that called its convention "gchet" before the preset came keeps it, renamed."""
    peers = importlib.import_module("scoring.migrations.0006_presets_peers")
    club = Club.objects.create(name="Home", slug="home-club")
    Convention.objects.filter(slug="gchet").delete()
    own = Convention.from_engine(preset("sochi"), name="Our gchet", slug="gchet", owner=club)
    own.save()

    peers.create_presets(django_apps, None)
    gchet = importlib.import_module("scoring.migrations.0007_gchet_zero_bonus_returned_whist")
    gchet.play_gchets_rules(django_apps, None)  # the preset's options since 0007

    own.refresh_from_db()
    assert (own.slug, own.is_preset, own.owner) == ("gchet-2", False, club)
    assert own.to_engine() == preset("sochi")
    assert Convention.objects.get(slug="gchet").to_engine() == preset("gchet")


@pytest.mark.django_db
def test_gchets_rules_migration_changes_the_gchet_preset_and_nothing_else():
    """0007 gives the gchet preset its two rules, and a club's own convention keeps its own."""
    gchet = importlib.import_module("scoring.migrations.0007_gchet_zero_bonus_returned_whist")
    club = Club.objects.create(name="Home", slug="home-club")
    own = Convention.from_engine(preset("sochi"), name="Ours", slug="ours", owner=club)
    own.save()

    gchet.write_them_as_before(django_apps, None)
    row = Convention.objects.get(slug="gchet")
    assert (row.allpass_zero_bonus, row.returned_whist_consolation) == ("gora_double", "whister")

    gchet.play_gchets_rules(django_apps, None)
    assert Convention.objects.get(slug="gchet").to_engine() == preset("gchet")
    own.refresh_from_db()
    assert own.to_engine() == preset("sochi")
