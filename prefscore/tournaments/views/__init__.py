"""Tournament views, one module per screen or concern (docs/design.md: split by screen).

The naming rule of the package: a concern's views are ``views/<concern>.py``, its forms
``forms/<concern>.py`` and what its pages show ``presenters/<concern>.py``, each under the
concern's one name (``checkin``, ``discipline``, ``room``…), never a prefix or a suffix.

- ``tournament``: a club's tournaments, a new one, its page, its standings and bracket;
- ``control``: the organiser's controls: entries, the draw, the tables, the cut, the finish;
- ``checkin``, ``constraints``, ``decisions``, ``discipline``, ``time``: one control each;
- ``room``: the dashboard, the projector, "my table now" and the printed pages;
- ``events``: the room screens' event streams;
- ``files``: the tournament file out (CSV, JSON) and in;
- ``card``: the standings card, readable as the standings are.
"""
