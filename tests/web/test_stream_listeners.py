"""Each event stream is held by the session that opened it (games/listeners.py): signing
out, a changed password, a deactivated account, a lost membership or role and a revoked
spectator link end it at once, with no deal at the table in between; the other streams
go on. Through Django's AsyncClient, as test_events.py; transactional.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import AsyncClient, Client
from django.urls import reverse

from prefscore.clubs.models import Membership, Role
from prefscore.games import events as pulka_events
from prefscore.games import joining, listeners
from prefscore.games.models import Pulka
from prefscore.games.services import record_deal
from tests.web.fixtures_table import TABLE_PASSWORD, legal_deals
from tests.web.test_events import WAIT, events_url, next_message, run, signed_in

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Anna", "Boris", "Vera")
GONE = "event: gone\ndata: \n\n"


async def opened(client: AsyncClient, url: str) -> AsyncIterator[bytes]:
    response = await client.get(url)
    assert response.status_code == 200
    body = aiter(response.streaming_content)
    assert "event: version" in await next_message(body)
    # Not a change made before the feed hears changes (on PostgreSQL, its LISTEN), which
    # every stream reads again then anyway: the change under test comes after.
    await asyncio.wait_for(pulka_events.hub().hearing.wait(), WAIT)
    return body


def session_client(client: AsyncClient) -> Client:
    """A plain client holding the same session as ``client`` (the same phone's pages)."""
    same = Client()
    same.cookies["sessionid"] = client.cookies["sessionid"].value
    return same


async def ends_at_once(pulka: Pulka, user: Any, change: Callable[[AsyncClient], Any]) -> str:
    """The message the user's stream hears after ``change`` (and no deal)."""
    client = await signed_in(user)
    body = await opened(client, events_url(pulka))
    await sync_to_async(change)(client)
    return await next_message(body)


def test_signing_out_ends_the_stream_of_that_session_at_once(make_table_pulka, table_world):
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    boris = table_world.users["boris"]

    async def scenario() -> tuple[str, str]:
        other_phone = await opened(await signed_in(boris), events_url(pulka))
        heard = await ends_at_once(
            pulka, boris, lambda client: session_client(client).post(reverse("logout"))
        )
        deal = legal_deals(NAMES, 2)[1]
        await sync_to_async(record_deal)(pulka.pk, deal, table_world.users["anna"], 2)
        return heard, await next_message(other_phone)

    heard, other = run(scenario)

    assert heard == GONE
    assert other == f"event: version\ndata: {pulka.version + 1}\n\n"  # his other session


def test_a_password_changed_elsewhere_ends_the_stream_at_once(make_table_pulka, table_world):
    pulka = make_table_pulka()
    boris = table_world.users["boris"]

    def change_password(_client: AsyncClient) -> None:
        elsewhere = Client()
        elsewhere.force_login(boris)
        data = {
            "old_password": TABLE_PASSWORD,
            "new_password1": "a-new-seven-of-spades",
            "new_password2": "a-new-seven-of-spades",
        }
        assert elsewhere.post(reverse("password_change"), data).status_code == 302

    assert run(lambda: ends_at_once(pulka, boris, change_password)) == GONE


def test_a_deactivated_account_hears_gone_at_once(make_table_pulka, table_world):
    pulka = make_table_pulka()
    boris = table_world.users["boris"]

    def deactivate(_client: AsyncClient) -> None:
        account = get_user_model().objects.get(pk=boris.pk)
        account.is_active = False
        account.save()  # as the admin does

    assert run(lambda: ends_at_once(pulka, boris, deactivate)) == GONE


def test_a_member_removed_hears_gone_at_once(make_table_pulka, table_world):
    pulka = make_table_pulka()
    boris = table_world.users["boris"]

    def remove(_client: AsyncClient) -> None:
        Membership.objects.filter(user=boris).delete()

    assert run(lambda: ends_at_once(pulka, boris, remove)) == GONE


def test_a_revoked_spectator_link_ends_its_stream_at_once(make_table_pulka, table_world):
    pulka = make_table_pulka()
    anna = table_world.users["anna"]
    token = joining.spectator_token(joining.open_spectator_link(pulka, anna))

    async def scenario() -> str:
        body = await opened(AsyncClient(), reverse("games:watch_events", args=[token]))
        await sync_to_async(joining.revoke_spectator_link)(pulka, anna)
        return await next_message(body)

    assert run(scenario) == GONE


def test_spectators_switched_off_for_the_club_end_its_streams_at_once(
    make_table_pulka, table_world
):
    pulka = make_table_pulka()
    token = joining.spectator_token(joining.open_spectator_link(pulka, table_world.users["anna"]))

    async def scenario() -> str:
        body = await opened(AsyncClient(), reverse("games:watch_events", args=[token]))
        club = table_world.club
        club.allow_spectators = False
        await sync_to_async(club.save)(update_fields=["allow_spectators"])
        return await next_message(body)

    assert run(scenario) == GONE


def test_a_spectator_link_opened_while_signed_in_outlives_the_session(
    make_table_pulka, table_world
):
    """A link asks for no account: signing out leaves its stream be."""
    pulka = make_table_pulka(deals=legal_deals(NAMES, 1))
    anna = table_world.users["anna"]
    token = joining.spectator_token(joining.open_spectator_link(pulka, anna))

    async def scenario() -> str:
        client = await signed_in(table_world.users["boris"])
        body = await opened(client, reverse("games:watch_events", args=[token]))
        await sync_to_async(session_client(client).post)(reverse("logout"))
        deal = legal_deals(NAMES, 2)[1]
        await sync_to_async(record_deal)(pulka.pk, deal, anna, 2)
        return await next_message(body)

    assert run(scenario) == f"event: version\ndata: {pulka.version + 1}\n\n"


def test_the_listener_is_read_from_the_session_and_cut_to_a_network(rf):
    assert listeners.network_of("192.0.2.7") == "192.0.2.7"
    assert listeners.network_of("2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert listeners.network_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert listeners.network_of(None) is None


async def _wait_for_gone(body: AsyncIterator[bytes]) -> str:
    return await asyncio.wait_for(next_message(body), WAIT)


def test_an_organiser_demoted_loses_the_room_stream_at_once(tournament_world, cup):
    from tests.web.fixtures_tournaments import url

    organiser = tournament_world.users["organiser"]

    async def scenario() -> str:
        body = await opened(await signed_in(organiser), url("room_events", cup))
        membership = await Membership.objects.aget(user=organiser, club=cup.club)
        membership.role = Role.MEMBER
        await sync_to_async(membership.save)()  # as the members page does
        return await _wait_for_gone(body)

    assert run(scenario) == GONE
