"""deploy/Caddyfile, run by Caddy as prefscore-caddy.service starts it, in front of two
stand-ins that say who answered: every event stream the URL confs define goes to
uvicorn's port and every other URL to gunicorn's; a stream passes each event on at once,
uncompressed; the proxy's read timeout cuts a silent stream and never one that sends
heartbeats; the app hears the client's scheme and address from Caddy, not from the
client. HTTPS with Caddy's own authority on ``prefscore.localhost``, as in
test_topology.py, where the real servers stand behind it.
"""

from __future__ import annotations

import gzip
import http.client
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from bench.harness.topology import CADDY, Site, missing_binaries, prepare, scratch_folder
from prefscore.asgi import EVENT_STREAMS
from tests.deploy.url_samples import samples

# The proxy's read timeout on the stream route, short here to be waited out (deploy/
# env.example leaves Caddyfile's 60 s).
READ_TIMEOUT = 2.0
BIG = b"data: " + b"the same words again " * 4000 + b"\n\n"  # 84 KB that gzip would shrink


class StandIn(BaseHTTPRequestHandler):
    """Answers as gunicorn or uvicorn would be asked: who it is, and what it was sent.

    On the streams' side a query shapes a stream: ``beat=S&for=T`` (an event, then a
    heartbeat every S seconds for T seconds, then ``event: end``), ``silent=T`` (an event,
    then nothing for T seconds), ``big=1`` (one large event).
    """

    protocol_version = "HTTP/1.0"  # a stream's end is the connection's end, as in uvicorn

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        query = {key: values[0] for key, values in parse_qs(urlsplit(self.path).query).items()}
        if self.server.name == "streams" and query:  # type: ignore[attr-defined]
            self.stream(query)
            return
        body = json.dumps({"path": self.path, "headers": dict(self.headers)}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("X-Upstream", self.server.name)  # type: ignore[attr-defined]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def stream(self, query: dict[str, str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("X-Upstream", "streams")
        self.end_headers()
        self.send(b"event: version\ndata: 1\n\n")
        if "big" in query:
            self.send(BIG)
        elif "silent" in query:
            time.sleep(float(query["silent"]))
        elif "beat" in query:
            ends = time.monotonic() + float(query["for"])
            while time.monotonic() < ends:
                time.sleep(float(query["beat"]))
                self.send(b": heartbeat\n\n")
        self.send(b"event: end\ndata: \n\n")

    def send(self, data: bytes) -> None:
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except OSError:  # the proxy hung up: the stream is over
            pass


def stand_in(name: str) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), StandIn)
    server.daemon_threads = True
    server.name = name  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture(scope="module")
def proxy() -> Iterator[Site]:
    """Caddy with deploy/Caddyfile in front of the two stand-ins."""
    missing = missing_binaries()
    if "caddy" in missing:
        pytest.skip("Caddy is not installed (apt-get install caddy; make check-tools does)")
    pages, streams = stand_in("pages"), stand_in("streams")
    with scratch_folder() as workdir:
        site = prepare(
            workdir,
            "postgres:///unused",  # nothing here reads the database
            PAGES_PORT=str(pages.server_address[1]),
            STREAMS_PORT=str(streams.server_address[1]),
            STREAM_READ_TIMEOUT=f"{READ_TIMEOUT:g}s",
        )
        try:
            site.start(CADDY)
            site.wait_for_caddy()
            yield site
        finally:
            site.stop_all()
            pages.shutdown()
            streams.shutdown()


def get(site: Site, path: str, **headers: str) -> http.client.HTTPResponse:
    connection = site.https()
    connection.request("GET", path, headers=headers)
    return connection.getresponse()


# --- the URL confs: one rule for what a stream is -------------------------------------


def test_a_route_ends_in_events_exactly_when_its_view_is_an_event_stream():
    found = samples()
    streams = [sample.route for sample in found if sample.is_stream]
    ending = [sample.route for sample in found if sample.route.endswith("/events/")]

    assert streams == ending
    assert len(streams) >= 5  # a table's, a spectator's, the three room screens'


def test_uvicorns_own_rule_takes_the_streams_and_nothing_else():
    for sample in samples():
        assert bool(EVENT_STREAMS.match(sample.path)) == sample.is_stream, sample.route


# --- the routes -------------------------------------------------------------------------


def test_every_stream_goes_to_uvicorn_and_every_other_url_to_gunicorn(proxy):
    connection = proxy.https()
    wrong = []
    for sample in samples():
        connection.request("GET", sample.path)
        answer = connection.getresponse()
        answer.read()
        expected = "streams" if sample.is_stream else "pages"
        if answer.getheader("X-Upstream") != expected:
            wrong.append((sample.route, answer.status, answer.getheader("X-Upstream")))
    assert wrong == []
    for path in ("/", "/static/css/site.css", "/sw.js", "/pulkas/7/events/x"):
        assert get(proxy, path).getheader("X-Upstream") == "pages", path


def test_the_app_hears_https_and_the_clients_address_from_caddy_not_from_the_client(proxy):
    answer = get(proxy, "/pulkas/7/", **{"X-Forwarded-Proto": "http",
                                         "X-Forwarded-For": "203.0.113.9"})  # fmt: skip
    headers = json.loads(answer.read())["headers"]

    assert headers["X-Forwarded-Proto"] == "https"
    assert headers["X-Forwarded-For"] == "127.0.0.1"  # TRUSTED_PROXY_COUNT=1 reads this one
    assert headers["Host"] == f"prefscore.localhost:{proxy.https_port}"


# --- the stream route: at once, uncompressed, held while it beats ----------------------


def read_event(answer: http.client.HTTPResponse) -> bytes:
    lines = []
    while True:
        line = answer.readline()
        if not line:
            return b"".join(lines)
        lines.append(line)
        if line == b"\n":
            return b"".join(lines)


def test_each_event_passes_at_once_not_when_the_upstream_has_finished(proxy):
    started = time.monotonic()
    answer = get(proxy, "/pulkas/7/events/?silent=1.5")

    assert answer.getheader("Content-Type") == "text/event-stream"
    assert read_event(answer) == b"event: version\ndata: 1\n\n"
    assert time.monotonic() - started < 1.0  # the upstream holds the rest for 1.5 s
    assert read_event(answer) == b"event: end\ndata: \n\n"


def test_a_stream_is_never_compressed_though_the_client_asks_for_it(proxy):
    answer = get(proxy, "/pulkas/7/events/?big=1", **{"Accept-Encoding": "gzip, zstd, br"})
    body = answer.read()

    assert answer.getheader("Content-Encoding") is None
    assert BIG in body
    assert len(gzip.compress(BIG)) < len(BIG) // 10  # compressible, yet sent whole


def test_a_stream_that_beats_outlives_the_read_timeout_and_a_silent_one_is_cut(proxy):
    """The heartbeat is what keeps a stream through the proxy: one every READ_TIMEOUT/4
    for 2.5 READ_TIMEOUTs arrives whole; a stream that goes silent is cut near
    READ_TIMEOUT, so the timeout is in force on this route."""
    started = time.monotonic()
    beating = get(proxy, f"/pulkas/7/events/?beat={READ_TIMEOUT / 4:g}&for={READ_TIMEOUT * 2.5:g}")
    events = []
    while event := read_event(beating):
        events.append(event)
    lasted = time.monotonic() - started

    assert events[0] == b"event: version\ndata: 1\n\n"
    assert events[-1] == b"event: end\ndata: \n\n"
    assert events.count(b": heartbeat\n\n") >= 8
    assert lasted > READ_TIMEOUT * 2.5

    started = time.monotonic()
    silent = get(proxy, f"/pulkas/7/events/?silent={READ_TIMEOUT * 5:g}")
    first = read_event(silent)
    try:
        rest = silent.read()
    except http.client.IncompleteRead as cut:  # the chunked body ends without its end
        rest = cut.partial
    cut_after = time.monotonic() - started

    assert first == b"event: version\ndata: 1\n\n"
    assert b"event: end" not in rest
    assert READ_TIMEOUT * 0.9 < cut_after < READ_TIMEOUT * 3
