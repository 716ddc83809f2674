"""``make run CERT=… KEY=…``: the club's server over HTTPS with the club's own certificate
(prefscore/lan.py), started as make run starts it, with a self-signed certificate."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from prefscore import lan
from tests.helpers import ROOT, SETTINGS_VARIABLES

# make run, on an SQLite file of its own whatever the run's DATABASE_URL: CI runs it once.
pytestmark = pytest.mark.own_database

NAME = "localhost"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", f"/CN={NAME}"]
        + ["-addext", f"subjectAltName=DNS:{NAME}"],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_the_certificates_name_is_read_from_it(certificate):
    assert lan.certificate_names(str(certificate[0])) == [NAME]


def test_make_run_with_a_certificate_serves_https_under_its_name(certificate, tmp_path):
    cert, key = certificate
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    env.update(
        DEBUG="0",
        PLAIN_HTTP="1",  # as make run sets it: the certificate turns it off
        SECRET_KEY_FILE=str(tmp_path / "secret_key"),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        BACKUP_DIR=str(tmp_path / "backups"),
        BACKUP_EVERY_HOURS="0",
    )
    command = [sys.executable, "-m", "prefscore.lan", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--cert", str(cert), "--key", str(key)]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    context = ssl.create_default_context(cafile=str(cert))
    try:
        answer = None
        deadline = time.monotonic() + 120
        while answer is None and time.monotonic() < deadline:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                answer = urllib.request.urlopen(
                    f"https://{NAME}:{port}/accounts/login/", context=context, timeout=5
                )
            except OSError:
                time.sleep(0.5)
        assert answer is not None and answer.status == 200
        cookies = answer.headers.get_all("Set-Cookie") or []
        assert cookies and all("Secure" in cookie for cookie in cookies)
        assert "max-age" in answer.headers["Strict-Transport-Security"]
        answer.close()  # uvicorn waits for open connections before it stops
    finally:
        server.terminate()
        try:
            output = server.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            server.kill()
            output = server.communicate()[0]
    assert f"prefscore is at https://{NAME}:{port}" in output
    assert lan.PLAIN_HTTP_NOTE not in output
