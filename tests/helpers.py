"""Helpers shared by tests that run manage.py or Python in a subprocess."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Variables the settings read; a subprocess starts without them unless a test sets them.
SETTINGS_VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DOMAIN",
    "STATIC_ROOT",
    "DATABASE_URL",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT",
    "TRUST_X_FORWARDED_PROTO",
    "EMAIL_HOST",
    "SECRET_KEY_FILE",
    "PLAIN_HTTP",
    "PUBLIC_URL",
    "TIME_ZONE",
    "TZ",
    # Set by the browser tests; the deploy check rightly refuses it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
)


def run_python(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the project's Python with only `env` for the settings' variables."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    clean["DJANGO_SETTINGS_MODULE"] = "prefscore.settings"
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
