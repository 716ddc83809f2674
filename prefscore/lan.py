"""``make run``: a club's own server on its Wi-Fi (README, "Run it").

``python -m prefscore.lan --port 8000`` finds the machine's LAN addresses, lets Django
answer to them (``ALLOWED_HOSTS``), makes the first one the address of the join and
spectator QR codes (``PUBLIC_URL``), prepares the database (prefscore/startup.py: checks,
a backup before an upgrade, migrations, the owner's one-time link), prints the address
with a QR code the phones can scan, and serves the whole site under uvicorn on every
interface: the pages, the static files (WhiteNoise) and the change signal
(``games/views/events.py``) in one process, which keeps the SQLite watcher to one per
server. Beside it runs the worker (``manage.py run_worker``, :class:`WorkerProcess`): the
deferred work, the mail and the daily backups among it (docs/tasks.md).

Plain http unless the club has a certificate for a name that points at this machine:
``--cert FILE --key FILE`` (``make run CERT=… KEY=…``) serves HTTPS under that name
(``--name``, else the certificate's first DNS name), which the phones need for the
offline sheet and installing to the home screen.

Sets the environment before Django is set up: what it sets is what the settings read.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn

ROOT = Path(__file__).resolve().parent.parent

LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
STREAMS_END_AFTER = 3  # seconds a stop waits for open event streams (run_uvicorn)
# Linux's ioctl that reads an interface's IPv4 address; elsewhere it fails, and the
# addresses of the machine's own name are used instead.
SIOCGIFADDR = 0x8915


def _interface_addresses() -> Iterator[str]:
    """Each interface's IPv4 address (Linux); reads the kernel's table, sends nothing."""
    try:
        import fcntl
        import struct
    except ImportError:  # not a Unix
        return
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:  # no IPv4 address, or not Linux
                continue
            yield socket.inet_ntoa(answer[20:24])


def _name_addresses() -> Iterator[str]:
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return
    for *_rest, sockaddr in found:
        yield str(sockaddr[0])


def lan_addresses(candidates: Iterable[str] | None = None) -> list[str]:
    """The machine's IPv4 addresses the phones can reach: no loopback, no link-local;
    private ranges (a club's Wi-Fi) first, in the order found."""
    if candidates is None:
        candidates = [*_interface_addresses(), *_name_addresses()]
    kept: list[str] = []
    for text in candidates:
        address = ipaddress.ip_address(text)
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        if text not in kept:
            kept.append(text)
    return sorted(kept, key=lambda text: not ipaddress.ip_address(text).is_private)


def lan_environment(
    addresses: list[str],
    port: int,
    env: dict[str, str],
    hostname: str = "",
    tls_name: str = "",
) -> dict[str, str]:
    """What the settings read: the hosts to answer to and the address the QR codes give.

    The machine's name counts too, bare and under ``.local`` (mDNS, as phones and laptops
    resolve it). With a certificate (``tls_name``) the address is that name over HTTPS,
    and the site runs as production does (no ``PLAIN_HTTP``: secure cookies, a redirect
    to HTTPS). A variable already set (``ALLOWED_HOSTS``, ``PUBLIC_URL``) is kept.
    """
    names = [hostname, f"{hostname}.local"] if hostname else []
    hosts = LOOPBACK_HOSTS + ([tls_name] if tls_name else []) + names + addresses
    if tls_name:
        public = f"https://{tls_name}:{port}"
    else:
        public = f"http://{addresses[0]}:{port}" if addresses else f"http://127.0.0.1:{port}"
    found = {
        "ALLOWED_HOSTS": env.get("ALLOWED_HOSTS") or ",".join(hosts),
        "PUBLIC_URL": env.get("PUBLIC_URL") or public,
    }
    if tls_name:
        found["PLAIN_HTTP"] = "0"
    return found


def certificate_names(cert_file: str) -> list[str]:
    """The DNS names a PEM certificate is for (its subjectAltName), in its order."""
    import ssl

    try:
        decoded = ssl._ssl._test_decode_cert(cert_file)  # type: ignore[attr-defined]
    except (AttributeError, OSError, ssl.SSLError, ValueError):
        return []
    return [value for kind, value in decoded.get("subjectAltName", ()) if kind == "DNS"]


# What the organiser is told of plain http, where it matters (README, "Offline, and on a
# home screen").
PLAIN_HTTP_NOTE = (
    "Plain http: the phones keep and send their entries, but cannot reload the sheet "
    "offline or install it on the home screen. Those need HTTPS: make run CERT=… KEY=… "
    "with a certificate for a name that points at this machine, or the hosted route "
    "(README, 'Running in production')."
)


def banner(
    public_url: str,
    addresses: list[str],
    port: int,
    owner_url: str | None = None,
    notes: Iterable[str] = (),
) -> str:
    """What the terminal shows: where the phones go, as text and as a QR code; on a
    server without an owner, the owner's one-time link and its QR code too."""
    import segno

    lines = [f"prefscore is at {public_url}", ""]
    if not addresses:
        lines.append("No network address found: only this machine can open it.")
    else:
        scheme = public_url.split(":", 1)[0]
        others = [f"{scheme}://{address}:{port}" for address in addresses[1:]]
        if others and scheme == "http":
            lines.append("Also at " + ", ".join(others))
        lines.append("Phones on the same Wi-Fi open it by scanning this code:")
    lines.append(_terminal_qr(segno.make(public_url, error="m")))
    lines.extend(notes)
    if public_url.startswith("http:"):
        lines.append(PLAIN_HTTP_NOTE)
    if owner_url:
        lines += [
            "",
            "This server has no owner yet. Open this link (it works once) to make the",
            f"owner's account: {owner_url}",
            _terminal_qr(segno.make(owner_url, error="l")),
        ]
    else:
        lines.append("Sign in, or sign up and create your club.")
    lines.append("Ctrl-C stops it.")
    return "\n".join(lines)


def _terminal_qr(qr: object) -> str:
    import io

    out = io.StringIO()
    qr.terminal(out=out, compact=True)  # type: ignore[attr-defined]
    return out.getvalue()


def _options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="0.0.0.0", help="the interface to listen on")
    parser.add_argument("--cert", default="", help="a PEM certificate: serve HTTPS with it")
    parser.add_argument("--key", default="", help="the certificate's private key (PEM)")
    parser.add_argument(
        "--name", default="", help="the name the certificate is for (default: its first)"
    )
    parser.add_argument(
        "--prepare-only", action="store_true", help="prepare the database, print, and stop"
    )
    options = parser.parse_args(argv)
    if bool(options.cert) != bool(options.key):
        parser.error("give both CERT and KEY (the certificate and its private key)")
    for path in (options.cert, options.key):
        if path and not os.access(path, os.R_OK):
            parser.error(f"cannot read {path}")
    if options.cert and not options.name:
        names = certificate_names(options.cert)
        if not names:
            parser.error("the certificate names no DNS name: give it with NAME=…")
        options.name = names[0].removeprefix("*.")
    return options


def prepare_or_exit() -> object:
    """Set Django up and prepare the database (prefscore/startup.py); a refusal or any
    failure is told in a sentence and the process exits with status 2, no traceback."""
    import traceback

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")
    try:
        django.setup()
        from prefscore import startup

        return startup.prepare(sys.stdout)
    except Exception as error:
        refused = type(error).__name__ == "StartRefused"
        if not refused:
            log = Path(__file__).resolve().parent.parent / "data" / "start-error.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(traceback.format_exc())
            error = RuntimeError(f"{type(error).__name__}: {error} (details in {log})")
        print(f"prefscore did not start: {error}", file=sys.stderr, flush=True)
        sys.exit(2)


def port_is_free(host: str, port: int) -> bool:
    """Whether uvicorn can listen there: checked before the banner shows the address."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def main(argv: list[str] | None = None) -> None:
    options = _options(argv)
    if not port_is_free(options.host, options.port):
        print(
            f"prefscore did not start: port {options.port} is in use (another server?). "
            f"Stop it, or choose another port: make run PORT={options.port + 1}",
            file=sys.stderr,
        )
        sys.exit(2)
    addresses = lan_addresses() if options.host in ("0.0.0.0", "::") else [options.host]
    addresses = [a for a in addresses if not ipaddress.ip_address(a).is_loopback]
    environment = lan_environment(
        addresses, options.port, dict(os.environ), socket.gethostname(), options.name
    )
    os.environ.update(environment)
    prepared: Any = prepare_or_exit()
    owner_url = None
    if prepared.owner_token:
        from prefscore.clubs.management.commands.owner_link import owner_url as link_to

        owner_url = link_to(os.environ["PUBLIC_URL"], prepared.owner_token)
    text = banner(os.environ["PUBLIC_URL"], addresses, options.port, owner_url, prepared.notes)
    print(text, flush=True)
    if options.prepare_only:
        return
    serve(options)


def serve(options: argparse.Namespace) -> None:
    """uvicorn on the interface and port, HTTPS with a certificate; the worker beside it,
    stopped before the server exits."""
    worker = WorkerProcess()
    worker.start()
    # uvicorn answers SIGTERM by closing, then raising the signal again under the handler
    # it found. Python's default one ends the process there, before the finally below:
    # the worker, orphaned, stopped on its own later (CI saw its beat outlive the server).
    signal.signal(signal.SIGTERM, _exit_when_stopped)
    try:
        run_uvicorn(options)
    finally:
        worker.stop()


def _exit_when_stopped(signum: int, frame: object) -> None:
    raise SystemExit(0)


def run_uvicorn(options: argparse.Namespace) -> None:
    config = uvicorn.Config(
        "prefscore.asgi:application",
        host=options.host,
        port=options.port,
        ssl_certfile=options.cert or None,
        ssl_keyfile=options.key or None,
        # Forwarded headers only from a proxy on this machine (uvicorn's default).
        proxy_headers=True,
        server_header=False,
        lifespan="off",  # Django has no lifespan handler
        log_level=os.environ.get("UVICORN_LOG_LEVEL", "warning"),
        # The pages poll every 25 s while their stream is up: keep their connection.
        timeout_keep_alive=30,
        # Had a stream not ended when told (StreamsEndingServer), a stop waits this long
        # for it, then cancels it; uvicorn's default would wait for it for ever.
        timeout_graceful_shutdown=STREAMS_END_AFTER,
    )
    server = StreamsEndingServer(config)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C, said by uvicorn: as uvicorn.run
        server.run()


class StreamsEndingServer(uvicorn.Server):
    """uvicorn's server, which ends the phones' event streams as soon as it is told to
    stop (Ctrl-C, SIGTERM), so that the stop is at once and quiet: they would else hold
    it until ``STREAMS_END_AFTER``, then be cancelled with a traceback each."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        loop = asyncio.get_running_loop()  # the signal runs in the serving thread
        loop.call_soon_threadsafe(_end_streams)


def _end_streams() -> None:
    from prefscore.games import events

    events.hub().close()


def _die_with_parent() -> None:
    """In the worker's process before it runs: end it if the server ends, even killed."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the server's stop ends it
        pass


class WorkerProcess:
    """The task worker, a process of its own beside the server (a task's work never
    holds up a page), started again if it stops; stopped with the server. SIGTERM lets
    its running task finish (docs/tasks.md §3)."""

    AGAIN_AFTER = 5.0

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.stopping = threading.Event()
        self.watcher = threading.Thread(target=self._watch, name="prefscore-worker", daemon=True)

    def _spawn(self) -> subprocess.Popen[bytes]:
        # Quiet on the club's console: a task's failure is still said, its success not.
        command = [sys.executable, str(ROOT / "manage.py"), "run_worker", "--verbosity", "0"]
        return subprocess.Popen(command, cwd=ROOT, preexec_fn=_die_with_parent)  # noqa: PLW1509

    def start(self) -> None:
        self.process = self._spawn()
        self.watcher.start()

    def _watch(self) -> None:
        while self.process is not None:
            code = self.process.wait()
            if self.stopping.wait(self.AGAIN_AFTER):
                return
            print(f"The worker stopped (exit {code}); starting it again.", flush=True)
            self.process = self._spawn()

    def stop(self) -> None:
        self.stopping.set()
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


if __name__ == "__main__":
    main()
