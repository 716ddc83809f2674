"""The worker: runs the queued tasks until stopped (prefscore/deferred/worker.py).

``make run`` starts one beside the server; deploy/prefscore-worker.service runs one (or
several: each claims its own tasks). SIGTERM or Ctrl+C lets the running task finish; a
second one stops it, and the task is queued again. ``--batch`` runs what is due, then
exits.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from prefscore.deferred.worker import TaskWorker, run_due


class Command(BaseCommand):
    help = "Run the queued tasks (deferred work) until stopped; with --batch, those due now."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval", type=float, default=1.0, help="seconds between looks when idle"
        )
        parser.add_argument("--batch", action="store_true", help="run what is due, then exit")

    def handle(self, *args: Any, **options: Any) -> None:
        for name in ("prefscore.deferred", "django_tasks", "django_tasks_db"):
            logger = logging.getLogger(name)
            logger.setLevel(logging.INFO if options["verbosity"] else logging.WARNING)
        if options["batch"]:
            ran = run_due()
            self.stdout.write(f"ran {ran} task(s)")
            return
        worker = TaskWorker(interval=max(0.05, options["interval"]))
        worker.configure_signals()
        worker.run()
