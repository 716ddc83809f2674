"""The data migration scoring.0002_presets: the four presets, exactly as the engine has them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.engine.conventions import PRESET_NAMES, preset
from scoring.models import Convention

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


# serialized_rollback: the flush after a transactional test would take the presets
# with it, and later tests (the browser tests on the live server) need them.
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_migration_runs_backwards_and_forwards():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("scoring", "0001_initial")])
        old_apps = executor.loader.project_state([("scoring", "0001_initial")]).apps
        assert old_apps.get_model("scoring", "Convention").objects.count() == 0

        executor = MigrationExecutor(connection)
        executor.migrate([("scoring", "0002_presets")])
        new_apps = executor.loader.project_state([("scoring", "0002_presets")]).apps
        assert (
            new_apps.get_model("scoring", "Convention").objects.filter(is_preset=True).count() == 4
        )
    finally:
        MigrationExecutor(connection).migrate(leaves)

    assert Convention.objects.get(slug="rostov").to_engine() == preset("rostov")
