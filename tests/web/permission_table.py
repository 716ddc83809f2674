"""The permission table: who may use each URL of the project, and how to call it.

Every URL the walk finds (``ROUTES``: Django's own left out, except the admin's front
page) must have a row in EXPECTATIONS, keyed by its name: who gets through (OK: 2xx, a
3xx that is not a sign-in page, or 400/409/422/429, a refusal of the input after the
permission check), who is sent to sign in (LOGIN), and who is refused (DENIED: 403 or
404). The tests that hold the views to it are the test_permission_*.py modules beside
this one; ``test_every_url_has_a_permission_expectation`` fails for a URL without a row.

The walk's tournament is public. The pages whose permission depends on that flag (the
standings, the projector) have a second row in PRIVATE_TOURNAMENT, for a private
tournament of the same club, walked by tests/web/test_room_permissions.py: its
standings are the members', its projector the organisers'.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import urlparse

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from prefscore.clubs import owner
from prefscore.clubs.models import Player, SignInApproval
from prefscore.games.models import Abandonment, ForgottenDeal, Pulka
from scoring.engine.conventions import preset
from scoring.models import Convention
from tests.web.fixtures_access import ROLES, World, record
from tests.web.fixtures_tournaments import (
    make_tournament,
    walk_arbiter_table,
    walk_check_in,
    walk_club,
    walk_entry,
    walk_export_job,
    walk_guest,
    walk_import_job,
    walk_kwargs,
    walk_round,
    walk_table,
)

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


def waiting_signin(user: Any) -> int:
    """A sign-in of ``user`` waiting for a person's approval (prefscore/clubs/approvals.py)."""
    row = SignInApproval.objects.create(
        user=user,
        username=user.username,
        code=f"{SignInApproval.objects.count():06d}",
        secret_digest="-",
        expires_at=timezone.now() + timedelta(minutes=30),
    )
    return row.pk


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


def manual_line_kwargs(world: World) -> dict[str, Any]:
    """A manual entry on the world's sheet, written by the admin (docs/rules.md §3.11)."""
    if not any("manual" in d.facts for d in world.pulka.deals.current()):
        line = {"player": "Anna", "section": "gora", "points": 2, "reason": "fine"}
        record(world.pulka, {"manual": line}, world.users["admin"])
    return {"pk": world.pulka.pk, "number": world.pulka.deals.current().count()}


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


def abandonment_kwargs(world: World) -> dict[str, Any]:
    """A proposal to abandon the pulka, waiting for the table's answers (games.abandon)."""
    seat_the_member(world)
    found, _ = Abandonment.objects.get_or_create(
        pulka=world.pulka, defaults={"proposed_by": world.users["member"]}
    )
    return {"pk": world.pulka.pk, "abandonment": found.pk}


def stats_player(world: World) -> dict[str, Any]:
    player = Player.objects.filter(club=world.club).first()
    assert player is not None
    return {"slug": world.club.slug, "player": player.pk}


def walk_season(world: World) -> dict[str, Any]:
    """A members-only season of the world's club over one evening (made on first use)."""
    import datetime

    from prefscore.seasons import standings
    from prefscore.seasons.models import Season
    from tests.web.season_fixtures import DAY, evening

    season = Season.objects.filter(club=world.club, slug="walk").first()
    if season is None:
        evening(world.club, DAY, [(("Anna", "Boris", "Vera"), (10, 0, -10), "sochi")])
        season = Season.objects.create(
            club=world.club,
            name="Walk",
            slug="walk",
            starts_on=DAY,
            ends_on=DAY + datetime.timedelta(days=7),
        )
        standings.refresh(season)
    return {"slug": world.club.slug, "season": season.slug}


def walk_season_line(world: World) -> dict[str, Any]:
    kwargs = walk_season(world)
    player = Player.objects.get(club=world.club, name="Anna")
    return {**kwargs, "player": player.pk}


def member_row(world: World) -> dict[str, Any]:
    return {"slug": world.club.slug, "pk": world.memberships["member"].pk}


def invitation_row(world: World) -> dict[str, Any]:
    return {"slug": world.club.slug, "pk": world.invitation.pk}


def player_row(name: str) -> Params:
    """A player of the world's club (Anna is linked to the member first)."""

    def kwargs(world: World) -> dict[str, Any]:
        seat_the_member(world)
        return {"slug": world.club.slug, "pk": Player.objects.get(club=world.club, name=name).pk}

    return kwargs


def merge_data(world: World) -> dict[str, Any]:
    found = dict(Player.objects.filter(club=world.club).values_list("name", "pk"))
    return {"keep": found["Boris"], "drop": found["Vera"]}


def home_rules(world: World) -> str:
    """The slug of a convention of the world's club (made on first use)."""
    if not Convention.objects.filter(slug="home-rules").exists():
        Convention.from_engine(
            preset("sochi"), name="Home rules", slug="home-rules", owner=world.club
        ).save()
    return "home-rules"


def join_kwargs(world: World) -> dict[str, Any]:
    """The world's pulka's join link."""
    from prefscore.games import joining

    return {"token": joining.join_token(joining.links_of(world.pulka))}


def watch_kwargs(world: World) -> dict[str, Any]:
    """The world's pulka's spectator link, made on first use."""
    from prefscore.games import joining

    links = joining.links_of(world.pulka)
    if links.spectator_code is None:
        links = joining.open_spectator_link(world.pulka, world.users["admin"])
    return {"token": joining.spectator_token(links)}


def finished_pulka_kwargs(world: World) -> dict[str, Any]:
    """The world's pulka, over: a result card and a result to share are a finished one's."""
    Pulka.objects.filter(pk=world.pulka.pk).update(status=Pulka.Status.FINISHED)
    world.pulka.refresh_from_db()
    seat_the_member(world)
    return {"pk": world.pulka.pk}


def result_kwargs(world: World) -> dict[str, Any]:
    """The finished pulka's result, shared by the admin (docs/design.md, "Sharing a result")."""
    from prefscore.games import joining, sharing

    finished_pulka_kwargs(world)
    token = sharing.result_token(joining.links_of(world.pulka))
    if token is None:
        token = sharing.result_token(sharing.share_result(world.pulka, world.users["admin"]))
    return {"token": token}


def watch_finished_kwargs(world: World) -> dict[str, Any]:
    finished_pulka_kwargs(world)
    return watch_kwargs(world)


def membership_request_row(world: World) -> dict[str, Any]:
    """The outsider asks to join the world's club."""
    from prefscore.clubs.models import MembershipRequest

    asked, _ = MembershipRequest.objects.get_or_create(
        club=world.club, user=world.users["outsider"], status="pending"
    )
    return {"slug": world.club.slug, "pk": asked.pk}


# Changing a table's links: its players (the member sits as Anna) and the
# club's admins; the organiser does not sit at the table.
TABLE_LINK_MANAGERS = _roles(
    anonymous=LOGIN, outsider=DENIED, member=OK, organiser=DENIED, admin=OK, superuser=DENIED
)


EXPECTATIONS: dict[str, Expect] = {
    # --- the installable app (prefscore/offline.py): nothing private in any of them ---
    "service_worker": public(),
    "manifest": public(),
    "favicon": public(),
    "outbox_session": public(),  # says who is signed in: null for nobody
    # --- accounts (prefscore/clubs/account_urls.py) ---
    "login": public(),
    # The mailed code of a challenged sign-in: without a challenge, a code opens nothing.
    "login_code": public(),
    # A challenged sign-in's device asking whether a person approved it: without a
    # request waiting in its session, the page that says to sign in again.
    "login_approval": public("post"),
    # The sign-ins this person may approve: his own, his club members', everyone's.
    "signin_approvals": signed_in(),
    # Refusing one: the member's own, his club admin's, the owner's; a 404 to the rest.
    "signin_refuse": Expect(
        _roles(
            anonymous=LOGIN,
            outsider=DENIED,
            member=OK,
            organiser=DENIED,
            admin=OK,
            superuser=OK,
        ),
        "post",
        kwargs=lambda w: {"pk": waiting_signin(w.users["member"])},
    ),
    "logout": public("post"),
    "signup": public(),
    "display_name": signed_in(),
    # The owner's one-time link (prefscore/clubs/owner.py): the world has its owner (its
    # superuser), so even a link just made is dead, the same 404 page for everyone.
    "owner_setup": Expect(
        {role: DENIED for role in ROLES}, kwargs=lambda w: {"token": owner.new_link()}
    ),
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
    # A club's players page and its changes: admins only.
    "members:players": club_roles(*ADMINS),
    "members:player_link": club_roles(
        *ADMINS,
        method="post",
        kwargs=player_row("Vera"),
        data=lambda w: {"account": w.users["organiser"].pk},
    ),
    "members:player_unlink": club_roles(*ADMINS, method="post", kwargs=player_row("Anna")),
    "members:player_merge": club_roles(*ADMINS, method="post", data=merge_data),
    # --- clubs (prefscore/games/club_urls.py) ---
    "clubs:home": public(),
    "clubs:create": signed_in("post", data=lambda w: {"name": "New club"}),
    "clubs:club": club_roles(*MEMBERS),
    "clubs:add_guest": club_roles(*MEMBERS, method="post", data=lambda w: {"name": "Guest"}),
    # --- games (prefscore/games/urls.py): any member records and views ---
    "games:sheet": club_roles(*MEMBERS),
    # A polling device that lost its session gets 403, not a sign-in page htmx can't show.
    "games:poll": replace_outcomes(club_roles(*MEMBERS), anonymous=DENIED),
    # The change signal is checked as the poll is (a 204 under the walk's WSGI client).
    "games:events": replace_outcomes(club_roles(*MEMBERS), anonymous=DENIED),
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
    # Manual entries (docs/rules.md §3.11): the club's admins write and correct them (in
    # a tournament pulka its organisers too; tests/web/test_manual_entries.py).
    "games:manual": club_roles(*ADMINS),
    "games:manual_correct": club_roles(*ADMINS, kwargs=manual_line_kwargs),
    # A player at the table proposes abandoning, a club admin abandons at once.
    "games:abandon": club_roles("member", "admin", method="post", kwargs=seated_pulka_kwargs),
    "games:abandon_answer": club_roles(
        "member",
        method="post",
        kwargs=abandonment_kwargs,
        data=lambda w: {"seat": "1", "answer": "agree"},
    ),
    "games:settlement": club_roles(*MEMBERS),
    "games:export": club_roles(*MEMBERS),
    "games:new": club_roles(*MEMBERS),
    "games:import": club_roles(*MEMBERS),
    "games:calculator": signed_in(),
    # --- joining a table: the link is the secret; members go on to the sheet,
    # anyone else is shown how to ask to join; the spectator link is for anyone ---
    "games:join": public(kwargs=join_kwargs),
    "games:rotate_join": Expect(TABLE_LINK_MANAGERS, "post", kwargs=seated_pulka_kwargs),
    "games:spectator_link": Expect(
        TABLE_LINK_MANAGERS, "post", kwargs=seated_pulka_kwargs, data=lambda w: {"action": "open"}
    ),
    "games:watch": public(kwargs=watch_kwargs),
    "games:watch_poll": public(kwargs=watch_kwargs),
    "games:watch_events": public(kwargs=watch_kwargs),
    "games:watch_settlement": public(kwargs=watch_finished_kwargs),
    "games:card": club_roles(*MEMBERS, kwargs=finished_pulka_kwargs),
    "games:result_link": Expect(
        TABLE_LINK_MANAGERS,
        "post",
        kwargs=finished_pulka_kwargs,
        data=lambda w: {"action": "share"},
    ),
    "games:result": public(kwargs=result_kwargs),
    "games:result_card": public(kwargs=result_kwargs),
    "members:approve": club_roles(*ADMINS, method="post", kwargs=membership_request_row),
    "members:decline": club_roles(*ADMINS, method="post", kwargs=membership_request_row),
    "members:spectators": club_roles(*ADMINS, method="post", data=lambda w: {"allow": "0"}),
    # --- conventions (scoring/urls.py): presets for all, a club's own for its members;
    # the superuser reads every convention (he edits them in the admin anyway) ---
    # --- statistics (prefscore/stats/urls.py): members; the leaderboard public if chosen ---
    "stats:player": club_roles(*MEMBERS, kwargs=stats_player),
    "stats:player_csv": club_roles(*MEMBERS, kwargs=stats_player),
    "stats:leaderboard": club_roles(*MEMBERS),
    "stats:leaderboard_settings": club_roles(
        *ADMINS, method="post", data=lambda w: {"public": "1"}
    ),
    "stats:club_csv": club_roles(*MEMBERS),
    "stats:my_data": signed_in(),
    # --- seasons (prefscore/seasons/urls.py): the table as the leaderboard (members, or
    # anyone when the season is public: this one is not); the forms for organisers ---
    # Members-only while the club has no public season (the walk's has none).
    "seasons:archive": club_roles(*MEMBERS),
    "seasons:table": club_roles(*MEMBERS, kwargs=walk_season),
    "seasons:projector": club_roles(*MEMBERS, kwargs=walk_season),
    "seasons:csv": club_roles(*MEMBERS, kwargs=walk_season),
    "seasons:json": club_roles(*MEMBERS, kwargs=walk_season),
    "seasons:card": club_roles(*MEMBERS, kwargs=walk_season),
    # --- the club's public results page (prefscore/public/): the members' until an admin
    # makes it public (the walk's club has not) ---
    "public:club": club_roles(*MEMBERS),
    "public:card": club_roles(*MEMBERS),
    "public:settings": club_roles(*ADMINS, method="post", data=lambda w: {"public": "0"}),
    "seasons:player": club_roles(*MEMBERS, kwargs=walk_season_line),
    "seasons:create": club_roles(*ORGANISERS),
    "seasons:edit": club_roles(*ORGANISERS, kwargs=walk_season),
    "seasons:qualify": club_roles(*ORGANISERS, kwargs=walk_season),
    "seasons:divisions": club_roles(*ORGANISERS, kwargs=walk_season),
    "seasons:marked": club_roles(*ORGANISERS, kwargs=walk_season),
    "conventions:list": signed_in(),
    "conventions:detail": club_roles(
        *MEMBERS, superuser=OK, kwargs=lambda w: {"slug": home_rules(w)}
    ),
    "conventions:compare": club_roles(
        *MEMBERS, superuser=OK, data=lambda w: {"a": home_rules(w), "b": home_rules(w)}
    ),
    # --- tournaments (prefscore/tournaments/urls.py): organisers and admins run them,
    # members see them; the standings of a public tournament are open to anyone
    # (docs/tournaments.md §4; private standings: tests/web/test_tournaments.py) ---
    "tournaments:list": club_roles(*MEMBERS, kwargs=walk_club),
    "tournaments:create": club_roles(*ORGANISERS, kwargs=walk_club),
    "tournaments:detail": club_roles(*MEMBERS, kwargs=walk_kwargs),
    "tournaments:register": club_roles(
        *ORGANISERS, method="post", kwargs=walk_kwargs, data=walk_guest
    ),
    "tournaments:entry_state": club_roles(
        *ORGANISERS, method="post", kwargs=walk_entry, data=lambda w: {"action": "check_in"}
    ),
    "tournaments:draw": club_roles(*ORGANISERS, method="post", kwargs=walk_kwargs),
    "tournaments:publish_round": club_roles(*ORGANISERS, method="post", kwargs=walk_round),
    "tournaments:redraw": club_roles(*ORGANISERS, method="post", kwargs=walk_round),
    "tournaments:discard_round": club_roles(*ORGANISERS, method="post", kwargs=walk_round),
    "tournaments:swap": club_roles(*ORGANISERS, method="post", kwargs=walk_round),
    "tournaments:move": club_roles(*ORGANISERS, method="post", kwargs=walk_round),
    "tournaments:reopen": club_roles(*ORGANISERS, method="post", kwargs=walk_kwargs),
    "tournaments:redo_cut": club_roles(*ORGANISERS, method="post", kwargs=walk_kwargs),
    "tournaments:correct_closure": club_roles(*ORGANISERS, kwargs=walk_arbiter_table),
    "tournaments:discipline": club_roles(*ORGANISERS, kwargs=walk_entry),
    "tournaments:leave": club_roles(*ORGANISERS, kwargs=walk_entry),
    "tournaments:constraints": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:schedule_round": club_roles(
        *ORGANISERS, method="post", kwargs=walk_round, data=lambda w: {"starts_at": ""}
    ),
    "tournaments:bulk_check_in": club_roles(
        *ORGANISERS, method="post", kwargs=walk_kwargs, data=lambda w: {"entries": []}
    ),
    "tournaments:check_in_self": club_roles(*MEMBERS, kwargs=walk_check_in),
    "tournaments:close_table": club_roles(*ORGANISERS, kwargs=walk_table),
    "tournaments:regulations": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:bracket": public(kwargs=walk_kwargs),
    "tournaments:cut": club_roles(
        *ORGANISERS, method="post", kwargs=walk_kwargs, data=lambda w: {"size": 3}
    ),
    "tournaments:finish": club_roles(*ORGANISERS, method="post", kwargs=walk_kwargs),
    "tournaments:publish": club_roles(
        *ORGANISERS, method="post", kwargs=walk_kwargs, data=lambda w: {"public": "on"}
    ),
    "tournaments:standings": public(kwargs=walk_kwargs),
    "tournaments:standings_card": public(kwargs=walk_kwargs),
    # The room (prefscore/tournaments/views/room.py): the projector of a public
    # tournament is anyone's (PRIVATE_TOURNAMENT below for a private one).
    "tournaments:room": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:projector": public(kwargs=walk_kwargs),
    "tournaments:my_table": club_roles(*MEMBERS, kwargs=walk_kwargs),
    # The room screens' change signals: as their screens, but 403 rather than a sign-in.
    "tournaments:room_events": replace_outcomes(
        club_roles(*ORGANISERS, kwargs=walk_kwargs), anonymous=DENIED
    ),
    "tournaments:projector_events": public(kwargs=walk_kwargs),
    "tournaments:my_table_events": replace_outcomes(
        club_roles(*MEMBERS, kwargs=walk_kwargs), anonymous=DENIED
    ),
    "tournaments:print_seating": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:print_cards": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:print_standings": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:print_protocol": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:export_csv": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    "tournaments:export_json": club_roles(*ORGANISERS, kwargs=walk_kwargs),
    # A large export's page and its file: the organiser who asked for it (404 to others).
    "tournaments:export_job": club_roles("organiser", kwargs=walk_export_job),
    "tournaments:export_file": club_roles("organiser", kwargs=walk_export_job),
    "tournaments:import": club_roles(*ORGANISERS, kwargs=walk_club),
    # A large import's page: the organiser who sent the file, nobody else (404 to them).
    "tournaments:import_job": club_roles("organiser", kwargs=walk_import_job),
    "tournaments:import_answer": club_roles(
        "organiser", method="post", kwargs=walk_import_job, data=lambda w: {"answer": "keep"}
    ),
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


def walk_private_kwargs(world: World) -> dict[str, Any]:
    """A private tournament of the access world (made on first use)."""
    if not world.club.tournaments.filter(slug="private-cup").exists():
        make_tournament(world.club, "Private cup", slug="private-cup", public=False)
    return {"club": world.club.slug, "slug": "private-cup"}


PRIVATE_TOURNAMENT: dict[str, Expect] = {
    "tournaments:standings": club_roles(*MEMBERS, kwargs=walk_private_kwargs),
    "tournaments:standings_card": club_roles(*MEMBERS, kwargs=walk_private_kwargs),
    "tournaments:projector": club_roles(*ORGANISERS, kwargs=walk_private_kwargs),
    "tournaments:projector_events": replace_outcomes(
        club_roles(*ORGANISERS, kwargs=walk_private_kwargs), anonymous=DENIED
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


def no_expectation_message(names: list[str]) -> str:
    return (
        "new view without a permission expectation: add a row to EXPECTATIONS in "
        f"tests/web/permission_table.py for {', '.join(sorted(names))}"
    )
