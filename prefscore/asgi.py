"""ASGI entry point: uvicorn serves the change signal's event streams with it (README,
"See it at once"), and the whole site under ``make run``.

Django gives every ASGI request a thread of its own for its synchronous parts (the
request signals, the middleware, a sync view), kept until the answer ends. An event
stream lasts for hours, so that would be a thread per open page (about 200 KiB each,
bench/push.py); the streams' requests share asgiref's one thread for those short parts
instead, and their database checks run in the shared pool (``games/views/events.py``).
"""

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
