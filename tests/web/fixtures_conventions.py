"""Fixtures for the convention admin and pages: two clubs, each with its convention.

``conventions_world``: the club "Home" where ada is admin (with the admin-site access
that ``grant_club_admins`` gives) and mila a member; the club "Away" where otto is
admin (granted too); root, a superuser in no club. Home has "Home rules" (Sochi's
options), Away has "Away rules" (Leningrad's). ``conventions_client(name)`` is a client
signed in as one of them (``"anonymous"``: not signed in; ``csrf=True`` enforces CSRF),
asking for English pages unless ``language`` says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from prefscore.clubs.admin_group import grant
from prefscore.clubs.models import Club, Membership, Role
from prefscore.games.models import Pulka
from scoring.engine.conventions import preset
from scoring.models import OPTION_FIELD_NAMES, Convention

CONVENTIONS_PASSWORD = "pw-conventions-2468"


@dataclass
class ConventionsWorld:
    home: Club
    away: Club
    home_rules: Convention
    away_rules: Convention
    users: dict[str, Any] = field(default_factory=dict)


def pulka_under(convention: Convention, club: Club, title: str = "") -> Pulka:
    """A pulka started under ``convention``, as the new-pulka form starts one."""
    return Pulka.objects.create(
        club=club,
        title=title,
        convention_name=convention.name,
        convention_options=convention.snapshot(),
        convention_source=convention,
        player_names=["A", "B", "C"],
        target=10,
    )


def build_conventions_world() -> ConventionsWorld:
    User = get_user_model()
    users = {
        name: User.objects.create_user(name, password=CONVENTIONS_PASSWORD)
        for name in ("ada", "mila", "otto")
    }
    users["root"] = User.objects.create_superuser("root", password=CONVENTIONS_PASSWORD)
    home = Club.objects.create(name="Home", slug="home-club")
    away = Club.objects.create(name="Away", slug="away-club")
    Membership.objects.create(club=home, user=users["ada"], role=Role.ADMIN)
    Membership.objects.create(club=home, user=users["mila"], role=Role.MEMBER)
    Membership.objects.create(club=away, user=users["otto"], role=Role.ADMIN)
    grant(users["ada"])
    grant(users["otto"])
    home_rules = Convention.from_engine(
        preset("sochi"), name="Home rules", slug="home-rules", owner=home
    )
    home_rules.save()
    away_rules = Convention.from_engine(
        preset("leningrad"), name="Away rules", slug="away-rules", owner=away
    )
    away_rules.save()
    return ConventionsWorld(home, away, home_rules, away_rules, users)


@pytest.fixture
def conventions_world(db: Any) -> ConventionsWorld:
    return build_conventions_world()


@pytest.fixture
def conventions_client(conventions_world: ConventionsWorld) -> Callable[..., Client]:
    def make(name: str, *, csrf: bool = False, language: str = "en") -> Client:
        client = Client(enforce_csrf_checks=csrf, headers={"accept-language": language})
        if name != "anonymous":
            # Users are re-read: grant() changed is_staff after they were created.
            client.force_login(get_user_model().objects.get(username=name))
        return client

    return make


# --- the admin's convention forms, as a browser posts them ---

CHANGELIST = reverse("admin:scoring_convention_changelist")
ADD = reverse("admin:scoring_convention_add")
LIST_FIELDS = ("allpass_ladder", "exit_ladder")
MULTI_FIELDS = ("consolation", "half_whist_levels", "concede_levels")


def change_url(convention: Convention) -> str:
    return reverse("admin:scoring_convention_change", args=[convention.pk])


def form_data(convention: Convention, **changes: Any) -> dict[str, Any]:
    """What the admin form posts for ``convention``, with ``changes`` applied.

    Booleans are posted as a ticked box or left out, lists as the admin's widgets
    send them; a change given as a string is posted as it is.
    """
    values: dict[str, Any] = {
        "name": convention.name,
        "slug": convention.slug,
        "owner": convention.owner_id or "",
        "description": convention.description,
        **{name: getattr(convention, name) for name in OPTION_FIELD_NAMES},
        **changes,
    }
    data: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is None:
            data[name] = ""
        elif name in LIST_FIELDS and isinstance(value, list):
            data[name] = ", ".join(str(v) for v in value)
        elif name in MULTI_FIELDS:
            data[name] = [str(v) for v in value]
        else:
            data[name] = str(value)
    return data


def new_data(world: Any, **changes: Any) -> dict[str, Any]:
    template = Convention.from_engine(
        preset("sochi"), name="Thursday rules", slug="thursday", owner=world.home
    )
    return form_data(template, **changes)


def form_errors(response: Any) -> dict[str, list[str]]:
    return {
        name: list(errors) for name, errors in response.context["adminform"].form.errors.items()
    }


def assert_refused_beside(client: Client, data: dict[str, Any], field: str, message: str) -> None:
    """The add form refuses ``data``: ``message`` shows next to ``field``, nothing is saved."""
    response = client.post(ADD, data)

    assert response.status_code == 200
    errors = form_errors(response)
    assert field in errors, errors
    assert any(message in text for text in errors[field]), errors[field]
    assert not Convention.objects.filter(slug=data["slug"]).exists()
