"""The import contracts of pyproject.toml ([tool.importlinter], run by `make lint`).

Dependencies run one way: the site, tournaments, games, scoring (its Django side),
clubs; inside games, the views, the template tags, the presenters, the domain and the
models; inside tournaments, the views, the presenters, the forms, the domain and the
models; scoring.engine imports neither Django nor any other package of the project; no
migration imports the engine; no import cycle in any package, imports inside functions
included. These tests check the contracts hold for the code as it is, that each breaks
on an import against it, and that they name every app and every runtime dependency.
"""

from __future__ import annotations

import pkgutil
import re
import sys
import tomllib
from collections.abc import Iterator
from copy import deepcopy
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.api import read_configuration
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.layers import LayersContract

import prefscore
import prefscore.tournaments

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
CONTRACT_TYPES = {
    "layers": LayersContract,
    "forbidden": ForbiddenContract,
    "acyclic_siblings": AcyclicSiblingsContract,
}


def _config() -> dict[str, Any]:
    return read_configuration(str(PYPROJECT))


def _contracts() -> dict[str, Any]:
    config = _config()
    return {
        options["id"]: CONTRACT_TYPES[options["type"]](
            name=options["name"],
            session_options=config["session_options"],
            contract_options=options,
        )
        for options in config["contracts_options"]
    }


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    session = _config()["session_options"]
    return grimp.build_graph(
        *session["root_packages"], include_external_packages=True, cache_dir=None
    )


@pytest.fixture
def with_import(graph: grimp.ImportGraph) -> Iterator[Any]:
    """Adds one import to the graph for a test, and takes it out again after."""
    added: list[tuple[str, str]] = []

    def add(importer: str, imported: str) -> grimp.ImportGraph:
        if not graph.direct_import_exists(importer=importer, imported=imported):
            graph.add_import(importer=importer, imported=imported)
            added.append((importer, imported))
        return graph

    yield add
    for importer, imported in added:
        graph.remove_import(importer=importer, imported=imported)


def _kept(contract_id: str, graph: grimp.ImportGraph) -> bool:
    """Whether the contract holds, checked on a copy: a contract takes its ignored imports
    out of the graph it checks (as lint-imports does, each on its own copy)."""
    return _contracts()[contract_id].check(deepcopy(graph), verbose=False).kept


def test_every_contract_is_kept_by_the_code_as_it_is(graph):
    broken = [
        cid
        for cid, contract in _contracts().items()
        if not contract.check(deepcopy(graph), False).kept
    ]

    assert broken == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("prefscore.clubs.forms", "prefscore.games.models"),
        ("prefscore.clubs.models", "scoring.models"),
        ("prefscore.clubs.signals", "scoring.management.commands.grant_club_admins"),
        ("scoring.models", "prefscore.games.models"),
        ("scoring.conventions", "prefscore.tournaments.models"),
        ("prefscore.games.io", "prefscore.tournaments.services"),
        ("prefscore.tournaments.views.tournament", "prefscore.urls"),
        ("prefscore.clubs.models", "prefscore.settings"),
    ],
)
def test_a_layer_may_not_import_one_above_it(with_import, importer, imported):
    assert not _kept("layers", with_import(importer, imported))


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("prefscore.tournaments.views.tournament", "prefscore.games.models"),
        ("prefscore.games.models", "scoring.snapshot"),
        ("scoring.models", "prefscore.clubs.models"),
        ("prefscore.clubs.forms", "scoring.engine.seats"),
        ("prefscore.games.io", "scoring.engine.protocol"),
    ],
)
def test_a_layer_may_import_those_below_it(with_import, importer, imported):
    assert _kept("layers", with_import(importer, imported))


def test_an_indirect_import_through_the_site_is_caught_too(with_import):
    with_import("prefscore.clubs.models", "prefscore.lan")

    assert not _kept("layers", with_import("prefscore.lan", "prefscore.games.models"))


@pytest.mark.parametrize(
    "imported",
    [
        "django",
        "django_htmx",
        "scoring.models",
        "scoring.admin",
        "scoring.conventions",
        "prefscore.clubs.models",
        "prefscore.games.io",
    ],
)
def test_the_engine_may_not_import_django_or_the_rest_of_the_project(with_import, imported):
    assert not _kept("pure-engine", with_import("scoring.engine.values", imported))


@pytest.mark.parametrize("imported", ["fractions", "scoring.engine.numbers"])
def test_the_engine_may_import_the_standard_library_and_itself(with_import, imported):
    assert _kept("pure-engine", with_import("scoring.engine.values", imported))


@pytest.mark.parametrize(
    "migration", ["scoring.migrations.0002_presets", "prefscore.games.migrations.0001_initial"]
)
def test_no_migration_may_import_the_engine(with_import, migration):
    """A migration that read the live engine would change what it wrote (scoring.0002)."""
    assert not _kept("frozen-migrations", with_import(migration, "scoring.engine.conventions"))


def test_a_migration_may_take_defaults_from_the_models(with_import):
    assert _kept(
        "frozen-migrations", with_import("scoring.migrations.0002_presets", "scoring.models")
    )


def _layer_modules() -> set[str]:
    (layers,) = [c for c in _config()["contracts_options"] if c["id"] == "layers"]
    return {name for layer in layers["layers"] for name in re.split(r"[|:]", layer)}


def test_the_layers_name_every_module_of_prefscore_and_scoring():
    named = {name.strip() for name in _layer_modules()}
    modules = {f"prefscore.{m.name}" for m in pkgutil.iter_modules(prefscore.__path__)}

    assert modules - named == set()
    assert "scoring" in named


# Pure computation the engine may use: no Django, no I/O (docs/rating.md; the fair
# mixed-field schedules' solver, docs/tournaments.md §4.3).
ENGINE_MAY_USE = {"openskill", "ortools"}


def test_the_engine_contract_forbids_every_runtime_dependency():
    """A dependency added to pyproject.toml must be added to the engine's forbidden list."""
    (engine,) = [c for c in _config()["contracts_options"] if c["id"] == "pure-engine"]
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    # The runtime's and the offline seating's (the engine's solver imports ortools).
    dependencies = project["dependencies"] + project["optional-dependencies"]["seating"]
    wanted = {re.split(r"[\s\[<>=!~;]", spec, maxsplit=1)[0].lower() for spec in dependencies}
    top_levels = {
        top
        for top, distributions in packages_distributions().items()
        if any(d.lower().replace("_", "-") in wanted for d in distributions)
    }
    # A distribution's private modules (e.g. "_foo") are not what code imports.
    # Nor is the support module mypyc builds beside a compiled package ("<hash>__mypyc").
    imported_names = {
        top for top in top_levels if not top.startswith("_") and not top.endswith("__mypyc")
    }

    assert imported_names
    assert imported_names - set(engine["forbidden_modules"]) - ENGINE_MAY_USE == set()


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("prefscore.games.recording", "prefscore.games.presenters.entry"),
        ("prefscore.games.access", "prefscore.games.presenters"),
        ("prefscore.games.presenters.table", "prefscore.games.views.sheet"),
        ("prefscore.games.presenters.joining", "prefscore.games.templatetags.joining"),
        ("prefscore.games.models", "prefscore.games.services"),
    ],
)
def test_inside_games_a_layer_may_not_import_one_above_it(with_import, importer, imported):
    assert not _kept("games-layers", with_import(importer, imported))


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("prefscore.games.views.sheet", "prefscore.games.presenters.table"),
        ("prefscore.games.presenters.table", "prefscore.games.render_cache"),
        ("prefscore.games.recording", "prefscore.games.models"),
    ],
)
def test_inside_games_a_layer_may_import_those_below_it(with_import, importer, imported):
    assert _kept("games-layers", with_import(importer, imported))


def _games_modules() -> set[str]:
    import prefscore.games

    return {m.name for m in pkgutil.iter_modules(prefscore.games.__path__)} - {"migrations"}


def test_the_games_layers_name_every_module_of_games():
    (games,) = [c for c in _config()["contracts_options"] if c["id"] == "games-layers"]
    named = {name.strip() for layer in games["layers"] for name in re.split(r"[|:]", layer)}

    assert _games_modules() - named == set()


def test_no_import_cycle_in_any_package(graph):
    assert _kept("no-cycles", graph)


def test_the_graph_holds_the_imports_made_inside_functions(graph):
    """A cycle hidden by an import inside a function is a cycle all the same: the graph
    the contract reads has them (``ClubsConfig.ready`` imports ``signals`` in its body)."""
    assert graph.direct_import_exists(
        importer="prefscore.clubs.apps", imported="prefscore.clubs.signals"
    )


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("scoring.option_fields", "scoring.messages"),
        ("prefscore.clubs.mail_queue", "prefscore.clubs.accounts"),
        ("prefscore.clubs.mail_queue", "prefscore.clubs.signin_codes"),
        ("prefscore.games.models", "prefscore.games.views.sheet"),
        # The loop a table's closing once made to give the floor's yellow cards: tables now
        # send ``closed`` and discipline answers.
        ("prefscore.tournaments.tables", "prefscore.tournaments.discipline"),
    ],
)
def test_an_import_back_makes_a_cycle(with_import, importer, imported):
    assert not _kept("no-cycles", with_import(importer, imported))


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("prefscore.tournaments.forms.tournament", "prefscore.tournaments.presenters.tournament"),
        ("prefscore.tournaments.presenters.room", "prefscore.tournaments.views.room"),
        ("prefscore.tournaments.regulations", "prefscore.tournaments.forms.regulations"),
        ("prefscore.tournaments.tables", "prefscore.tournaments.presenters.leaving"),
        ("prefscore.tournaments.models", "prefscore.tournaments.services"),
    ],
)
def test_inside_tournaments_a_layer_may_not_import_one_above_it(with_import, importer, imported):
    assert not _kept("tournaments-layers", with_import(importer, imported))


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("prefscore.tournaments.views.room", "prefscore.tournaments.presenters.room"),
        ("prefscore.tournaments.presenters.tournament", "prefscore.tournaments.forms.tournament"),
        ("prefscore.tournaments.forms.files", "prefscore.tournaments.imports"),
        ("prefscore.tournaments.tables", "prefscore.tournaments.models"),
    ],
)
def test_inside_tournaments_a_layer_may_import_those_below_it(with_import, importer, imported):
    assert _kept("tournaments-layers", with_import(importer, imported))


def test_the_tournaments_layers_name_every_module_of_tournaments():
    (layers,) = [c for c in _config()["contracts_options"] if c["id"] == "tournaments-layers"]
    named = {name.strip() for layer in layers["layers"] for name in re.split(r"[|:]", layer)}
    modules = {m.name for m in pkgutil.iter_modules(prefscore.tournaments.__path__)}

    assert modules - {"migrations"} - named == set()


def test_a_cycle_through_an_import_inside_a_function_fails_the_build(tmp_path):
    """grimp reads the imports in function bodies too: a loop made of one is caught."""
    package = tmp_path / "loopy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from . import high\n    return high\n")
    (package / "high.py").write_text("from . import low\n")
    sys.path.insert(0, str(tmp_path))
    try:
        loop = grimp.build_graph("loopy", cache_dir=None)
    finally:
        sys.path.remove(str(tmp_path))
    contract = AcyclicSiblingsContract(
        name="loop",
        session_options={"root_packages": ["loopy"]},
        contract_options={"ancestors": ["loopy"]},
    )

    assert not contract.check(loop, verbose=False).kept
