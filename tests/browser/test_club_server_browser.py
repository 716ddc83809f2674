"""A new club's evening on ``make run``, tried as the club would, on phones (390×844) in
Russian and in English, against the real server process on this machine's LAN address
(prefscore/lan.py), plain http as on a club's Wi-Fi:

- the owner's first start: the one-time link the start printed makes his account, and
  he creates the club and an invitation;
- a member's first sign-in: he signs up from the invitation; later, after failures from
  elsewhere have challenged his username (no mail on this server, no email needed), his
  new phone signs in once the owner types the code it shows (prefscore/clubs/approvals.py);
- a phone losing the Wi-Fi is told not to reload, its entries being kept
  (static/js/plain-offline.js).
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from prefscore import lan
from tests.browser.support import OVERFLOW_JS, TAP_TARGETS_JS, axe_violations, screenshot
from tests.helpers import ROOT, SETTINGS_VARIABLES

pytestmark = pytest.mark.browser

PASSWORD = "a long passphrase 7"
# The member's new phone comes from an address he never used: another of the loopback's.
NEW_PHONE = "127.0.0.2"
WORDS = {
    "ru-RU": {
        "owner": "Владелец сервера",
        "code": "Код этого устройства",
        "requests": "Запросы входа",
        "offline": "Не перезагружайте страницу",
        "accept": "Принять приглашение",
    },
    "en-US": {
        "owner": "This server's owner",
        "code": "This device's code",
        "requests": "Sign-in requests",
        "offline": "Do not reload this page",
        "accept": "Accept the invitation",
    },
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        return int(probe.getsockname()[1])


class ClubServer:
    """``python -m prefscore.lan`` as ``make run`` starts it, on a database of its own."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.database = folder / "db.sqlite3"
        env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
        env.update(
            DEBUG="0",
            PLAIN_HTTP="1",
            SECRET_KEY_FILE=str(folder / "secret_key"),
            DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
            BACKUP_DIR=str(folder / "backups"),
            BACKUP_EVERY_HOURS="0",
            # Four failures from elsewhere challenge a username (50 by default): the
            # test's "botnet" is one other address of this machine.
            SIGNIN_FAILURES_PER_USERNAME_ANYWHERE="4",
            # Other addresses of this machine, for the "botnet" and the member's new phone.
            ALLOWED_HOSTS=",".join(["localhost", "127.0.0.1", NEW_PHONE, *lan.lan_addresses()]),
        )
        self.process = subprocess.Popen(
            [sys.executable, "-m", "prefscore.lan", "--port", str(self.port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.url, self.owner_link = self._started()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)

    def _started(self) -> tuple[str, str]:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            text = "".join(self.lines)
            if "Ctrl-C stops it." in text and self._listening():
                url = re.search(r"prefscore is at (\S+)", text)
                link = re.search(r"(http://\S+/owner/\S+/)", text)
                assert url and link, text
                return url.group(1), link.group(1)
            assert self.process.poll() is None, text
            time.sleep(0.2)
        raise AssertionError("the server did not start: " + "".join(self.lines))

    def _listening(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        return True

    def workers(self) -> int:
        """The task workers alive now: those that beat (prefscore/deferred/worker.py)."""
        deadline = time.monotonic() + 30
        while True:
            with sqlite3.connect(self.database) as database:
                (count,) = database.execute("SELECT count(*) FROM deferred_workerbeat").fetchone()
            database.close()
            if count or time.monotonic() > deadline:
                return int(count)
            time.sleep(0.2)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


# One evening, in English (CONTRIBUTING.md, "Tests": a walk runs in one language).
@pytest.fixture(params=["en-US"])
def club_server(request, tmp_path) -> Iterator[tuple[ClubServer, str]]:
    if not lan.lan_addresses():
        pytest.skip("this machine has no LAN address: plain http on loopback is a secure context")
    server = ClubServer(tmp_path)
    try:
        yield server, request.param
    finally:
        server.stop()
    # Stopped with the server, cleanly: a worker's beat goes when it stops.
    with sqlite3.connect(server.database) as database:
        assert database.execute("SELECT count(*) FROM deferred_workerbeat").fetchone() == (0,)
    database.close()


def looks_right(page: Page, name: str, screenshot_dir: Path) -> None:
    """A phone's page: no sideways scrolling, taps of 44 px, axe content; a screenshot."""
    screenshot(page, screenshot_dir / f"{name}.png", full_page=True)
    assert page.evaluate(OVERFLOW_JS)["scrollWidth"] <= 390
    assert page.evaluate(TAP_TARGETS_JS, 44) == []
    assert axe_violations(page) == []


def phone(new_context, locale: str) -> Page:
    context: BrowserContext = new_context(locale=locale, bypass_csp=True)  # axe is injected
    return context.new_page()


def test_a_new_clubs_first_evening_on_make_run(club_server, new_context, screenshot_dir):
    server, locale = club_server
    words = WORDS[locale]
    language = locale[:2]
    assert server.url.startswith("http://") and "127.0.0.1" not in server.url
    # The task worker runs beside it (prefscore/lan.py): its beat is in the database.
    assert server.workers() == 1

    # The owner's first start: the printed link makes his account.
    owner = phone(new_context, locale)
    owner.goto(server.owner_link)
    expect(owner.locator("h1")).to_have_text(words["owner"])
    looks_right(owner, f"club-server-owner-{language}", screenshot_dir)
    owner.fill("#id_username", "vera")
    owner.fill("#id_first_name", "Вера")
    owner.fill("#id_password1", PASSWORD)
    owner.fill("#id_password2", PASSWORD)
    owner.locator("main form button[type=submit]").click()
    owner.locator("#create-club").wait_for()
    owner.fill("#id_name", "Пятница")
    owner.fill("#id_slug", "pyatnica")
    owner.locator("#create-club button[type=submit]").click()
    owner.wait_for_url("**/clubs/pyatnica/")
    # The link is used: it opens nothing any more.
    again = phone(new_context, locale)
    assert again.goto(server.owner_link).status == 404

    # A member's first sign-in: he signs up from the owner's invitation.
    owner.goto(f"{server.url}/clubs/pyatnica/members/")
    owner.locator("#invitations form.form button[type=submit]").click()
    link = owner.locator(".invitation-list__link").first.input_value()
    member = phone(new_context, locale)
    member.goto(link)
    member.locator("a[href^='/accounts/signup/']").click()
    member.fill("#id_username", "boris")
    member.fill("#id_email", "boris@example.com")
    member.fill("#id_password1", PASSWORD)
    member.fill("#id_password2", PASSWORD)
    member.locator("form.form button[type=submit]").click()
    member.get_by_role("button", name=words["accept"]).click()
    member.wait_for_url("**/clubs/pyatnica/members/")

    # Failures from elsewhere (another address of this machine) challenge his username.
    attacker = phone(new_context, locale)
    for _ in range(4):
        attacker.goto(f"http://127.0.0.1:{server.port}/accounts/login/")
        attacker.fill("#id_username", "boris")
        attacker.fill("#id_password", "a guess")
        attacker.locator("main form button[type=submit]").click()

    # His new phone: the right password, then the code the owner types in.
    new_phone = phone(new_context, locale)
    new_phone.goto(f"http://{NEW_PHONE}:{server.port}/accounts/login/?next=/clubs/pyatnica/")
    new_phone.fill("#id_username", "boris")
    new_phone.fill("#id_password", PASSWORD)
    new_phone.locator("main form button[type=submit]").click()
    code = new_phone.locator("#approval-code")
    code.wait_for()
    assert words["code"] in new_phone.content()
    looks_right(new_phone, f"club-server-signin-approval-{language}", screenshot_dir)
    owner.goto(f"{server.url}/")
    owner.locator(".notice a[href='/accounts/approvals/']").click()
    expect(owner.locator("h1")).to_have_text(words["requests"])
    looks_right(owner, f"club-server-approvals-{language}", screenshot_dir)
    owner.fill("#id_code", code.inner_text())
    owner.locator("main form.form button[type=submit]").click()
    new_phone.wait_for_url("**/clubs/pyatnica/", timeout=20_000)  # it asks every 3 s

    # A phone on the Wi-Fi (plain http) loses it: told not to reload, then no more.
    member.goto(f"{server.url}/clubs/pyatnica/")
    note = member.locator("#plain-offline")
    expect(note).to_be_hidden()
    member.context.set_offline(True)
    expect(note).to_be_visible()
    expect(note).to_contain_text(words["offline"])
    screenshot(member, screenshot_dir / f"club-server-offline-{language}.png")
    member.context.set_offline(False)
    expect(note).to_be_hidden()
