"""Each task's name in words, for the admin's list of tasks (prefscore/deferred/admin.py):
given by the module that defines the task, so that this package imports none of them."""

from __future__ import annotations

from typing import Any

TITLES: dict[str, Any] = {}


def titled(task: Any, title: Any) -> None:
    """Name ``task`` in the admin with ``title`` (a lazily translated string)."""
    TITLES[task.module_path] = title
