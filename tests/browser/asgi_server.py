"""An ASGI live server: the site under uvicorn, as ``make run`` and production serve it.

pytest-django's ``live_server`` is a WSGI server, where the change signal answers 204
(``games/streams.py``); the push tests need the event streams, so this fixture
serves the same test database under uvicorn in a thread, on a loopback port.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def asgi_live_server(transactional_db: None) -> Iterator[str]:
    """The base URL of the site under uvicorn, for this test's database."""
    import uvicorn

    from prefscore.asgi import application

    port = _free_port()
    config = uvicorn.Config(
        application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="asgi-live-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("uvicorn did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    server.force_exit = True  # the open event streams would hold a graceful stop
    thread.join(10)
