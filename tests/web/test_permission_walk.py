"""Every URL of the project, requested by everyone: who may open it and who may not.

The walk goes through ``get_resolver().url_patterns`` recursively. Django's own URLs
(the admin's pages, i18n's set_language) are left out, except the admin's front page,
which must send everyone but the superuser to the admin's sign-in. Each other URL must
have a row in EXPECTATIONS, keyed by its name: who gets through (OK: 2xx, a 3xx that is
not a sign-in page, or 400/409/422/429, a refusal of the input after the permission
check), who is sent to sign in (LOGIN), and who is refused (DENIED: 403 or 404).

A URL without a row fails ``test_every_url_has_a_permission_expectation`` (and its own
cases): a new view must state who may use it. Views still answering with the
placeholder module ("Placeholder until this screen is written") are skipped until
they are written; the row is already there, so the real view is held to it from its
first day.

TODO(tournaments): public tournament standings must be readable without signing in
only when the organiser has made them public; when the tournament views exist, add
their rows here (standings of a public tournament: anonymous OK; of a private one:
anonymous LOGIN, outsider DENIED) and a case for each in the walk's world.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from prefscore.clubs.models import Player
from prefscore.games.models import Deal, ForgottenDeal, Pulka
from scoring.engine.conventions import preset
from scoring.models import Convention
from tests.web.fixtures_access import ROLES, World
from tests.web.fixtures_tournaments import (
    make_tournament,
    walk_club,
    walk_entry,
    walk_guest,
    walk_kwargs,
)

pytestmark = pytest.mark.django_db

OK = "ok"
LOGIN = "login"
ADMIN_LOGIN = "admin login"
DENIED = "denied"

Params = Callable[[World], dict[str, Any]]


@dataclass(frozen=True)
class Expect:
    """Who may use one URL name, how to call it, and with what."""

    outcomes: dict[str, str]
    method: str = "get"
    kwargs: Params | None = None
    data: Params | None = None
    extra: dict[str, str] = field(default_factory=dict)


def _roles(**outcomes: str) -> dict[str, str]:
    assert set(outcomes) == set(ROLES), outcomes
    return outcomes


def public(method: str = "get", **how: Any) -> Expect:
    """Anyone, signed in or not."""
    return Expect({role: OK for role in ROLES}, method, **how)


def signed_in(method: str = "get", **how: Any) -> Expect:
    """Anyone with an account."""
    return Expect({**{role: OK for role in ROLES}, "anonymous": LOGIN}, method, **how)


def club_roles(*allowed: str, method: str = "get", superuser: str = DENIED, **how: Any) -> Expect:
    """Members of the world's club with one of ``allowed`` roles; the superuser is an
    outsider in a club's pages (he has the Django admin) unless ``superuser`` says."""
    outcomes = _roles(
        anonymous=LOGIN,
        outsider=DENIED,
        member=OK if "member" in allowed else DENIED,
        organiser=OK if "organiser" in allowed else DENIED,
        admin=OK if "admin" in allowed else DENIED,
        superuser=superuser,
    )
    return Expect(outcomes, method, **how)


def replace_outcomes(expect: Expect, **outcomes: str) -> Expect:
    return dataclasses.replace(expect, outcomes={**expect.outcomes, **outcomes})


MEMBERS = ("member", "organiser", "admin")
ORGANISERS = ("organiser", "admin")
ADMINS = ("admin",)


def deal_kwargs(world: World) -> dict[str, Any]:
    return {"pk": world.pulka.pk, "number": 2}


def seat_the_member(world: World) -> None:
    """The member becomes the player Anna: corrections are for the players at the table."""
    Player.objects.filter(club=world.club, name="Anna").update(user=world.users["member"])


def seated_deal_kwargs(world: World) -> dict[str, Any]:
    seat_the_member(world)
    return {"pk": world.pulka.pk, "number": 1}


def tournament_deal_kwargs(world: World) -> dict[str, Any]:
    """Arbiters' decisions are for tournament pulkas (Кодекс 4.2.16)."""
    if not Pulka.objects.filter(pk=world.pulka.pk, tournament__isnull=False).exists():
        tournament = make_tournament(world.club, slug="arbiter-cup")
        Pulka.objects.filter(pk=world.pulka.pk).update(tournament=tournament, round_number=1)
    return {"pk": world.pulka.pk, "number": 1}


def seated_pulka_kwargs(world: World) -> dict[str, Any]:
    seat_the_member(world)
    return {"pk": world.pulka.pk}


def proposal_kwargs(world: World) -> dict[str, Any]:
    """A forgotten deal waiting for the table (Кодекс 4.2.10); Boris is a guest."""
    seat_the_member(world)
    facts = {"contract": "allpass", "tricks": {"Anna": 3, "Boris": 3, "Vera": 4}}
    proposal, _ = ForgottenDeal.objects.get_or_create(
        pulka=world.pulka, number=3, defaults={"facts": facts, "proposed_by": world.users["member"]}
    )
    return {"pk": world.pulka.pk, "proposal": proposal.pk}


def member_row(world: World) -> dict[str, Any]:
    return {"slug": world.club.slug, "pk": world.memberships["member"].pk}


def invitation_row(world: World) -> dict[str, Any]:
    return {"slug": world.club.slug, "pk": world.invitation.pk}


def home_rules(world: World) -> str:
    """The slug of a convention of the world's club (made on first use)."""
    if not Convention.objects.filter(slug="home-rules").exists():
        Convention.from_engine(
            preset("sochi"), name="Home rules", slug="home-rules", owner=world.club
        ).save()
    return "home-rules"


EXPECTATIONS: dict[str, Expect] = {
    # --- accounts (prefscore/clubs/account_urls.py) ---
    "login": public(),
    "logout": public("post"),
    "signup": public(),
    "password_change": signed_in(),
    "password_change_done": signed_in(),
    "password_reset": public(),
    "password_reset_done": public(),
    "password_reset_confirm": public(kwargs=lambda w: {"uidb64": "MQ", "token": "bad-token"}),
    "password_reset_complete": public(),
    # --- a club's members and invitations ---
    "members:list": club_roles(*MEMBERS),
    "members:role": club_roles(
        *ADMINS, method="post", kwargs=member_row, data=lambda w: {"role": "organiser"}
    ),
    "members:remove": club_roles(*ADMINS, method="post", kwargs=member_row),
    "members:invite": club_roles(
        *ADMINS, method="post", data=lambda w: {"role": "member", "days": 7}
    ),
    "members:revoke": club_roles(*ADMINS, method="post", kwargs=invitation_row),
    # The link itself is the secret: anyone holding it sees whose club it opens.
    "members:invitation": public(kwargs=lambda w: {"token": w.invitation.token}),
    # --- clubs (prefscore/games/club_urls.py) ---
    "clubs:home": public(),
    "clubs:create": signed_in("post", data=lambda w: {"name": "New club"}),
    "clubs:club": club_roles(*MEMBERS),
    "clubs:add_guest": club_roles(*MEMBERS, method="post", data=lambda w: {"name": "Guest"}),
    # --- games (prefscore/games/urls.py): any member records and views (issue 7) ---
    "games:sheet": club_roles(*MEMBERS),
    # A polling device that lost its session gets 403, not a sign-in page htmx can't show.
    "games:poll": replace_outcomes(club_roles(*MEMBERS), anonymous=DENIED),
    "games:record": club_roles(*MEMBERS, method="post"),
    # The pencil belongs to whoever recorded the last deal (Кодекс 4.2.8): in the world,
    # the member recorded them; an organiser or an admin is refused like anyone else.
    "games:pencil": club_roles("member", method="post", kwargs=deal_kwargs),
    # Corrections (Кодекс 4.2.7-4.2.10) are for the players at the table: the member sits
    # as Anna, the organiser and the admin do not; arbiters' decisions (4.2.16) are for
    # organisers and admins, in tournament pulkas.
    "games:correct": club_roles("member", kwargs=seated_deal_kwargs),
    "games:arbiter": club_roles(*ORGANISERS, kwargs=tournament_deal_kwargs),
    "games:propose": club_roles("member", method="post", kwargs=seated_pulka_kwargs),
    "games:answer": club_roles(
        "member",
        method="post",
        kwargs=proposal_kwargs,
        data=lambda w: {"seat": "1", "answer": "agree"},
    ),
    "games:audit": club_roles(*MEMBERS),
    "games:settlement": club_roles(*MEMBERS),
    "games:export": club_roles(*MEMBERS),
    "games:new": club_roles(*MEMBERS),
    "games:import": club_roles(*MEMBERS),
    "games:calculator": signed_in(),
    # --- conventions (scoring/urls.py): presets for all, a club's own for its members;
    # the superuser reads every convention (he edits them in the admin anyway) ---
    "conventions:list": signed_in(),
    "conventions:detail": club_roles(
        *MEMBERS, superuser=OK, kwargs=lambda w: {"slug": home_rules(w)}
    ),
    "conventions:compare": club_roles(
        *MEMBERS, superuser=OK, data=lambda w: {"a": home_rules(w), "b": home_rules(w)}
    ),
    # --- tournaments (prefscore/tournaments/urls.py): organisers and admins run them,
    # members see them; the standings of a public tournament are open to anyone (issue 7;
    # private standings: tests/web/test_tournaments.py) ---
    "tournaments:list": club_roles(*MEMBERS, kwargs=walk_club),
    "tournaments:create": club_roles(*ORGANISERS, kwargs=walk_club),
    "tournaments:detail": club_roles(*MEMBERS, kwargs=walk_kwargs),
    "tournaments:register": club_roles(
        *ORGANISERS, method="post", kwargs=walk_kwargs, data=walk_guest
    ),
    "tournaments:drop": club_roles(*ORGANISERS, method="post", kwargs=walk_entry),
    "tournaments:draw": club_roles(*ORGANISERS, method="post", kwargs=walk_kwargs),
    "tournaments:cut": club_roles(
        *ORGANISERS, method="post", kwargs=walk_kwargs, data=lambda w: {"size": 3}
    ),
    "tournaments:publish": club_roles(
        *ORGANISERS, method="post", kwargs=walk_kwargs, data=lambda w: {"public": "on"}
    ),
    "tournaments:standings": public(kwargs=walk_kwargs),
    # --- the Django admin: its front page stands for all of it ---
    # Club admins (the outsider is one, of his own club) reach the admin for their
    # club's conventions; what they see there is tested in test_conventions_admin.
    "admin:index": Expect(
        _roles(
            anonymous=ADMIN_LOGIN,
            outsider=OK,
            member=ADMIN_LOGIN,
            organiser=ADMIN_LOGIN,
            admin=OK,
            superuser=OK,
        )
    ),
}


# --- the walk ---


@dataclass(frozen=True)
class Route:
    name: str | None
    route: str
    pattern: URLPattern

    @property
    def params(self) -> list[str]:
        return list(self.pattern.pattern.regex.groupindex)


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[Route]:
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}{entry.namespace}:"
            yield from _walk(entry.url_patterns, route, inner)
        else:
            name = f"{namespace}{entry.name}" if entry.name else None
            yield Route(name, route, entry)


def _is_djangos_own(route: Route) -> bool:
    if route.name == "admin:index":
        return False
    return (
        (route.name or "").startswith("admin:")
        or route.route.startswith(("admin/", "i18n/"))
        or route.route.startswith(settings.STATIC_URL.lstrip("/"))
    )


def project_routes() -> list[Route]:
    """Every URL of the project that the table must cover."""
    return [route for route in _walk(get_resolver().url_patterns) if not _is_djangos_own(route)]


ROUTES = {route.name or f"<unnamed {route.route}>": route for route in project_routes()}


def is_placeholder(route: Route) -> bool:
    """A view not written yet: its module says so and it answers 404 to everyone."""
    module = inspect.getmodule(route.pattern.callback)
    return (module.__doc__ or "").startswith("Placeholder until this screen is written")


def default_kwargs(world: World, route: Route) -> dict[str, Any]:
    """Fill the URL's parameters from the world by their names."""
    known: dict[str, Any] = {
        "slug": world.club.slug,
        "pk": world.pulka.pk,
        "number": 1,
        "token": world.invitation.token,
    }
    missing = [p for p in route.params if p not in known]
    assert not missing, f"{route.name}: give `kwargs=` in EXPECTATIONS for {missing}"
    return {p: known[p] for p in route.params}


def url_for(world: World, name: str) -> str:
    expect = EXPECTATIONS[name]
    kwargs = expect.kwargs(world) if expect.kwargs else default_kwargs(world, ROUTES[name])
    return reverse(name, kwargs=kwargs)


def outcome(response: HttpResponse) -> str:
    status = response.status_code
    if status in (301, 302, 303, 307, 308):
        target = urlparse(response["Location"]).path
        if target == resolve_url(settings.LOGIN_URL):
            return LOGIN
        if target == reverse("admin:login"):
            return ADMIN_LOGIN
        return OK
    if status in (403, 404):
        return DENIED
    if 200 <= status < 300 or status in (400, 409, 422, 429):
        return OK
    return f"status {status}"


def call(client: Any, world: World, name: str, **headers: str) -> HttpResponse:
    expect = EXPECTATIONS[name]
    data = expect.data(world) if expect.data else {}
    return getattr(client, expect.method)(url_for(world, name), data, headers=headers or None)


def cases() -> list[Any]:
    return [
        pytest.param(name, role, htmx, id=f"{name}-{role}{'-htmx' if htmx else ''}")
        for name in ROUTES
        for role in ROLES
        for htmx in (False, True)
    ]


def no_expectation_message(names: list[str]) -> str:
    return (
        "new view without a permission expectation: add a row to EXPECTATIONS in "
        f"tests/web/test_permission_walk.py for {', '.join(sorted(names))}"
    )


def test_every_url_has_a_permission_expectation():
    missing = [name for name in ROUTES if name not in EXPECTATIONS]

    assert not missing, no_expectation_message(missing)


def test_the_expectation_table_names_only_urls_that_exist():
    walked = set(ROUTES) | {"admin:index"}

    stale = sorted(set(EXPECTATIONS) - walked)

    assert not stale, f"EXPECTATIONS has rows for URLs that no longer exist: {stale}"


def test_the_walk_finds_the_urls_of_every_app():
    for name in ("clubs:home", "games:sheet", "members:list", "login", "admin:index"):
        assert name in ROUTES
    assert not any(name.startswith("admin:") and name != "admin:index" for name in ROUTES)
    assert "set_language" not in ROUTES


@pytest.mark.parametrize(("name", "role", "htmx"), cases())
def test_who_may_use_each_url(name, role, htmx, access_world, client_as):
    """With and without HX-Request: a partial view checks permissions like a full one."""
    assert name in EXPECTATIONS, no_expectation_message([name])
    assert not is_placeholder(ROUTES[name]), f"{name} is still a placeholder"
    headers = {"hx-request": "true"} if htmx else {}

    response = call(client_as(role), access_world, name, **headers)

    expected = EXPECTATIONS[name].outcomes[role]
    got = outcome(response)
    assert got == expected, (
        f"{name} as {role}{' (htmx)' if htmx else ''}: expected {expected}, got {got} "
        f"({response.status_code} {response.get('Location', '')})"
    )


# --- CSRF on every POST ---


def csrf_refused(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Stands in for Django's CSRF failure page, so a test can tell it from a 403."""
    response = HttpResponse("csrf refused", status=403)
    response["X-Test-CSRF-Refused"] = "1"
    return response


def strongest_allowed_role(name: str) -> str:
    outcomes = EXPECTATIONS[name].outcomes
    for role in ("admin", "organiser", "member", "superuser", "outsider", "anonymous"):
        if outcomes[role] == OK:
            return role
    return "admin"


CSRF_CASES = [
    pytest.param(name, htmx, id=f"{name}-{'htmx' if htmx else 'form'}")
    for name in ROUTES
    for htmx in (False, True)
]


@override_settings(CSRF_FAILURE_VIEW="tests.web.test_permission_walk.csrf_refused")
@pytest.mark.parametrize(("name", "htmx"), CSRF_CASES)
def test_a_post_without_the_csrf_token_is_refused(name, htmx, access_world, client_as):
    """Every URL, even one that only answers GET: the token is checked before the view."""
    assert name in EXPECTATIONS, no_expectation_message([name])
    client = client_as(strongest_allowed_role(name), enforce_csrf_checks=True)
    client.get(reverse("clubs:home"))  # the CSRF cookie, as a browser would hold it
    expect = EXPECTATIONS[name]
    data = expect.data(access_world) if expect.data else {}
    headers = {"hx-request": "true"} if htmx else {}

    response = client.post(url_for(access_world, name), data, headers=headers)

    assert response.status_code == 403
    assert response.get("X-Test-CSRF-Refused") == "1", f"{name}: refused, but not for CSRF"


@override_settings(CSRF_FAILURE_VIEW="tests.web.test_permission_walk.csrf_refused")
@pytest.mark.parametrize(
    "name", [name for name, expect in EXPECTATIONS.items() if expect.method == "post"]
)
def test_the_same_post_with_the_token_passes_the_csrf_check(name, access_world, client_as):
    assert name in ROUTES and not is_placeholder(ROUTES[name]), name
    client = client_as(strongest_allowed_role(name), enforce_csrf_checks=True)
    client.get(reverse("clubs:home"))
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    expect = EXPECTATIONS[name]
    data = expect.data(access_world) if expect.data else {}

    response = client.post(
        url_for(access_world, name), data, headers={"x-csrftoken": token, "hx-request": "true"}
    )

    assert response.get("X-Test-CSRF-Refused") != "1"


# --- every page obeys the Content-Security-Policy and puts the token in its forms ---

FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S | re.I)
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.I)
EVENT_ATTRIBUTE = re.compile(r"<[a-z][^>]*\s(on[a-z]+)\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I)

GET_PAGES = [name for name, expect in EXPECTATIONS.items() if expect.method == "get"]
# Answers that are not pages: the poll (304 or regions) and the JSON export.
NOT_HTML = {"games:poll", "games:export"}


@pytest.mark.parametrize("name", GET_PAGES)
def test_every_page_keeps_to_the_content_security_policy(name, access_world, client_as):
    """As everyone allowed to see it: an admin's page has more controls than a member's."""
    assert name in ROUTES and not is_placeholder(ROUTES[name]), name
    seen = 0
    for role, expected in EXPECTATIONS[name].outcomes.items():
        response = call(client_as(role), access_world, name)
        if expected != OK or response.status_code != 200:
            continue
        assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
        if "html" in response.get("Content-Type", ""):
            check_page(f"{name} as {role}", response.content.decode())
            seen += 1
    # Every other URL must have shown someone a page that was checked.
    assert seen or name in NOT_HTML, f"{name} showed no HTML page to anyone allowed"


def check_page(page: str, html: str) -> None:
    assert not INLINE_SCRIPT.search(html), f"{page}: an inline <script>"
    assert not EVENT_ATTRIBUTE.search(html), f"{page}: an on* attribute"
    assert not STYLE_ATTRIBUTE.search(html), f"{page}: a style attribute"
    for form in FORM.findall(html):
        if re.search(r"""method=["']?post""", form, re.I):
            assert "csrfmiddlewaretoken" in form, f"{page}: a POST form without the token"
    if re.search(r"hx-(post|put|patch|delete)=", html):
        assert "X-CSRFToken" in html, f"{page}: htmx posts without the token header"


# --- pulkas are archived, never deleted; deals never deleted ---


def test_no_url_of_the_project_deletes_anything():
    deleting = [
        name
        for name, route in ROUTES.items()
        if "delete" in name.lower() or "delete" in route.route.lower()
    ]

    assert deleting == []


@pytest.mark.parametrize("model", [Pulka, Deal], ids=["pulka", "deal"])
def test_the_admin_refuses_to_delete_pulkas_and_deals(model, access_world, client_as, rf):
    assert model in admin.site._registry, f"{model.__name__} is not in the admin"
    model_admin = admin.site._registry[model]
    request = rf.get("/admin/")
    request.user = access_world.users["superuser"]
    obj = access_world.pulka if model is Pulka else access_world.pulka.deals.first()

    assert not model_admin.has_delete_permission(request)
    assert not model_admin.has_delete_permission(request, obj)
    opts = model._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_delete", args=[obj.pk])
    response = client_as("superuser").post(url, {"post": "yes"})
    assert response.status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()
    bulk = client_as("superuser").post(
        reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302, 403)
    assert model.objects.filter(pk=obj.pk).exists()
