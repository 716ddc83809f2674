"""What the topology test (and bench/deploy_push.py) starts from, written by the site's
own Python through ``manage.py shell`` (the site's settings and database):

- a club with two members, ``anna`` and ``boris``, who sign in with a password;
- ``tables`` running pulkas of Anna, Boris and Vera (no deals yet) for the phones, and
  one more whose stream is held idle;
- one mail queued, for the worker to send (``--mail MARKER``).

``python manage.py shell -c "from tests.deploy.seed import main; main()"`` prints one
line of JSON: the pulkas' ids and the password. ``record(pulka_id)`` records the next
deal of a pulka as a member would, for a change made from outside the phones.
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import Any

NAMES = ("Anna", "Boris", "Vera")
MEMBERS = ("anna", "boris")
# A deal the engine accepts at any point of a Sochi pulka to 1000.
ALL_PASS = {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}


def main(mail_marker: str = "", tables: int = 1) -> None:
    from django.contrib.auth import get_user_model
    from django.core.mail import send_mail

    from bench.harness.seed import running_pulka
    from prefscore.clubs.models import Club, Membership, Player, Role

    password = secrets.token_urlsafe(12)
    User = get_user_model()
    club = Club.objects.create(name="Topology", slug="topology")
    for username in MEMBERS:
        user = User.objects.create_user(username, f"{username}@example.com", password)
        Membership.objects.create(club=club, user=user, role=Role.MEMBER)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    pulkas = [running_pulka(club, players).pk for _ in range(tables)]
    idle = running_pulka(club, players)
    if mail_marker:
        send_mail("prefscore topology", mail_marker, None, ["anna@example.com"])
    print(json.dumps({"pulkas": pulkas, "idle": idle.pk, "password": password}))


def record(pulka_id: int) -> None:
    from django.contrib.auth import get_user_model

    from prefscore.games.models import Deal
    from prefscore.games.services import record_deal

    number = Deal.objects.filter(pulka_id=pulka_id).current().count() + 1
    user = get_user_model().objects.get(username=MEMBERS[0])
    record_deal(pulka_id, ALL_PASS, user, number)
    print(json.dumps({"recorded": number}))


def seed_command(mail_marker: str = "", tables: int = 1) -> list[str]:
    """``manage.py`` arguments that run :func:`main`."""
    call = f"main({mail_marker!r}, {int(tables)})"
    return ["shell", "-c", f"from tests.deploy.seed import main; {call}"]


def record_command(pulka_id: int) -> list[str]:
    return ["shell", "-c", f"from tests.deploy.seed import record; record({int(pulka_id)})"]


def last_json(output: str) -> Any:
    return json.loads(output.strip().splitlines()[-1])


if __name__ == "__main__":
    sys.exit("run through manage.py shell: see the docstring")
