"""ASGI entry point: uvicorn serves the change signal's event streams with it (README,
"See it at once"), and the whole site under ``make run``.

Django gives every ASGI request a thread of its own for its synchronous parts (the
request signals, the middleware, a sync view), kept until the answer ends. An event
stream lasts for hours, so that would be a thread per open page (about 200 KiB each,
bench/push.py); the streams' requests share asgiref's one thread for those short parts
instead, and their database checks run in the shared pool (``games/streams.py``).
"""

import logging
import os
import re
import warnings

from django.core.asgi import get_asgi_application
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "prefscore.settings")

# The event streams' paths: every path that ends in /events/, and no other view's does
# (games:events, games:watch_events, the room screens'; tests/deploy/test_caddy_routes.py
# checks the URL confs keep it so). deploy/Caddyfile sends the same paths to uvicorn.
EVENT_STREAMS = re.compile(r"^/.*/events/$")


class Handler(ASGIHandler):
    async def __call__(self, scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http" and EVENT_STREAMS.match(scope.get("path", "")):
            await self.handle(scope, receive, send)  # no thread of its own
            return
        await super().__call__(scope, receive, send)


# WhiteNoise's static files are synchronous iterators, which Django reads in a thread
# under ASGI and warns of once; they are small and, in production, gunicorn's.
warnings.filterwarnings("ignore", "StreamingHttpResponse must consume synchronous iterators")

get_asgi_application()  # django.setup(), as Django's own entry point does
application = Handler()


def _more_files() -> None:
    """Each open stream holds a connection, so a file: the soft limit of open files (1,024
    on many systems) is raised as far as the hard one allows, and the streams are counted
    below it (``games/stream_limits.py``), so that a page or a deal never fails for want
    of a file."""
    from prefscore.games.stream_limits import most_streams, raise_file_limit

    raised = raise_file_limit()
    # A refusal's log line is the first to need this codec (django.utils.log): imported
    # now, not in a moment when every file is taken.
    "".encode("unicode_escape")
    if raised is not None:
        logging.getLogger("prefscore.asgi").info(
            "open files: %s, raised to %s; event streams at most %s", *raised, most_streams()
        )


_more_files()

# Last: the start-up's objects out of the collector's walk (prefscore/heap.py).
from prefscore.heap import freeze_startup  # noqa: E402

freeze_startup()
