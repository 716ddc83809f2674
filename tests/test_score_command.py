"""``manage.py score`` is a pure command: it runs without DEBUG or SECRET_KEY.

The one subprocess smoke test of ``score`` (the rest call it in the process:
tests/engine/test_bad_input.py). The server side still refuses to start without a key:
tests/test_settings.py.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from django.core import management

import manage
from prefscore.settings import DEVELOPMENT_SECRET_KEY
from tests.engine.test_protocol_doc import DOCUMENTED, RICH, paths
from tests.helpers import ROOT, run_python

EXAMPLE = ROOT / "tests" / "engine" / "examples" / "001-protocol-example.json"


def test_score_runs_without_debug_or_secret_key_and_prints_protocol_mds_output(
    tmp_path: Path,
) -> None:
    example = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(example["input"]), encoding="utf-8")

    # run_python passes none of the settings' variables: `env -u DEBUG -u SECRET_KEY`.
    done = run_python("manage.py", "score", str(pulka), env={})

    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == {"players": ["A", "B", "C"], **example["expect"]}


@pytest.mark.parametrize(("argv", "throwaway_key"), [
    (["manage.py", "score", "-"], True),
    (["manage.py", "runserver"], False),
    (["manage.py", "migrate"], False),
    (["manage.py"], False),
])  # fmt: skip
def test_manage_py_makes_a_throwaway_key_for_the_pure_commands_only(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], throwaway_key: bool
) -> None:
    seen: dict[str, str | None] = {}
    monkeypatch.setenv("SECRET_KEY", "")  # so that the key main() sets is undone too
    monkeypatch.delenv("SECRET_KEY")
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.setattr(
        management,
        "execute_from_command_line",
        lambda _argv: seen.update(key=os.environ.get("SECRET_KEY")),
    )

    manage.main()

    assert (seen["key"] is not None) is throwaway_key
    if throwaway_key:
        assert seen["key"] not in (DEVELOPMENT_SECRET_KEY, "") and len(seen["key"]) >= 50


def test_a_secret_key_given_is_kept_for_the_pure_commands_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, str | None] = {}
    monkeypatch.setenv("SECRET_KEY", "the-real-key")
    monkeypatch.setattr(sys, "argv", ["manage.py", "score", "-"])
    monkeypatch.setattr(
        management,
        "execute_from_command_line",
        lambda _argv: seen.update(key=os.environ.get("SECRET_KEY")),
    )

    manage.main()

    assert seen["key"] == "the-real-key"


def test_the_command_prints_the_documented_keys_with_corrections_and_a_stake(
    tmp_path: Path,
) -> None:
    """docs/protocol.md's output key table, against the real command's standard output
    for a file with a manual entry, two corrections and a stake."""
    pulka = tmp_path / "pulka.json"
    pulka.write_text(json.dumps(RICH), encoding="utf-8")
    done = run_python("manage.py", "score", str(pulka), env={})

    assert done.returncode == 0, done.stderr
    assert paths(json.loads(done.stdout)) == set(DOCUMENTED)
