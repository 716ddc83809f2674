"""Forms of the tournament screens, one module per concern, named as its views module is
(``views/__init__.py`` gives the rule): ``tournament`` (a new tournament, and the
controls' entries, cut, swaps, moves, closings and decisions), ``regulations`` (the
regulations edited, the controls' too), ``checkin``, ``constraints``, ``discipline`` and
``files``.

Each form says what is wrong next to the field; the views save nothing until it is valid.
"""
