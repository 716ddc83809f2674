"""The rules engine stays pure Python: no module under scoring/engine imports Django,
directly or through a package that needs it (design.md, "Layout")."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "scoring" / "engine"

# Top-level packages that import Django themselves, besides django* ones.
DJANGO_BOUND = {"prefscore", "template_partials", "whitenoise", "dj_database_url", "pytest_django"}


def is_forbidden(module: str) -> bool:
    top = module.split(".")[0]
    if top.startswith("django") or top in DJANGO_BOUND:
        return True
    # scoring's own models and admin are Django; only scoring.engine is pure.
    return top == "scoring" and module != "scoring" and not module.startswith("scoring.engine")


def imported_modules(source: str, package: str) -> list[tuple[int, str]]:
    """(line, absolute module name) for every import in the source of a module in `package`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.lineno, node.module or ""))
                continue
            parts = package.split(".")
            base = parts[: len(parts) - (node.level - 1)]
            if node.module:
                found.append((node.lineno, ".".join([*base, node.module])))
            else:
                found += [(node.lineno, ".".join([*base, alias.name])) for alias in node.names]
    return found


def forbidden_imports(path: Path) -> list[str]:
    # A module's package, and an __init__.py's own package, is its folder.
    package = ".".join(path.relative_to(ROOT).parts[:-1])
    return [
        f"{path.relative_to(ROOT)}:{line}: imports {module}"
        for line, module in imported_modules(path.read_text(encoding="utf-8"), package)
        if is_forbidden(module)
    ]


def test_the_engine_package_exists():
    assert (ENGINE / "__init__.py").is_file()


def test_no_engine_module_imports_django():
    offences = [
        offence for path in sorted(ENGINE.rglob("*.py")) for offence in forbidden_imports(path)
    ]

    assert offences == []


def test_the_check_catches_each_form_of_django_import():
    source = (
        "import django\n"
        "import os, django.conf\n"
        "from django.db import models\n"
        "import django_htmx\n"
        "from scoring.models import Convention\n"
        "from .. import models\n"
        "from ..admin import ConventionAdmin\n"
        "from prefscore import settings\n"
    )

    found = [m for _, m in imported_modules(source, "scoring.engine") if is_forbidden(m)]

    assert found == [
        "django",
        "django.conf",
        "django.db",
        "django_htmx",
        "scoring.models",
        "scoring.models",
        "scoring.admin",
        "prefscore",
    ]


def test_the_check_allows_the_standard_library_and_the_engine_itself():
    source = (
        "import dataclasses\n"
        "from fractions import Fraction\n"
        "from . import contracts\n"
        "from .errors import RuleError\n"
        "from scoring.engine.numbers import whole\n"
    )

    found = [m for _, m in imported_modules(source, "scoring.engine") if is_forbidden(m)]

    assert found == []
