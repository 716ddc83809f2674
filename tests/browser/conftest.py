"""Playwright for Python driving Debian's Chromium against pytest-django's live server.

Playwright's own browser downloads are not used: the machine has no route to them, and
Debian's chromium package is what CI installs. Without /usr/bin/chromium these tests fail.
"""

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # The machine's network is closed: no background calls home.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


# Package scope: the browser and its running event loop end with the browser tests.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    # Playwright's sync API runs an event loop in the test thread, and Django refuses
    # database calls from a thread with a running loop unless told that it is safe here.
    # Set only while the browser runs: the deploy check refuses it in other tests.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page the size of a phone held upright."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="ru-RU")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Make browser contexts (each a device of its own); all are closed after the test.

    A phone held upright in Russian unless told otherwise. A context that bypasses the
    app's script policy (``bypass_csp=True``) is one that checks pages with axe-core,
    and gets axe-core in each page it opens (``support.with_axe``).
    """
    from tests.browser.support import with_axe

    made: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        settings = {"viewport": PHONE, "device_scale_factor": 2, "locale": "ru-RU", **options}
        context = browser.new_context(**settings)
        context.set_default_timeout(10_000)
        if options.get("bypass_csp"):
            with_axe(context)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def presets(transactional_db: None) -> None:
    """The preset conventions, which an earlier transactional test's flush removed."""
    from tests.browser.support import ensure_presets

    ensure_presets()


@pytest.fixture
def task_worker(transactional_db: None, settings: Any) -> Iterator[Any]:
    """The task worker as production runs it (prefscore/deferred/worker.py: its loop, its
    beats, its claims), for a test of deferred work. A thread of this process, not a
    process of its own: the live server's test database lives in this process's memory.
    tests/test_deferred_kill.py runs and kills real worker processes."""
    import threading

    from prefscore.deferred.worker import TaskWorker

    settings.BACKUP_EVERY_HOURS = 0  # no backup of the test database into data/
    worker = TaskWorker(interval=0.1)
    thread = threading.Thread(target=worker.run, name="test-task-worker", daemon=True)
    thread.start()
    yield worker
    worker.running = False
    thread.join(timeout=30)


_STARTED = time.time()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The screenshots this run took, so that CI's log says where they are."""
    if not SCREENSHOTS.is_dir():
        return
    taken = sorted(p for p in SCREENSHOTS.glob("*.png") if p.stat().st_mtime >= _STARTED)
    if taken:
        terminalreporter.section(f"screenshots ({len(taken)})")
        for path in taken:
            terminalreporter.write_line(str(path.relative_to(SCREENSHOTS.parents[1])))
