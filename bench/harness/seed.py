"""The database a run starts from: running pulkas with their deals, signed-in sessions.

Imports Django models: import it after ``django.setup()`` (a bench's child process) or
from a test, where pytest-django has set Django up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

from prefscore.clubs.models import Club, Player
from prefscore.games.models import Deal, Pulka, PulkaSeat
from scoring.engine.conventions import preset

from .deals import cycle_deal


def signed_in_session(user: Any) -> str:
    """The key of a new session of ``user``, as the sign-in form would make it.

    Made by the configured session engine: with signed-cookie sessions the key is the
    cookie's whole value.
    """
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return str(session.session_key)


def running_pulka(
    club: Club,
    players: Sequence[Player],
    deals: int = 0,
    entered_by: Any = None,
    facts: Callable[[int], dict[str, Any]] = cycle_deal,
) -> Pulka:
    """A Sochi pulka to 1000 of these players, seated in order, with ``deals`` deals."""
    pulka = Pulka.objects.create(
        club=club,
        convention_name="sochi",
        convention_options=preset("sochi").to_options(),
        player_names=[player.name for player in players],
        target=1000,
        version=deals,
    )
    PulkaSeat.objects.bulk_create(
        PulkaSeat(pulka=pulka, seat=i, player=player) for i, player in enumerate(players)
    )
    Deal.objects.bulk_create(
        Deal(pulka=pulka, number=n, facts=facts(n), entered_by=entered_by)
        for n in range(1, deals + 1)
    )
    return pulka
