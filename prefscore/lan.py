"""``make run``: a club's own server on its Wi-Fi (README, "Run it").

``python -m prefscore.lan --port 8000`` finds the machine's LAN addresses, lets Django
answer to them (``ALLOWED_HOSTS``), makes the first one the address of the join and
spectator QR codes (``PUBLIC_URL``), prints it with a QR code the phones can scan, and
serves the whole site under uvicorn on every interface: the pages, the static files
(WhiteNoise) and the change signal (``games/views/events.py``) in one process, which
keeps the SQLite watcher to one per server.

Runs before Django is set up: what it sets in the environment is what the settings read.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
from collections.abc import Iterable, Iterator

LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
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
    addresses: list[str], port: int, env: dict[str, str], hostname: str = ""
) -> dict[str, str]:
    """What the settings read: the hosts to answer to and the address the QR codes give.

    The machine's name counts too, bare and under ``.local`` (mDNS, as phones and laptops
    resolve it). A variable already set (``ALLOWED_HOSTS``, ``PUBLIC_URL``) is kept.
    """
    names = [hostname, f"{hostname}.local"] if hostname else []
    hosts = LOOPBACK_HOSTS + names + addresses
    public = f"http://{addresses[0]}:{port}" if addresses else f"http://127.0.0.1:{port}"
    return {
        "ALLOWED_HOSTS": env.get("ALLOWED_HOSTS") or ",".join(hosts),
        "PUBLIC_URL": env.get("PUBLIC_URL") or public,
    }


def banner(public_url: str, addresses: list[str], port: int) -> str:
    """What the terminal shows: where the phones go, as text and as a QR code."""
    import segno

    lines = [f"prefscore is at {public_url}", ""]
    if not addresses:
        lines.append("No network address found: only this machine can open it.")
    else:
        others = [f"http://{address}:{port}" for address in addresses[1:]]
        if others:
            lines.append("Also at " + ", ".join(others))
        lines.append("Phones on the same Wi-Fi open it by scanning this code:")
    qr = segno.make(public_url, error="m")
    lines.append(_terminal_qr(qr))
    lines.append("Sign in as demo / demo-pulka, or create your club. Ctrl-C stops it.")
    return "\n".join(lines)


def _terminal_qr(qr: object) -> str:
    import io

    out = io.StringIO()
    qr.terminal(out=out, compact=True)  # type: ignore[attr-defined]
    return out.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="0.0.0.0", help="the interface to listen on")
    options = parser.parse_args(argv)
    addresses = lan_addresses() if options.host in ("0.0.0.0", "::") else [options.host]
    addresses = [a for a in addresses if not ipaddress.ip_address(a).is_loopback]
    environment = lan_environment(addresses, options.port, dict(os.environ), socket.gethostname())
    os.environ.update(environment)
    print(banner(os.environ["PUBLIC_URL"], addresses, options.port), flush=True)

    import uvicorn

    uvicorn.run(
        "prefscore.asgi:application",
        host=options.host,
        port=options.port,
        # Forwarded headers only from a proxy on this machine (uvicorn's default).
        proxy_headers=True,
        server_header=False,
        lifespan="off",  # Django has no lifespan handler
        log_level=os.environ.get("UVICORN_LOG_LEVEL", "warning"),
        # The pages poll every 25 s while their stream is up: keep their connection.
        timeout_keep_alive=30,
    )


if __name__ == "__main__":
    main()
