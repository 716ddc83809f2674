"""`manage.py load_demo`: the demo data that `make dev` signs in with (never `make run`:
its password is published; prefscore/clubs/owner.py retires it there).

Idempotent: running it again changes nothing that is already there. Each kind of demo
object has its own small function: the user, the club with its players, and two pulkas
(a finished Sochi pulka for three and a running Leningrad pulka for four) whose deals are
recorded through ``services.record_deal``, so that their sheets are real. A pulka is
known by its title: one that exists is left as it is, even if deals were added since.
"""

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.clubs.owner import DEMO_PASSWORD, DEMO_USERNAME
from prefscore.games import services
from prefscore.games.io import create_pulka
from prefscore.games.models import Pulka
from scoring.conventions import convention_for_key

DEMO_CLUB_SLUG = "demo"
DEMO_CLUB_NAME = "Демо-клуб"
DEMO, ANNA, BORIS, VERA, GLEB = "Демо", "Анна", "Борис", "Вера", "Глеб"
# The player linked to the demo user comes first; the others are guests.
DEMO_PLAYERS = (DEMO, ANNA, BORIS, VERA, GLEB)


def _six_to_nine() -> list[dict[str, Any]]:
    """Sochi to 10 for three: nine deals, the last one closes the pulka."""
    d, a, b = DEMO, ANNA, BORIS
    return [
        {"contract": "6S", "declarer": d, "whists": {a: "whist", b: "pass"}, "tricks": {d: 6, a: 3, b: 1}},
        {"contract": "7H", "declarer": a, "whists": {b: "whist", d: "pass"}, "tricks": {a: 7, b: 2, d: 1}},
        {"contract": "allpass", "tricks": {d: 2, a: 3, b: 5}},
        {"contract": "6C", "declarer": b, "whists": {d: "whist", a: "whist"}, "tricks": {b: 5, d: 3, a: 2}},
        {"contract": "8D", "declarer": d, "whists": {a: "whist", b: "pass"}, "tricks": {d: 8, a: 2, b: 0}},
        {"contract": "misere", "declarer": b, "tricks": {b: 0}},
        {"contract": "7NT", "declarer": a, "whists": {b: "pass", d: "pass"}},
        {"contract": "6S", "declarer": b, "whists": {d: "whist", a: "pass"}, "tricks": {b: 7, d: 3, a: 0}},
        {"contract": "9H", "declarer": a, "whists": {d: "whist", b: "pass"}, "tricks": {a: 9, d: 1, b: 0}},
    ]  # fmt: skip


def _leningrad_evening() -> list[dict[str, Any]]:
    """Leningrad to 20 for four: eight deals, the dealer sitting out each in turn."""
    d, a, v, g = DEMO, ANNA, VERA, GLEB
    return [
        {"contract": "6S", "declarer": a, "whists": {v: "whist", g: "pass"}, "tricks": {a: 6, v: 3, g: 1}},
        {"contract": "7C", "declarer": d, "whists": {v: "whist", g: "whist"}, "tricks": {d: 7, v: 2, g: 1}},
        {"contract": "allpass", "tricks": {g: 4, d: 2, a: 4}},
        {"contract": "7H", "declarer": v, "whists": {d: "whist", a: "pass"}, "tricks": {v: 6, d: 3, a: 1}},
        {"contract": "misere", "declarer": g, "tricks": {g: 1}},
        {"contract": "6NT", "declarer": d, "whists": {v: "pass", g: "half"}},
        {"contract": "8D", "declarer": a, "whists": {g: "whist", d: "pass"}, "tricks": {a: 8, g: 2, d: 0}},
        {"contract": "6H", "declarer": v, "whists": {d: "whist", a: "whist"}, "tricks": {v: 6, d: 2, a: 2}},
    ]  # fmt: skip


DEMO_PULKAS: tuple[dict[str, Any], ...] = (
    {
        "title": "Сочинка в четверг",
        "convention": "sochi",
        "players": (DEMO, ANNA, BORIS),
        "target": 10,
        "stake": Decimal("0.1"),
        "deals": _six_to_nine,
    },
    {
        "title": "Ленинградка на четверых",
        "convention": "leningrad",
        "players": (DEMO, ANNA, VERA, GLEB),
        "target": 20,
        "stake": Decimal("0.05"),
        "deals": _leningrad_evening,
    },
)


def ensure_demo_user() -> tuple[User, bool]:
    """The demo user with the demo password; True when it had to be created."""
    user, created = get_user_model().objects.get_or_create(username=DEMO_USERNAME)
    if created or not user.check_password(DEMO_PASSWORD):
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user, created


def ensure_demo_club(user: User) -> tuple[Club, bool]:
    """The demo club, the demo user its admin, and its players; True when created."""
    club, created = Club.objects.get_or_create(
        slug=DEMO_CLUB_SLUG, defaults={"name": DEMO_CLUB_NAME}
    )
    Membership.objects.update_or_create(club=club, user=user, defaults={"role": Role.ADMIN})
    for name in DEMO_PLAYERS:
        linked = user if name == DEMO else None
        Player.objects.get_or_create(club=club, name=name, defaults={"user": linked})
    return club, created


def ensure_demo_pulka(club: Club, user: User, spec: dict[str, Any]) -> bool:
    """One demo pulka with its deals, unless a pulka of that title exists; True if made."""
    if Pulka.objects.filter(club=club, title=spec["title"]).exists():
        return False
    players = {player.name: player for player in club.players.filter(name__in=spec["players"])}
    name, convention = convention_for_key(club, spec["convention"])
    pulka = create_pulka(
        club,
        convention_name=name,
        convention=convention,
        players=[players[name] for name in spec["players"]],
        target=spec["target"],
        stake=spec["stake"],
        first_dealer=0,
        user=user,
        title=spec["title"],
    )
    for number, facts in enumerate(spec["deals"](), start=1):
        services.record_deal(pulka.pk, facts, user, number)
    return True


class Command(BaseCommand):
    help = "Create the demo user (demo / demo-pulka) and demo data, unless already there."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Load the demo data even with DEBUG off (a known password: never in production).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError(
                "The demo user has a published password: load_demo runs only with DEBUG=1 "
                "(or --force)."
            )
        with transaction.atomic():
            user, created = ensure_demo_user()
            club, club_created = ensure_demo_club(user)
            made = sum(ensure_demo_pulka(club, user, spec) for spec in DEMO_PULKAS)
        self.stdout.write(f"Demo user {DEMO_USERNAME!r}: {_state(created)}.")
        self.stdout.write(f"Demo club {club.slug!r}: {_state(club_created)}.")
        self.stdout.write(f"Demo pulkas: {made} created, {len(DEMO_PULKAS) - made} already there.")


def _state(created: bool) -> str:
    return "created" if created else "already there"
