"""prefscore/heap.py: a server's start-up objects are out of the garbage collector's walk
once its entry point (``prefscore.wsgi``, ``prefscore.asgi``) is imported, and garbage
is still collected after that."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prefscore.heap import freeze_startup

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("entry", ["prefscore.wsgi", "prefscore.asgi"])
def test_a_server_entry_point_freezes_what_start_up_made(entry, tmp_path):
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path}/heap.sqlite3",
        "DJANGO_SETTINGS_MODULE": "prefscore.settings",
    }
    script = (
        f"import gc, {entry}; frozen = gc.get_freeze_count(); "
        "import django.urls; django.urls.get_resolver().url_patterns; "
        "print(frozen, len(gc.get_objects()))"
    )
    printed = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split()
    frozen, walked = int(printed[0]), int(printed[1])
    # Django, the apps and the settings: tens of thousands of objects the walk skips.
    assert frozen > 20_000
    assert walked < frozen


def test_garbage_made_after_the_freeze_is_still_collected():
    class Cycle:
        pass

    try:
        assert freeze_startup() == gc.get_freeze_count() > 0
        first, second = Cycle(), Cycle()
        first.other, second.other = second, first  # type: ignore[attr-defined]
        del first, second
        gc.collect()
        assert not [o for o in gc.get_objects() if isinstance(o, Cycle)]
    finally:
        gc.unfreeze()
