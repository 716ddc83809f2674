"""gunicorn.conf.py: gunicorn believes X-Forwarded-Proto only when TRUST_X_FORWARDED_PROTO
says so (README, "Running in production"), read through gunicorn's own --print-config."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")


def effective(trust: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "FORWARDED_ALLOW_IPS"}
    env.update(TRUST_X_FORWARDED_PROTO=trust, **extra)
    printed = subprocess.run(
        [str(GUNICORN), "--config", "gunicorn.conf.py", "--print-config", "prefscore.wsgi"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    settings = {}
    for line in printed.splitlines():
        name, _, value = line.partition("=")
        settings[name.strip()] = value.strip()
    return settings


@pytest.mark.parametrize("trust", ["0", "", "no"])
def test_without_the_setting_no_forwarded_header_is_believed_even_from_loopback(trust):
    settings = effective(trust)

    assert settings["forwarded_allow_ips"] == "[]"
    assert settings["secure_scheme_headers"] == "{}"


def test_behind_a_tls_proxy_x_forwarded_proto_is_believed():
    settings = effective("1")

    assert settings["forwarded_allow_ips"] == "['*']"
    assert settings["secure_scheme_headers"] == "{'X-FORWARDED-PROTO': 'https'}"


def test_the_proxy_addresses_can_be_named():
    settings = effective("1", FORWARDED_ALLOW_IPS="10.0.0.5")

    assert settings["forwarded_allow_ips"] == "['10.0.0.5']"
