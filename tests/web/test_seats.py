"""Every member is one of the club's players (prefscore/clubs/players.py, invitations.py).

Accounts are seats: joining makes the player or claims a guest with her
history; a club admin links, unlinks and merges players; every change is a PlayerEvent.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction
from django.utils import translation

from prefscore.clubs import invitations, players
from prefscore.clubs.forms import ClubForm
from prefscore.clubs.models import Membership, Player, PlayerEvent, Role
from prefscore.games.models import Consent, ForgottenDeal, PulkaSeat
from prefscore.tournaments.models import TournamentEntry
from tests.web.fixtures_club import club_pulka, three_deals
from tests.web.fixtures_tournaments import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def in_english():
    """The services' refusals are read in English here (the site's default is Russian)."""
    with translation.override("en"):
        yield


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", password="pw-for-tests-1234")


def invite(world, guest=None):
    """A link into the club; ``guest``: the guest it is for, the only one its invitee
    may claim."""
    return invitations.create_invitation(world.club, world.users["olga"], Role.MEMBER, guest=guest)


# --- joining ---------------------------------------------------------------------------


def test_accepting_an_invitation_makes_the_new_member_a_player(club_world, anna):
    invitations.accept(invite(club_world), anna)

    player = Player.objects.get(club=club_world.club, user=anna)
    assert player.name == "anna"
    event = PlayerEvent.objects.get(club=club_world.club)
    assert (event.action, event.player, event.account, event.by) == ("joined", player, anna, anna)


def test_a_new_members_name_taken_by_a_guest_gets_the_next_free_one(club_world, anna):
    Player.objects.create(club=club_world.club, name="Anna")  # a guest, any case

    invitations.accept(invite(club_world), anna)

    assert Player.objects.get(user=anna).name == "anna 2"
    assert Player.objects.get(name="Anna").user is None


def test_claiming_a_guest_brings_her_seats_and_results_with_her(club_world, anna):
    guest = Player.objects.create(club=club_world.club, name="Анна")
    pulka = club_pulka(
        club_world.club, ("olga", "Анна", "ivan"), three_deals(("olga", "Анна", "ivan"))
    )

    invitations.accept(invite(club_world, guest), anna, claim=guest.pk)

    guest.refresh_from_db()
    assert guest.user == anna
    assert Player.objects.filter(club=club_world.club, user=anna).count() == 1
    assert PulkaSeat.objects.get(pulka=pulka, seat=1).player.user == anna
    assert PlayerEvent.objects.get().action == "claimed"


def test_a_guest_claimed_by_someone_else_meanwhile_is_refused_and_nothing_is_joined(
    club_world, anna, django_user_model
):
    guest = Player.objects.create(club=club_world.club, name="Анна")
    other = django_user_model.objects.create_user("other")
    invitations.accept(invite(club_world, guest), other, claim=guest.pk)

    with pytest.raises(players.PlayersRefused, match="no longer free"):
        invitations.accept(invite(club_world, guest), anna, claim=guest.pk)

    assert not Membership.objects.filter(user=anna).exists()
    assert not Player.objects.filter(user=anna).exists()


def test_a_member_player_cannot_be_claimed(club_world, anna):
    ivan = club_world.players["ivan"]
    with pytest.raises(players.PlayersRefused):
        invitations.accept(invite(club_world, ivan), anna, claim=ivan.pk)

    assert club_world.players["ivan"].user == club_world.users["ivan"]


def test_a_link_for_nobody_claims_no_guest(club_world, anna):
    """Any invitee claiming any guest took anyone's results: refused, nothing joined."""
    guest = Player.objects.create(club=club_world.club, name="Анна")

    with pytest.raises(players.PlayersRefused, match="not for that guest"):
        invitations.accept(invite(club_world), anna, claim=guest.pk)

    guest.refresh_from_db()
    assert guest.user is None
    assert not Membership.objects.filter(user=anna).exists()


def test_a_member_who_left_and_comes_back_plays_as_his_old_player(club_world):
    ivan = club_world.users["ivan"]
    invitations.remove_member(Membership.objects.get(club=club_world.club, user=ivan))

    invitations.accept(invite(club_world), ivan)

    assert list(Player.objects.filter(club=club_world.club, user=ivan)) == [
        club_world.players["ivan"]
    ]


def test_creating_a_club_makes_its_creator_a_player(anna):
    form = ClubForm({"name": "Среда"})
    assert form.is_valid()

    club = form.save(anna)

    assert Player.objects.get(club=club).user == anna


def test_an_account_has_at_most_one_player_in_a_club(club_world):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(
            club=club_world.club, name="ivan again", user=club_world.users["ivan"]
        )
    # ...but one in each club.
    Player.objects.create(club=club_world.other_club, name="ivan", user=club_world.users["ivan"])


def test_the_data_migration_gives_every_member_without_one_a_player(club_world, anna):
    Membership.objects.create(club=club_world.club, user=anna)
    Player.objects.create(club=club_world.club, name="anna")  # a guest with her name
    migration = importlib.import_module("prefscore.clubs.migrations.0004_seats_players_for_members")

    migration.players_for_members(apps, None)
    migration.players_for_members(apps, None)  # a second run changes nothing

    assert Player.objects.get(club=club_world.club, user=anna).name == "anna 2"
    assert Player.objects.filter(club=club_world.club, user__isnull=False).count() == 3
    assert PlayerEvent.objects.get(club=club_world.club).details["migrated"] is True
    assert Player.objects.get(club=club_world.other_club).user == club_world.users["petr"]


# --- an admin's changes ----------------------------------------------------------------


def test_linking_a_guest_replaces_the_members_empty_player(club_world, anna):
    invitations.accept(invite(club_world), anna)
    empty = Player.objects.get(user=anna)
    guest = Player.objects.create(club=club_world.club, name="Анна")
    olga = club_world.users["olga"]

    players.link(guest, anna, olga)

    assert not Player.objects.filter(pk=empty.pk).exists()
    guest.refresh_from_db()
    assert guest.user == anna
    linked = PlayerEvent.objects.get(action="linked")
    assert (linked.by, linked.player, linked.account) == (olga, guest, anna)
    assert PlayerEvent.objects.filter(action="merged", details__empty=True).exists()


def test_linking_refuses_a_member_whose_player_has_a_history(club_world):
    club_pulka(club_world.club)  # ivan sits at it
    guest = Player.objects.create(club=club_world.club, name="Ваня")

    with pytest.raises(players.PlayersRefused, match="merge"):
        players.link(guest, club_world.users["ivan"], club_world.users["olga"])

    guest.refresh_from_db()
    assert guest.user is None


def test_linking_refuses_an_account_outside_the_club(club_world):
    with pytest.raises(players.PlayersRefused):
        players.link(club_world.players["Guest Gena"], club_world.users["petr"], None)


def test_unlinking_makes_a_guest_and_gives_the_member_a_new_player(club_world):
    ivan_player, olga = club_world.players["ivan"], club_world.users["olga"]

    players.unlink(ivan_player, olga)

    ivan_player.refresh_from_db()
    assert ivan_player.user is None
    fresh = Player.objects.get(club=club_world.club, user=club_world.users["ivan"])
    assert fresh.name == "ivan 2"
    assert [e.action for e in PlayerEvent.objects.order_by("pk")] == ["unlinked", "joined"]
    assert PlayerEvent.objects.get(action="unlinked").details["by"] == "olga"


def test_merging_moves_every_row_that_points_at_the_player(club_world):
    world = club_world
    twin = Player.objects.create(club=world.club, name="Gena")
    pulka = club_pulka(world.club, ("olga", "Gena", "ivan"))
    tournament = make_tournament(world.club, "Cup", slug="cup")
    TournamentEntry.objects.create(tournament=tournament, player=twin)
    proposal = ForgottenDeal.objects.create(pulka=pulka, number=1, facts={})
    Consent.objects.create(proposal=proposal, player=twin, agreed=True)
    keep = world.players["Guest Gena"]

    players.merge(keep, twin, world.users["olga"])

    assert not Player.objects.filter(pk=twin.pk).exists()
    assert PulkaSeat.objects.get(pulka=pulka, seat=1).player == keep
    assert TournamentEntry.objects.get().player == keep
    assert Consent.objects.get().player == keep
    event = PlayerEvent.objects.get(action="merged")
    assert event.details["kept"] == "Guest Gena" and event.details["dropped"] == "Gena"
    assert event.details["moved"] == {
        "games.pulkaseat": 1,
        "tournaments.tournamententry": 1,
        "games.consent": 1,
    }


def test_merging_two_players_seated_at_one_pulka_is_refused_and_changes_nothing(club_world):
    pulka = club_pulka(club_world.club, title="Пятница")
    keep, drop = club_world.players["olga"], club_world.players["Guest Gena"]

    with pytest.raises(players.PlayersRefused, match="sat at the same pulka") as refused:
        players.merge(keep, drop, club_world.users["olga"])

    assert "Пятница" in str(refused.value)
    assert PulkaSeat.objects.filter(pulka=pulka, player=drop).exists()
    assert not PlayerEvent.objects.exists()


def test_merging_two_entries_of_one_tournament_is_refused(club_world):
    tournament = make_tournament(club_world.club, "Cup", slug="cup")
    gena, twin = (
        club_world.players["Guest Gena"],
        Player.objects.create(club=club_world.club, name="G"),
    )
    TournamentEntry.objects.create(tournament=tournament, player=gena)
    TournamentEntry.objects.create(tournament=tournament, player=twin)

    with pytest.raises(players.PlayersRefused, match="Cup"):
        players.merge(gena, twin, None)


def test_merging_two_accounts_is_refused(club_world):
    with pytest.raises(players.PlayersRefused, match="two accounts"):
        players.merge(club_world.players["olga"], club_world.players["ivan"], None)


def test_merging_a_guest_into_nobody_gives_the_kept_player_the_account(club_world):
    keep, drop = club_world.players["Guest Gena"], club_world.players["ivan"]

    players.merge(keep, drop, club_world.users["olga"])

    keep.refresh_from_db()
    assert keep.user == club_world.users["ivan"]


def test_a_player_cannot_be_merged_with_himself(club_world):
    gena = club_world.players["Guest Gena"]
    with pytest.raises(players.PlayersRefused):
        players.merge(gena, gena, None)


def test_a_new_players_name_differs_from_every_name_in_any_case(club_world, django_user_model):
    Player.objects.create(club=club_world.club, name="анна")
    cyrillic = django_user_model.objects.create_user("Анна")

    assert players.ensure_player(club_world.club, cyrillic).name == "Анна 2"
