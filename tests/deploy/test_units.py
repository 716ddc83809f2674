"""deploy/'s files as files: systemd and Caddy accept them, every variable they use is
in the environment file, the target starts everything, and the environment file's
settings pass Django's deploy check. test_topology.py runs them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bench.harness.units import (
    DEPLOY,
    PathMap,
    UnitError,
    expand,
    read_environment_file,
    read_unit,
    service_base,
    units,
)
from tests.helpers import ROOT, run_python

SETTINGS = read_environment_file(DEPLOY / "env.example")
SERVICES = sorted(name for name in units() if name.endswith(".service"))
# The site's own processes: they run the checkout's code as the prefscore user.
APP_UNITS = [name for name in SERVICES if name != "prefscore-caddy.service"]
ON_SERVER = PathMap({"/srv/prefscore": ROOT})


def test_every_command_of_every_unit_expands_from_the_environment_file(tmp_path):
    (tmp_path / "env").write_text((DEPLOY / "env.example").read_text())
    paths = PathMap({"/srv/prefscore": ROOT, "/etc/prefscore": tmp_path})
    for name in SERVICES:
        unit = units()[name]
        env = unit.environment(paths, service_base(tmp_path, "prefscore"))
        for argv in unit.commands("ExecStart", env, paths):
            assert os.access(argv[0], os.X_OK) or argv[0] == "/usr/bin/caddy", (name, argv)
            if argv[1:2] == ["manage.py"]:
                assert (ROOT / "manage.py").exists()


def test_the_app_units_run_the_checkout_as_the_prefscore_user_with_its_settings():
    for name in APP_UNITS:
        unit = units()[name]
        assert unit.value("Service", "User") == "prefscore", name
        assert unit.value("Service", "WorkingDirectory") == "/srv/prefscore", name
        assert unit.values("Service", "EnvironmentFile") == [
            "/etc/prefscore/env",
            "-/etc/prefscore/secrets",
        ], name


def test_caddy_reads_the_settings_but_never_the_secrets():
    caddy = units()["prefscore-caddy.service"]
    assert caddy.values("Service", "EnvironmentFile") == ["/etc/prefscore/env"]
    assert caddy.value("Service", "User") == "caddy"


def test_the_environment_file_holds_no_secret():
    assert not {"SECRET_KEY", "EMAIL_HOST_PASSWORD"} & set(SETTINGS)
    assert "@" not in SETTINGS["DATABASE_URL"]  # peer authentication: no password


def test_every_variable_the_caddyfile_needs_is_in_the_environment_file():
    lines = (DEPLOY / "Caddyfile").read_text().splitlines()
    text = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    used = re.findall(r"\{\$(\w+)(:[^}]*)?\}", text)
    needed = {name for name, default in used if not default}
    assert needed == {"DOMAIN", "PAGES_PORT", "STREAMS_PORT"}
    assert needed <= set(SETTINGS)


def test_the_target_starts_every_unit_and_each_stops_with_it():
    target = units()["prefscore.target"]
    wanted = {word for line in target.values("Unit", "Wants") for word in line.split()}
    assert wanted == set(SERVICES) - {"prefscore-backup.service"} | {"prefscore-backup.timer"}
    for name in wanted:
        assert units()[name].value("Unit", "PartOf") == "prefscore.target", name


def test_the_servers_wait_for_the_release_step_and_need_it_to_succeed():
    for name in ("prefscore-web.service", "prefscore-streams.service", "prefscore-worker.service"):
        unit = units()[name]
        assert "prefscore-release.service" in unit.value("Unit", "After").split()
        assert unit.value("Unit", "Requires") == "prefscore-release.service"


def test_the_backup_timer_starts_the_backup_daily_and_keeps_a_number():
    timer = units()["prefscore-backup.timer"]
    backup = units()["prefscore-backup.service"]
    assert timer.value("Timer", "Unit") == "prefscore-backup.service"
    assert timer.value("Timer", "Persistent") == "true"
    assert backup.values("Service", "ExecStart")[0].endswith("backup --keep ${BACKUP_KEEP}")
    assert int(SETTINGS["BACKUP_KEEP"]) >= 7
    if shutil.which("systemd-analyze"):
        calendar = subprocess.run(
            ["systemd-analyze", "calendar", "--iterations=2", timer.value("Timer", "OnCalendar")],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        elapses = re.findall(r"(?:Next elapse|Iter\. #2): \w+ (\S+ \S+)", calendar.stdout)
        first, second = (datetime.fromisoformat(text) for text in elapses)
        assert second - first == timedelta(days=1)


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is absent")
def test_systemd_accepts_every_unit(tmp_path):
    """``systemd-analyze verify``: no unknown key, no bad value, every command there
    (with the checkout for /srv/prefscore)."""
    for name in units():
        text = (DEPLOY / name).read_text().replace("/srv/prefscore", str(ROOT))
        (tmp_path / name).write_text(text)
    verified = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *sorted(map(str, tmp_path.iterdir()))],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    complaints = [line for line in verified.stderr.splitlines() if str(tmp_path) in line
                  or line.startswith("prefscore")]  # fmt: skip
    assert complaints == []


@pytest.mark.skipif(not os.access("/usr/bin/caddy", os.X_OK), reason="Caddy is absent")
def test_caddy_accepts_the_caddyfile_with_the_environment_files_settings():
    validated = subprocess.run(
        ["/usr/bin/caddy", "validate", "--config", str(DEPLOY / "Caddyfile"),
         "--adapter", "caddyfile"],
        env={"PATH": os.environ["PATH"], "HOME": "/nonexistent", **SETTINGS},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert validated.returncode == 0, validated.stderr[-2000:]
    assert "Valid configuration" in validated.stdout + validated.stderr


def test_the_environment_files_settings_pass_the_deploy_check(tmp_path):
    settings = {**SETTINGS, "SECRET_KEY_FILE": str(tmp_path / "secret_key")}
    checked = run_python("manage.py", "check", "--deploy", "--fail-level", "WARNING",
                         env=settings)  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # made once, private


def test_a_unit_using_what_the_reader_does_not_know_is_refused(tmp_path):
    (tmp_path / "odd.service").write_text("[Service]\nExecStart=-/bin/true %i\n")
    unit = read_unit(tmp_path / "odd.service")
    with pytest.raises(UnitError):
        unit.commands("ExecStart", {}, PathMap())
    with pytest.raises(UnitError, match=r"\$MISSING"):
        expand("/bin/echo ${MISSING}", {}, PathMap())
    assert expand("/bin/echo $WORDS x${ONE}y", {"WORDS": "a b", "ONE": "1"}, PathMap()) == [
        "/bin/echo", "a", "b", "x1y"]  # fmt: skip


def test_the_documented_paths_are_the_ones_the_units_use():
    guide = (ROOT / "docs" / "deploy.md").read_text()
    for path in ("/srv/prefscore", "/etc/prefscore/env", "/etc/prefscore/secrets",
                 "/var/lib/prefscore"):  # fmt: skip
        assert path in guide
    for name in units():
        assert name in guide, name
    assert Path(SETTINGS["BACKUP_DIR"]).is_relative_to("/var/lib/prefscore")
