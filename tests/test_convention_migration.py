"""The data migration scoring.0002_presets: the four presets, exactly as the engine has them.

The migration holds its own copy of the presets' options (it must write the same rows
whatever the engine becomes); these tests check that copy against the engine.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scoring.engine.conventions import PRESET_NAMES, preset
from scoring.models import Convention
from tests.helpers import run_python

PRESETS = {"sochi": "Sochi", "leningrad": "Leningrad", "rostov": "Rostov", "fspr": "ФСПР"}


@pytest.mark.django_db
def test_the_migrated_database_holds_the_four_presets():
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


PRESETS_MIGRATION = Path(__file__).resolve().parent.parent / "scoring/migrations/0002_presets.py"


def test_the_presets_migration_imports_nothing_but_django():
    tree = ast.parse(PRESETS_MIGRATION.read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}

    assert imported == {"django.db"}


PRESET_COUNT = (
    "from scoring.models import Convention; "
    "print(Convention.objects.filter(is_preset=True).count())"
)


def test_the_migration_runs_backwards_and_forwards(tmp_path: Path) -> None:
    """On a database of its own, so that no other test's data is at stake."""
    env = {"DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}

    def manage(*args: str) -> str:
        done = run_python("manage.py", *args, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""

    manage("migrate", "--no-input")
    assert manage("shell", "-c", PRESET_COUNT) == "4"
    manage("migrate", "scoring", "0001_initial", "--no-input")
    assert manage("shell", "-c", PRESET_COUNT) == "0"
    manage("migrate", "--no-input")
    assert manage("shell", "-c", PRESET_COUNT) == "4"
