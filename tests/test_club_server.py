"""``make run``: the club's own server on its Wi-Fi (prefscore/lan.py, the settings it sets).

The server itself is tried by hand from the machine's non-loopback address (README,
"Run it"); these check what it is made of: the secret key kept in data/, the LAN
addresses and hosts, plain http, the QR codes' address, and the deploy check.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import RequestFactory, override_settings

from prefscore import lan
from prefscore.games.presenters.joining import join_url
from prefscore.settings import secret_key
from tests.helpers import run_python

TLS_WARNINGS = {"security.W004", "security.W008", "security.W012", "security.W016"}


def test_the_secret_key_is_made_once_readable_by_its_owner_only(tmp_path: Path):
    path = tmp_path / "data" / "secret_key"

    made = secret_key({"SECRET_KEY_FILE": str(path)}, debug=False)
    again = secret_key({"SECRET_KEY_FILE": str(path)}, debug=False)

    assert made == again and len(made) >= 50
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_secret_key_in_the_environment_wins_over_the_file(tmp_path: Path):
    path = tmp_path / "secret_key"

    assert secret_key({"SECRET_KEY": "k" * 50, "SECRET_KEY_FILE": str(path)}, False) == "k" * 50
    assert not path.exists()


def test_the_lan_addresses_leave_out_loopback_and_link_local_and_put_private_first():
    found = lan.lan_addresses(["127.0.0.1", "93.184.216.34", "169.254.3.4", "192.168.1.20"])

    assert found == ["192.168.1.20", "93.184.216.34"]


def test_the_lan_addresses_of_this_machine_are_not_loopback():
    assert all(not address.startswith("127.") for address in lan.lan_addresses())


def test_the_server_answers_to_its_lan_addresses_and_the_codes_give_the_first():
    env = lan.lan_environment(["192.168.1.20", "10.0.0.5"], 8000, {}, "clubpc")

    assert env["ALLOWED_HOSTS"].split(",") == [
        "localhost",
        "127.0.0.1",
        "[::1]",
        "clubpc",
        "clubpc.local",
        "192.168.1.20",
        "10.0.0.5",
    ]
    assert env["PUBLIC_URL"] == "http://192.168.1.20:8000"
    kept = lan.lan_environment(["192.168.1.20"], 8000, {"PUBLIC_URL": "https://pref.example"})
    assert kept["PUBLIC_URL"] == "https://pref.example"


def test_the_banner_prints_the_address_and_a_qr_code_of_it():
    text = lan.banner("http://192.168.1.20:8000", ["192.168.1.20"], 8000)

    assert "prefscore is at http://192.168.1.20:8000" in text
    assert "█" in text  # the QR code, drawn in block characters
    assert "demo" not in text  # no published sign-in


def test_on_plain_http_the_banner_says_what_the_phones_miss_and_how_to_get_it():
    plain = lan.banner("http://192.168.1.20:8000", ["192.168.1.20"], 8000)
    secure = lan.banner("https://pref.club.example:8000", ["192.168.1.20"], 8000)

    assert lan.PLAIN_HTTP_NOTE in plain
    assert "offline" in lan.PLAIN_HTTP_NOTE and "CERT=" in lan.PLAIN_HTTP_NOTE
    assert lan.PLAIN_HTTP_NOTE not in secure


def test_a_server_without_an_owner_prints_the_owners_link_and_its_qr_code():
    link = "http://192.168.1.20:8000/owner/" + "t" * 43 + "/"

    text = lan.banner("http://192.168.1.20:8000", ["192.168.1.20"], 8000, link)

    assert link in text
    assert text.count("▀") > lan.banner("http://192.168.1.20:8000", [], 8000).count("▀")


def test_with_a_certificate_the_address_is_its_name_over_https():
    env = lan.lan_environment(["192.168.1.20"], 8443, {}, "clubpc", "pref.club.example")

    assert env["PUBLIC_URL"] == "https://pref.club.example:8443"
    assert "pref.club.example" in env["ALLOWED_HOSTS"].split(",")
    assert env["PLAIN_HTTP"] == "0"


@override_settings(PUBLIC_URL="http://192.168.1.20:8000")
def test_the_join_code_gives_the_public_address_even_on_a_page_opened_at_loopback():
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")

    assert join_url(request, "abc").startswith("http://192.168.1.20:8000/join/abc/")


@override_settings(ALLOWED_HOSTS=["pref.example"])
def test_without_a_public_address_the_join_code_gives_the_pages_own():
    request = RequestFactory().get("/", HTTP_HOST="pref.example")

    assert join_url(request, "abc").startswith("http://pref.example/join/abc/")


@pytest.mark.parametrize("plain", ["1", "0"])
def test_the_deploy_check_under_make_run_warns_of_tls_only(tmp_path: Path, plain: str):
    result = run_python(
        "manage.py",
        "check",
        "--deploy",
        env={
            "DEBUG": "0",
            "SECRET_KEY_FILE": str(tmp_path / "secret_key"),
            "PLAIN_HTTP": plain,
            "ALLOWED_HOSTS": "localhost,192.168.1.20",
            "PUBLIC_URL": "http://192.168.1.20:8000",
        },
    )

    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr
    codes = {word.strip("():") for word in output.split() if word.startswith("(security.")}
    assert codes == (TLS_WARNINGS if plain == "1" else set())


def test_the_worker_beside_the_server_is_started_again_when_it_stops_and_stops_with_it():
    spawned: list[subprocess.Popen[bytes]] = []

    class Watched(lan.WorkerProcess):
        AGAIN_AFTER = 0.05

        def _spawn(self) -> subprocess.Popen[bytes]:
            # The first ends at once (a crash); the second runs until stopped.
            code = "pass" if not spawned else "import time; time.sleep(60)"
            spawned.append(subprocess.Popen([sys.executable, "-c", code]))
            return spawned[-1]

    worker = Watched()
    worker.start()
    deadline = time.monotonic() + 20
    while len(spawned) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    worker.stop()

    assert len(spawned) == 2
    assert spawned[1].wait(timeout=10) == -signal.SIGTERM  # stopped with the server
    worker.watcher.join(timeout=5)
    assert not worker.watcher.is_alive() and len(spawned) == 2
