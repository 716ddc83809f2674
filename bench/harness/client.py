"""The client side of a bench run: devices, poll tickets, latencies, closed loops."""

from __future__ import annotations

import http.client
import re
import secrets
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from .server import HOST

TIMEOUT = 30  # seconds: any request, and any wait for a thread to end, is bounded
ERRORS = (http.client.HTTPException, OSError)
VERSION = re.compile(rb"/poll/\?v=(\d+)")
TICKET = re.compile(rb"/poll/\?v=\d+&amp;t=([^\"&]+)")


class Answer(NamedTuple):
    status: int
    body: bytes
    seconds: float


class Client:
    """One device: one keep-alive connection (the server may close it) and its cookies.

    Its CSRF secret is its own (32 characters, which Django accepts as a cookie and as
    the header), so that it posts without reading a page first, as htmx echoes it.
    """

    def __init__(self, port: int, session: str = "", htmx: bool = False) -> None:
        self.csrf = secrets.token_hex(16)
        self.cookies = f"csrftoken={self.csrf}" + (f"; sessionid={session}" if session else "")
        self.htmx = htmx
        self.connection = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, htmx: bool | None = None
    ) -> Answer:
        headers = {"Host": HOST, "Cookie": self.cookies}
        if self.htmx if htmx is None else htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.csrf
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
            payload = response.read()
        except ERRORS:
            self.connection.close()  # http.client opens a new one on the next request
            raise
        return Answer(response.status, payload, time.perf_counter() - started)


def poll_ticket(client: Client, pulka: int) -> str:
    """The signed poll ticket a device gets with the sheet page ("" if it shows none)."""
    found = TICKET.search(client.request("GET", f"/pulkas/{pulka}/", htmx=False).body)
    return found.group(1).decode() if found else ""


def shown_version(payload: bytes) -> int | None:
    """The pulka version a page or a set of regions shows (its poll URL carries it)."""
    found = VERSION.search(payload)
    return int(found.group(1)) if found else None


@dataclass
class Series:
    """The latencies of one kind of request, what went wrong, from many threads."""

    name: str
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0  # how long the series ran, for its throughput
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors[what] = self.errors.get(what, 0) + 1

    def expect(self, status: int, call: Callable[[], Answer]) -> Answer | None:
        """Make the request; its latency if it answers ``status``, an error otherwise."""
        try:
            answer = call()
        except ERRORS as error:
            self.error(type(error).__name__)
            return None
        if answer.status == status:
            self.add(answer.seconds)
        else:
            self.error(f"HTTP {answer.status}")
        return answer

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile latency in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


def closed_loop(
    name: str,
    clients: int,
    seconds: float,
    make: Callable[[int], Callable[[], Answer]],
    expect: int = 200,
    max_requests: int = 1_000_000,
) -> Series:
    """``clients`` threads, each sending its next request as soon as one is answered.

    ``make(i)`` gives client ``i`` its request; the loop ends after ``seconds`` or
    ``max_requests`` requests in all.
    """
    series = Series(name)
    deadline = time.perf_counter() + seconds
    budget = [max_requests]

    def run(index: int) -> None:
        call = make(index)
        while time.perf_counter() < deadline:
            with series.lock:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            series.expect(expect, call)

    started = time.perf_counter()
    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + TIMEOUT + 5)
    series.seconds = time.perf_counter() - started
    return series
