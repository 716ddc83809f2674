"""What the benches and the browser tests share, in one place.

- ``deals``: the deals a table plays and the form fields that post them (no Django);
- ``seed``: the database a run starts from: pulkas with their deals, signed-in sessions;
- ``server``: a free port, gunicorn with the bench settings, a child process, a watchdog;
- ``postgres``: a throwaway PostgreSQL 15 for one run;
- ``client``: a device's keep-alive connection, poll tickets, latencies and closed loops.

The benches run as scripts (``python bench/web.py``), so they import this package as
``harness``; the tests, which have the project root on their path, as ``bench.harness``.
Its modules therefore import each other relatively. Nothing here is production code:
prefscore imports none of it.
"""
