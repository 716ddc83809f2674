"""The server's own objects, out of the garbage collector's walk.

What a server process makes when it starts (the modules, the settings, the URL patterns,
the apps) lives as long as the process. Python's collector still walks all of it in each
full collection, and a request that makes many objects (the standings of 1,000 players
make tens of thousands) sets one off about every second time: at 1,000 players each
such walk took 70 to 85 ms of CPU, and the collector's mean share of the standings page
was about 48 ms, 14 ms once frozen (docs/benchmarks.md, "The standings page and its CSV
at 1,000 players"). :func:`freeze_startup` moves what exists
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
