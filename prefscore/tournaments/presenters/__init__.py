"""What the tournament pages show, computed here so that templates compute nothing; one
module per page or part of one, named as its views module is (``views/__init__.py``):

- ``tournament``: the standings table, the rounds' tables, the regulations' lines;
- ``paging``: the tournament page one round and one page of players at a time;
- ``control``: the organiser's controls: entries and their states, the draft, the bracket;
- ``leaving``: what the confirmation of a drop or disqualification says;
- ``room``: the dashboard, the projector and "my table now";
- ``printables``: the printed pages.
"""
