"""The server's own objects, out of the garbage collector's walk.

What a server process makes when it starts (the modules, the settings, the URL patterns,
the apps) lives as long as the process. Python's collector still walks all of it in each
full collection, and a request that makes many objects (the standings of 1,000 players
make tens of thousands) sets one off every second or third time: at 1,000 players that
walk was about 70 ms of the standings page's CPU, a third of it (docs/benchmarks.md, "The
standings page and its CSV at 1,000 players"). :func:`freeze_startup` moves what exists
once the application is loaded into the collector's permanent generation, which it does
not walk; those objects are still freed as usual when nothing refers to them. Called by
``prefscore.wsgi`` and ``prefscore.asgi`` (gunicorn's and uvicorn's entry points), after
the application is made; before a fork, it also spares the children copying pages the
walk would touch.
"""

from __future__ import annotations

import gc


def freeze_startup() -> int:
    """Collect what start-up left as garbage, then freeze the rest; how many were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
