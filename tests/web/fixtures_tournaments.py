"""Fixtures for the tournament tests: a club with an organiser, a member and players.

``tournament_world`` is a club ("cup") with an organiser, a member and nine players,
and another club whose admin is an outsider here. ``make_tournament`` creates a
tournament directly; ``play_round_deals`` records deals at every table of a round
through the games service, as the players' devices would.

``walk_tournament`` gives the permission walk (test_permission_walk.py) a tournament
in its access world.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, TestCase
from django.urls import reverse

from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from prefscore.tournaments import checkin, rounds, tables
from prefscore.tournaments.models import (
    ExportJob,
    ImportJob,
    Round,
    Tournament,
    TournamentEntry,
)
from scoring.engine.conventions import from_options, preset

PASSWORD = "pw-for-tournaments-1234"
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Igor", "Kira")


@dataclass
class TournamentWorld:
    club: Club
    other_club: Club
    players: list[Player]
    users: dict[str, Any] = field(default_factory=dict)


def make_tournament(club: Club, name: str = "Spring cup", **fields: Any) -> Tournament:
    """A Sochi tournament of 3-tables, 4 deals a round, standings private by default."""
    convention = preset("sochi")
    deals = fields.pop("deals_per_round", 4)
    if deals:
        convention = from_options({"end": "deals", "deal_limit": deals}, base=convention)
    values: dict[str, Any] = {
        "club": club,
        "name": name,
        "slug": fields.pop("slug", "spring-cup"),
        "table_size": 3,
        "convention_name": "sochi",
        "convention_options": convention.to_options(),
        "target": 10,
        "deals_per_round": deals,
        "seed": 11,
    }
    values.update(fields)
    return Tournament.objects.create(**values)


def enter(tournament: Tournament, players: list[Player]) -> None:
    TournamentEntry.objects.bulk_create(
        TournamentEntry(tournament=tournament, player=player) for player in players
    )


def table_deals(pulka: Pulka) -> list[dict[str, Any]]:
    """Deals the table can play: a made 6♠, then (at a 3-table) an all-pass."""
    names = list(pulka.player_names)
    if len(names) == 4:  # the first dealer sits out of the first deal
        names.pop(pulka.first_dealer)
    x, y, z = names
    deals: list[dict[str, Any]] = [
        {
            "contract": "6S",
            "declarer": x,
            "whists": {y: "whist", z: "pass"},
            "tricks": {x: 6, y: 3, z: 1},
        }
    ]
    if len(pulka.player_names) == 3:
        deals.append({"contract": "allpass", "tricks": {x: 0, y: 4, z: 6}})
    return deals


def play_round_deals(tournament: Tournament, round_number: int, user: Any = None) -> None:
    """Record a deal or two at every table of a round through the service, with what
    runs once each record commits (the stored table results) run as it would."""
    for pulka in Pulka.objects.filter(
        tournament=tournament, round_number=round_number, status=Pulka.Status.RUNNING
    ):
        for number, facts in enumerate(table_deals(pulka), start=1):
            with TestCase.captureOnCommitCallbacks(execute=True):
                record_deal(pulka.pk, facts, user, number)


@pytest.fixture
def tournament_world(db: Any) -> TournamentWorld:
    User = get_user_model()
    users = {
        role: User.objects.create_user(f"t-{role}", password=PASSWORD)
        for role in ("organiser", "member", "outsider", "admin")
    }
    club = Club.objects.create(name="Cup club", slug="cup")
    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    Membership.objects.create(club=club, user=users["organiser"], role=Role.ORGANISER)
    Membership.objects.create(club=club, user=users["admin"], role=Role.ADMIN)
    Membership.objects.create(club=club, user=users["member"], role=Role.MEMBER)
    Membership.objects.create(club=other, user=users["outsider"], role=Role.ADMIN)
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    return TournamentWorld(club, other, players, users)


# --- the permission walk's tournament ---------------------------------------------------


def walk_tournament(world: Any) -> Tournament:
    """A public tournament of the access world with its three players entered."""
    tournament = Tournament.objects.filter(club=world.club, slug="walk-cup").first()
    if tournament is None:
        tournament = make_tournament(world.club, "Walk cup", slug="walk-cup", public=True)
        enter(tournament, list(world.club.players.order_by("name")[:3]))
    return tournament


def walk_club(world: Any) -> dict[str, Any]:
    return {"club": world.club.slug}


def walk_kwargs(world: Any) -> dict[str, Any]:
    return {"club": world.club.slug, "slug": walk_tournament(world).slug}


def walk_entry(world: Any) -> dict[str, Any]:
    tournament = walk_tournament(world)
    return {**walk_kwargs(world), "entry": tournament.entries.first().pk}


def walk_check_in(world: Any) -> dict[str, Any]:
    """The walk tournament's signed check-in link (the QR code's)."""
    return {**walk_kwargs(world), "token": checkin.token(walk_tournament(world))}


def walk_round(world: Any) -> dict[str, Any]:
    """Round 1 of the walk tournament, drawn or not: refusals answer 200 with the reason."""
    return {**walk_kwargs(world), "number": 1}


def walk_table(world: Any) -> dict[str, Any]:
    """A running table of a tournament of its own (round 1 published), to close."""
    tournament = Tournament.objects.filter(club=world.club, slug="walk-table-cup").first()
    if tournament is None:
        tournament = make_tournament(world.club, "Walk table cup", slug="walk-table-cup")
        enter(tournament, list(world.club.players.order_by("name")[:3]))
        rounds.draw_next_round(tournament.pk)
        rounds.publish_round(tournament.pk, 1)
    pulka = Pulka.objects.filter(tournament=tournament).first()
    assert pulka is not None
    return {"club": world.club.slug, "slug": tournament.slug, "pulka": pulka.pk}


def walk_arbiter_table(world: Any) -> dict[str, Any]:
    """A table of a tournament of its own closed on the arbiter's final sheet, to correct."""
    tournament = Tournament.objects.filter(club=world.club, slug="walk-arbiter-cup").first()
    if tournament is None:
        tournament = make_tournament(world.club, "Walk arbiter cup", slug="walk-arbiter-cup")
        enter(tournament, list(world.club.players.order_by("name")[:3]))
        rounds.draw_next_round(tournament.pk)
        rounds.publish_round(tournament.pk, 1)
        pulka = Pulka.objects.get(tournament=tournament)
        tables.close_table(pulka.pk, tournament, "arbiter", None, [1, 0, -1])
    pulka = Pulka.objects.get(tournament=tournament)
    return {"club": world.club.slug, "slug": tournament.slug, "pulka": pulka.pk}


def walk_guest(world: Any) -> dict[str, Any]:
    """A club player not yet entered, to register."""
    walk_tournament(world)
    guest, _ = Player.objects.get_or_create(club=world.club, name="Walk guest")
    return {"players": [guest.pk]}


def walk_import_job(world: Any) -> dict[str, Any]:
    """A large import the world's organiser sent, not yet begun."""
    job = ImportJob.objects.filter(club=world.club).first()
    if job is None:
        job = ImportJob.objects.create(club=world.club, created_by=world.users["organiser"])
    return {"club": world.club.slug, "job": job.pk}


def walk_export_job(world: Any) -> dict[str, Any]:
    """A large export of the walk tournament the world's organiser asked for, written."""
    tournament = walk_tournament(world)
    job = ExportJob.objects.filter(tournament=tournament).first()
    if job is None:
        job = ExportJob.objects.create(
            tournament=tournament,
            created_by=world.users["organiser"],
            status=ExportJob.Status.DONE,
            text="{}",
        )
    return {**walk_kwargs(world), "job": job.pk}


# --- the tournament screens' requests, and a tournament to play (``cup``) ---

HTMX = {"HX-Request": "true"}


def client_as(world: TournamentWorld, role: str, language: str = "en", **kwargs: Any) -> Client:
    client = Client(headers={"accept-language": language}, **kwargs)
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def url(name: str, tournament: Tournament, **extra: Any) -> str:
    return reverse(
        f"tournaments:{name}",
        kwargs={"club": tournament.club.slug, "slug": tournament.slug, **extra},
    )


def create_data(**overrides: str) -> dict[str, str]:
    data = {
        "name": "Autumn cup",
        "convention": "sochi",
        "table_size": "3",
        "target": "10",
        "deals_per_round": "6",
        "normalisation": "raw",
        "carry": "kept",
        "tie_break_1": "allpass_won",
        "tie_break_2": "remizes",
    }
    data.update(overrides)
    return data


@pytest.fixture
def cup(tournament_world: TournamentWorld) -> Tournament:
    """A private 3-table tournament with all nine players entered."""
    tournament = make_tournament(tournament_world.club)
    enter(tournament, tournament_world.players)
    return tournament


def draw(world: TournamentWorld, tournament: Tournament, role: str = "organiser") -> Any:
    """Draw the next round as the organiser would: the draft, then publish it."""
    client = client_as(world, role)
    response = client.post(url("draw", tournament))
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is None:
        return response
    return client.post(url("publish_round", tournament, number=draft.number))


def close_round(tournament: Tournament, number: int, user: Any = None) -> None:
    """Close every table of a round still playing, by the time limit (as a director)."""
    for pulka in Pulka.objects.filter(
        tournament=tournament, round_number=number, status=Pulka.Status.RUNNING
    ):
        tables.close_table(pulka.pk, tournament, "time", user)


def draw_draft(world: TournamentWorld, tournament: Tournament, role: str = "organiser") -> Any:
    return client_as(world, role).post(url("draw", tournament))
