"""The hosted route of deploy/ brought up on one machine, each process started with the
command its unit file gives (``units.py``), for tests/deploy/ and bench/deploy_push.py.

What runs, as on a server (docs/deploy.md): a throwaway PostgreSQL 15 cluster (as the
postgres user when we are root: initdb refuses root); the release step
(prefscore-release.service's commands, in order); gunicorn, uvicorn and the worker
(prefscore-web, -streams, -worker); Caddy with deploy/Caddyfile (prefscore-caddy), its
own certificate authority serving ``prefscore.localhost``, which Chromium resolves to
loopback. The environment file is deploy/env.example with this machine's values: free
ports (never 80 and 443), the throwaway database, folders in the scratch folder.

Each service gets the environment systemd would give it and nothing of the caller's.
Every process started here is stopped here; every wait has a bound.
"""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .postgres import PG_BIN, throwaway_postgres
from .server import HOST, ROOT, _stop, free_port
from .units import DEPLOY, PathMap, Unit, read_environment_file, service_base, units

DOMAIN = "prefscore.localhost"
RELEASE = "prefscore-release.service"
SERVICES = ("prefscore-web.service", "prefscore-streams.service", "prefscore-worker.service")
CADDY = "prefscore-caddy.service"
BACKUP = "prefscore-backup.service"
START_SECONDS = 60
# Caddy's own certificate authority, under the home of the user it runs as.
CADDY_ROOT = Path(".local/share/caddy/pki/authorities/local/root.crt")
# The binaries the topology needs besides the project's .venv: (path, Debian package).
NEEDS = (
    ("/usr/bin/caddy", "caddy"),
    (str(PG_BIN / "initdb"), "postgresql-15"),
    ("/usr/bin/certutil", "libnss3-tools"),
)


def missing_binaries() -> list[str]:
    """The Debian packages whose binaries are absent here (empty: all present)."""
    return [package for path, package in NEEDS if not os.access(path, os.X_OK)]


class StartError(RuntimeError):
    """A process of the topology did not start; the message carries its log's end."""


@dataclass
class Site:
    """The running topology: its address, its processes, and how to run more commands."""

    workdir: Path
    origin: str
    https_port: int
    settings: dict[str, str]  # the environment file as written
    paths: PathMap
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=units)

    @property
    def root_certificate(self) -> Path:
        return self.home("caddy") / CADDY_ROOT

    def home(self, user: str) -> Path:
        path = self.workdir / "home" / user
        path.mkdir(parents=True, exist_ok=True)
        return path

    def log(self, unit: str) -> Path:
        return self.workdir / "logs" / f"{unit}.log"

    def environment(self, unit: str) -> dict[str, str]:
        """What systemd gives the unit's processes: its user's home, then its files."""
        service = self.units[unit]
        user = service.value("Service", "User", "root") or "root"
        return service.environment(self.paths, service_base(self.home(user), user))

    def commands(self, unit: str) -> list[list[str]]:
        return self.units[unit].commands("ExecStart", self.environment(unit), self.paths)

    def run_oneshot(self, unit: str, timeout: float = 300) -> list[str]:
        """Each ExecStart of a oneshot unit in order, as systemd runs them; their output.
        A failing command stops there, as it stops the unit."""
        outputs = []
        log = self.log(unit)
        log.parent.mkdir(exist_ok=True)
        for argv in self.commands(unit):
            done = subprocess.run(
                argv, cwd=self._directory(unit), env=self.environment(unit),
                capture_output=True, text=True, timeout=timeout, check=False,
            )  # fmt: skip
            with log.open("a") as out:
                out.write(f"$ {' '.join(argv)}\n{done.stdout}{done.stderr}")
            if done.returncode:
                raise StartError(f"{unit}: {' '.join(argv)} exited {done.returncode}:\n"
                                 f"{done.stdout[-2000:]}{done.stderr[-3000:]}")  # fmt: skip
            outputs.append(done.stdout)
        return outputs

    def manage(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """``manage.py`` as an administrator runs it beside the units: the web unit's
        environment, in the checkout."""
        unit = "prefscore-web.service"
        python = self.paths("/srv/prefscore/.venv/bin/python")
        return subprocess.run(
            [python, "manage.py", *args], cwd=self._directory(unit),
            env=self.environment(unit), capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip

    def start(self, unit: str) -> subprocess.Popen[bytes]:
        (argv,) = self.commands(unit)
        log = self.log(unit)
        log.parent.mkdir(exist_ok=True)
        with log.open("ab") as out:
            process = subprocess.Popen(
                argv, cwd=self._directory(unit), env=self.environment(unit),
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.processes[unit] = process
        return process

    def stop(self, unit: str) -> None:
        process = self.processes.pop(unit, None)
        if process is not None:
            _stop(process)

    def stop_all(self) -> None:
        for unit in reversed(list(self.processes)):
            self.stop(unit)

    def https(self, timeout: float = 10) -> http.client.HTTPSConnection:
        """A connection to the site through Caddy, trusting Caddy's authority alone."""
        return _Connection(DOMAIN, self.https_port, self.root_certificate, timeout)

    def _directory(self, unit: str) -> Path:
        return self.units[unit].working_directory(self.paths) or self.workdir

    def wait_for_port(self, unit: str, port: int) -> None:
        process = self.processes[unit]
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise StartError(f"{unit} stopped:\n{self.log(unit).read_text()[-3000:]}")
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise StartError(f"{unit} did not listen on {port} within {START_SECONDS} s")

    def wait_for_caddy(self) -> None:
        """Until Caddy answers over HTTPS with a certificate its authority signed."""
        process = self.processes[CADDY]
        deadline = time.monotonic() + START_SECONDS
        last: Exception | None = None
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise StartError(f"Caddy stopped:\n{self.log(CADDY).read_text()[-3000:]}")
            if self.root_certificate.exists():
                try:
                    connection = self.https(timeout=5)
                    connection.request("GET", "/favicon.ico")
                    connection.getresponse().read()
                    connection.close()
                    return
                except (OSError, ssl.SSLError, http.client.HTTPException) as error:
                    last = error
            time.sleep(0.1)
        raise StartError(f"Caddy did not answer over HTTPS: {last}")


class _Connection(http.client.HTTPSConnection):
    """HTTPS to ``prefscore.localhost`` on loopback, with that name in SNI and Host."""

    def __init__(self, host: str, port: int, root: Path, timeout: float) -> None:
        context = ssl.create_default_context(cafile=str(root))
        super().__init__(host, port, timeout=timeout, context=context)
        self._context = context

    def connect(self) -> None:
        raw = socket.create_connection((HOST, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)


def site_settings(workdir: Path, database_url: str, **overrides: str) -> dict[str, str]:
    """deploy/env.example with this machine's values in place of the server's."""
    settings = read_environment_file(DEPLOY / "env.example")
    state = workdir / "state"
    settings.update(
        DOMAIN=DOMAIN,
        HTTP_PORT=str(free_port()),
        HTTPS_PORT=str(free_port()),
        PAGES_PORT=str(free_port()),
        STREAMS_PORT=str(free_port()),
        DATABASE_URL=database_url,
        SECRET_KEY_FILE=str(state / "secret_key"),
        BACKUP_DIR=str(state / "backups"),
        STATIC_ROOT=str(workdir / "static"),
        WEB_CONCURRENCY="2",
    )
    settings.update(overrides)
    return settings


def prepare(workdir: Path, database_url: str, **overrides: str) -> Site:
    """The environment file written in ``workdir``, and the Site that reads it (nothing
    started yet)."""
    settings = site_settings(workdir, database_url, **overrides)
    etc = workdir / "etc"
    etc.mkdir(exist_ok=True)
    (etc / "env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    paths = PathMap({"/srv/prefscore": ROOT, "/etc/prefscore": etc})
    origin = f"https://{DOMAIN}:{settings['HTTPS_PORT']}"
    return Site(workdir, origin, int(settings["HTTPS_PORT"]), settings, paths)


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A folder for one topology, removed afterwards."""
    workdir = Path(tempfile.mkdtemp(prefix="prefscore-topology-"))
    os.chmod(workdir, 0o755)  # the postgres user runs the throwaway server in it
    try:
        yield workdir
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def hosted_site(**overrides: str) -> Iterator[Site]:
    """The whole topology, up and answering over HTTPS, until the block ends.

    ``overrides`` replace lines of the environment file (``STREAM_READ_TIMEOUT="25s"``).
    """
    with scratch_folder() as workdir, ExitStack() as stack:
        database_url = stack.enter_context(throwaway_postgres(workdir))
        site = prepare(workdir, database_url, **overrides)
        stack.callback(site.stop_all)
        site.run_oneshot(RELEASE)
        for unit in SERVICES:
            site.start(unit)
        site.wait_for_port(SERVICES[0], int(site.settings["PAGES_PORT"]))
        site.wait_for_port(SERVICES[1], int(site.settings["STREAMS_PORT"]))
        site.start(CADDY)
        site.wait_for_caddy()
        yield site
