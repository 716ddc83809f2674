"""Nothing lost, nothing doubled, with real worker processes (prefscore/deferred/worker.py,
docs/tasks.md §3): a worker killed with SIGKILL in the middle of a task, and another
started, run the task to its end exactly once; two workers share the queue, each task
run by one of them; a mail whose worker is killed while the SMTP server holds it is
sent again with the same Message-ID, and marked sent once. On the database the suite runs on: SQLite, or PostgreSQL when
DATABASE_URL names one (.ci/run's second pass).
"""

from __future__ import annotations

import os
import re
import signal
import socketserver
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.mail import send_mail
from django.db import connection
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from prefscore.clubs.models import OutgoingMail
from tests.deferred_tasks import quick_step, slow_step
from tests.helpers import ROOT, SETTINGS_VARIABLES

pytestmark = pytest.mark.django_db(transaction=True)

LEASE_SECONDS = 2


@contextmanager
def shared_database(folder: Path) -> Iterator[str]:
    """A DATABASE_URL that a worker process opens onto this test's database: the test
    database itself on PostgreSQL; on SQLite, whose test database lives in this
    process's memory, a file copy of it, copied back once the workers are done."""
    if connection.vendor == "postgresql":
        db = connection.settings_dict
        user = f"{quote(db['USER'] or '')}:{quote(str(db['PASSWORD'] or ''))}@"
        address = f"{db['HOST'] or ''}:{db['PORT']}" if db["PORT"] else db["HOST"] or ""
        yield f"postgres://{user}{address}/{quote(db['NAME'])}"
        return
    connection.ensure_connection()
    memory = connection.connection
    file = folder / "db.sqlite3"
    with sqlite3.connect(file) as copy:
        memory.backup(copy)
    copy.close()
    yield f"sqlite:///{file}"
    with sqlite3.connect(file) as copy:
        copy.backup(memory)
    copy.close()


def start_worker(
    database_url: str, out: Path, command: tuple[str, ...] = ("manage.py",), **extra: str
) -> subprocess.Popen[bytes]:
    """``manage.py run_worker`` as deploy/ and ``make run`` start it, on that database
    (``command``: a script that runs it, such as tests/slow_count_worker.py)."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update(
        DEBUG="1",
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="prefscore.settings",
        TASK_WORKER_LEASE_SECONDS=str(LEASE_SECONDS),
        TASK_RETRY_SECONDS="1",
        BACKUP_EVERY_HOURS="0",
        TIME_ZONE=os.environ.get("TIME_ZONE", "Europe/Moscow"),
        **extra,
    )
    with out.open("ab") as log:
        return subprocess.Popen(
            [sys.executable, *command]
            + (["run_worker", "--interval", "0.1"] if command == ("manage.py",) else []),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def wait_for(condition: Callable[[], bool], seconds: float, what: str, out: Path) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s\n{out.read_text()}")
        time.sleep(0.1)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def stop(worker: subprocess.Popen[bytes]) -> None:
    worker.terminate()  # lets a running task finish
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def test_a_worker_killed_mid_task_loses_it_not_and_the_next_runs_it_once(tmp_path):
    log, out = tmp_path / "task.log", tmp_path / "workers.log"
    result = slow_step.enqueue(str(log), 600)

    with shared_database(tmp_path) as url:
        first = start_worker(url, out)
        try:
            wait_for(lambda: "start 1" in lines(log), 120, "the first worker began", out)
        finally:
            first.send_signal(signal.SIGKILL)  # in the middle of the task
            first.wait()
        assert lines(log) == ["start 1"]

        second = start_worker(url, out)
        try:
            wait_for(lambda: "done 2" in lines(log), 120, "the second worker finished", out)
            time.sleep(3 * LEASE_SECONDS)  # time enough to run it a third time, were it to
        finally:
            stop(second)

    assert lines(log) == ["start 1", "start 2", "done 2"]  # once to its end, not again
    row = DBTaskResult.objects.get(id=result.id)
    assert row.status == TaskResultStatus.SUCCESSFUL and row.return_value == "done"
    assert len(row.worker_ids) == 2 and row.worker_ids[0] != row.worker_ids[1]
    assert "stopped during try 1" in out.read_text()  # the second worker said why


def test_two_workers_share_the_queue_and_run_each_task_once(tmp_path):
    log, out = tmp_path / "task.log", tmp_path / "workers.log"
    results = [quick_step.enqueue(str(log), number) for number in range(30)]

    with shared_database(tmp_path) as url:
        workers = [start_worker(url, out), start_worker(url, out)]
        try:
            wait_for(lambda: len(lines(log)) >= 30, 120, "the tasks ran", out)
            time.sleep(1)
        finally:
            for worker in workers:
                stop(worker)

    done = [line.split() for line in lines(log)]
    assert sorted(int(number) for number, _ in done) == list(range(30))  # each once
    rows = DBTaskResult.objects.filter(id__in=[r.id for r in results])
    assert {row.status for row in rows} == {TaskResultStatus.SUCCESSFUL}
    assert all(len(row.worker_ids) == 1 for row in rows)


class HoldingSmtp(socketserver.StreamRequestHandler):
    """Just enough SMTP for Django's backend. It keeps each mail's Message-ID as the mail
    arrives, and holds its answer to the first mail (its sender is killed meanwhile)."""

    received: list[str] = []
    hold = 600.0

    def reply(self, line: str) -> None:
        self.wfile.write(f"{line}\r\n".encode())

    def handle(self) -> None:
        self.reply("220 test.localhost ESMTP")
        while line := self.rfile.readline():
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                self.reply("250 test.localhost")
            elif verb == b"DATA":
                self.reply("354 go on")
                message = []
                while (data := self.rfile.readline()) not in (b".\r\n", b""):
                    message.append(data.decode())
                found = re.search(r"^Message-ID: (.+?)\r?$", "".join(message), re.M | re.I)
                HoldingSmtp.received.append(found.group(1) if found else "")
                if len(HoldingSmtp.received) == 1:
                    time.sleep(HoldingSmtp.hold)
                self.reply("250 queued")
            elif verb == b"QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


@pytest.fixture
def smtp() -> Iterator[int]:
    HoldingSmtp.received = []
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), HoldingSmtp)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield int(server.server_address[1])
    server.shutdown()
    server.server_close()


def test_a_mail_whose_worker_is_killed_mid_send_goes_again_as_the_same_mail(
    tmp_path, settings, smtp
):
    settings.EMAIL_BACKEND = "prefscore.clubs.mail_queue.QueueBackend"
    out = tmp_path / "workers.log"
    send_mail("Subject", "The body", "site@example.com", ["lena@example.com"])
    (row,) = OutgoingMail.objects.all()
    mail_server = {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp), "EMAIL_USE_TLS": "0"}

    with shared_database(tmp_path) as url:
        first = start_worker(url, out, MAIL_CLAIM_SECONDS="1", **mail_server)
        try:  # the SMTP server has the mail, and has not said "queued" yet
            wait_for(lambda: len(HoldingSmtp.received) == 1, 120, "the mail arrived", out)
        finally:
            first.send_signal(signal.SIGKILL)
            first.wait()
        second = start_worker(url, out, MAIL_CLAIM_SECONDS="1", **mail_server)
        try:
            wait_for(lambda: len(HoldingSmtp.received) == 2, 120, "the mail went again", out)
            time.sleep(3 * LEASE_SECONDS)  # time enough for a third, were there one
        finally:
            stop(second)

    first_id, again_id = HoldingSmtp.received
    assert first_id == again_id == row.message["headers"]["Message-ID"]  # shown once
    row.refresh_from_db()
    assert row.sent_at is not None and row.attempts == 2
    (task,) = DBTaskResult.objects.filter(task_path="prefscore.clubs.mail_queue.send_queued")
    assert task.status == TaskResultStatus.SUCCESSFUL and len(task.worker_ids) == 2
