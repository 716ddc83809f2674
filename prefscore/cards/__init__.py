"""Result cards: a PNG of 1200 × 630 that a chat's preview shows (docs/design.md,
"Sharing a result").

``layout`` says what a card holds (plain values, already worded and formatted by the
app that makes it); ``draw`` draws it with Pillow and the vendored DejaVu fonts;
``store`` keeps each card drawn once, under a hash of what it shows. This package
imports no app: the pulka's, the tournament's and the season's presenters build a
:class:`~prefscore.cards.layout.Card` from their own figures (the engine's).
"""
