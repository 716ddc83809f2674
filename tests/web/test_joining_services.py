"""A table's links and membership requests, as services (prefscore.games.joining,
prefscore.clubs.membership_requests)."""

import re
from datetime import timedelta

import pytest
import segno
from django.core.signing import Signer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from prefscore.clubs import membership_requests as requests
from prefscore.clubs.invitations import AlreadyMember
from prefscore.clubs.models import Club, Membership, MembershipRequest, Player
from prefscore.games import joining
from prefscore.games.models import TableLinks
from prefscore.games.seating import Seating

pytestmark = pytest.mark.django_db


# --- the links ---


def test_a_pulka_gets_a_random_join_code_of_128_bits_the_first_time(access_world):
    links = joining.links_of(access_world.pulka)

    assert len(links.join_code) == 22  # 16 bytes, base64
    assert joining.links_of(access_world.pulka).join_code == links.join_code
    assert TableLinks.objects.count() == 1
    assert links.spectator_code is None


def test_the_join_token_is_the_code_signed_and_names_no_pulka(access_world):
    pulka = access_world.pulka
    token = joining.join_token(joining.links_of(pulka))

    code, signature = token.split(":")
    assert code == joining.links_of(pulka).join_code
    assert len(signature) >= 40
    assert joining.pulka_for_join(token) == pulka


def test_a_join_code_without_its_signature_or_with_another_opens_nothing(access_world):
    links = joining.links_of(access_world.pulka)
    spectator = Signer(salt=joining.SPECTATOR_SALT).sign(links.join_code)

    for token in (links.join_code, links.join_code + ":forged", spectator, "", "x" * 500):
        assert joining.pulka_for_join(token) is None


def test_a_forged_signature_costs_no_query(access_world):
    joining.links_of(access_world.pulka)

    with CaptureQueriesContext(connection) as queries:
        assert joining.pulka_for_join("abc:def") is None
        assert joining.spectator_version("abc:def") is None

    assert len(queries) == 0


def test_rotating_the_join_code_kills_the_old_link_and_records_who(access_world):
    pulka, admin = access_world.pulka, access_world.users["admin"]
    old = joining.join_token(joining.links_of(pulka))

    links = joining.rotate_join_code(pulka, admin)

    assert joining.pulka_for_join(old) is None
    assert joining.pulka_for_join(joining.join_token(links)) == pulka
    assert links.join_changed_by == admin


def test_a_spectator_link_opens_rotates_and_is_revoked(access_world):
    pulka, member = access_world.pulka, access_world.users["member"]

    first = joining.spectator_token(joining.open_spectator_link(pulka, member))
    assert first is not None
    assert joining.pulka_for_spectator(first) == pulka
    pulka.refresh_from_db()
    assert joining.spectator_version(first) == pulka.version == 2

    second = joining.spectator_token(joining.open_spectator_link(pulka, member))
    assert joining.pulka_for_spectator(first) is None
    assert joining.pulka_for_spectator(second) == pulka

    links = joining.revoke_spectator_link(pulka, member)
    assert links.spectator_code is None
    assert joining.spectator_token(links) is None
    assert joining.pulka_for_spectator(second) is None
    assert joining.spectator_version(second) is None
    assert links.spectator_changed_by == member


def test_the_join_and_spectator_signatures_do_not_open_each_other(access_world):
    pulka = access_world.pulka
    links = joining.open_spectator_link(pulka, None)
    watch = joining.spectator_token(links)
    join = joining.join_token(links)

    assert joining.pulka_for_join(watch) is None
    assert joining.pulka_for_spectator(join) is None


def test_the_club_switch_stops_every_spectator_link_and_its_making(access_world):
    pulka = access_world.pulka
    token = joining.spectator_token(joining.open_spectator_link(pulka, None))

    requests.set_spectators(access_world.club, False)
    pulka.club.refresh_from_db()

    with pytest.raises(joining.SpectatorsOff):
        joining.pulka_for_spectator(token)
    assert joining.spectator_version(token) is None
    with pytest.raises(joining.SpectatorsOff):
        joining.open_spectator_link(pulka, None)

    requests.set_spectators(access_world.club, True)
    assert joining.pulka_for_spectator(token) == pulka


def test_admins_and_seated_players_manage_the_links_nobody_else(access_world):
    pulka, users = access_world.pulka, access_world.users
    Player.objects.filter(club=access_world.club, name="Anna").update(user=users["member"])
    seating = Seating.of(pulka)

    def may(role: str) -> bool:
        user = users[role]
        return joining.may_manage_links(pulka, user, pulka.club.role_of(user), seating)

    assert may("member") and may("admin")
    assert not may("organiser") and not may("outsider") and not may("superuser")


def test_the_qr_code_is_segnos_own_drawing_of_the_exact_url():
    url = "https://pref.example/join/abc:def/"

    svg = str(joining.qr_svg(url, "Code <of> the table"))

    expected = segno.make(url, error="m").svg_inline(
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr__code",
        lineclass=None,
        title="Code <of> the table",
    )
    assert svg == expected.replace("<svg ", '<svg role="img" ', 1)
    assert "<title>Code &lt;of&gt; the table</title>" in svg
    assert "style=" not in svg and "<script" not in svg
    # Read back, the drawing's dark modules are the QR matrix of exactly this URL.
    assert modules_drawn(svg) == dark_modules(url)
    assert modules_drawn(str(joining.qr_svg(url + "x", "Code"))) != dark_modules(url)


def dark_modules(url: str, border: int = 4) -> set[tuple[int, int]]:
    matrix = segno.make(url, error="m").matrix
    return {
        (x + border, y + border)
        for y, row in enumerate(matrix)
        for x, dark in enumerate(row)
        if dark
    }


def modules_drawn(svg: str) -> set[tuple[int, int]]:
    """The dark modules of segno's path ("M2 2.5h7m2 0h1…": moves, then runs along a row)."""
    path = re.search(r'<path[^>]*stroke="#000"[^>]*\sd="([^"]+)"', svg).group(1)
    x = y = 0.0
    drawn = set()
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            drawn |= {(int(x) + i, int(y)) for i in range(int(float(a)))}
            x += float(a)
    return drawn


# --- membership requests ---


def test_asking_twice_is_asking_once(access_world):
    club, outsider = access_world.club, access_world.users["outsider"]

    first = requests.ask(club, outsider)
    second = requests.ask(club, outsider)

    assert first.pk == second.pk
    assert MembershipRequest.objects.filter(club=club, user=outsider).count() == 1
    assert requests.pending_for(club) == [first]


def test_a_member_does_not_ask(access_world):
    with pytest.raises(AlreadyMember):
        requests.ask(access_world.club, access_world.users["member"])


def test_approving_makes_a_member_once_and_records_who(access_world):
    club, outsider, admin = (
        access_world.club,
        access_world.users["outsider"],
        access_world.users["admin"],
    )
    asked = requests.ask(club, outsider)

    membership = requests.approve(asked, admin)

    assert membership.role == "member" and membership.club == club
    # Every member is one of the club's players (accounts are seats).
    assert club.players.filter(user=outsider).count() == 1
    asked.refresh_from_db()
    assert (asked.status, asked.decided_by) == ("approved", admin)
    assert asked.decided_at is not None
    with pytest.raises(requests.AlreadyDecided):
        requests.approve(asked, admin)
    with pytest.raises(requests.AlreadyDecided):
        requests.decline(asked, admin)
    assert Membership.objects.filter(club=club, user=outsider).count() == 1


def test_a_declined_asker_waits_a_day_before_asking_again(access_world):
    club, outsider, admin = (
        access_world.club,
        access_world.users["outsider"],
        access_world.users["admin"],
    )
    requests.decline(requests.ask(club, outsider), admin)

    with pytest.raises(requests.RequestRefused):
        requests.ask(club, outsider)

    MembershipRequest.objects.update(decided_at=timezone.now() - timedelta(hours=25))
    assert requests.ask(club, outsider).status == "pending"


def test_nobody_asks_more_than_five_clubs_a_day(access_world, settings):
    outsider = access_world.users["outsider"]
    clubs = [Club.objects.create(name=f"Club {n}", slug=f"club-{n}") for n in range(6)]
    for club in clubs[:5]:
        requests.ask(club, outsider)

    with pytest.raises(requests.RequestRefused):
        requests.ask(clubs[5], outsider)
    # Asking again where he has asked already is no new request: still answered.
    assert requests.ask(clubs[0], outsider).status == "pending"


def test_a_club_holds_a_bounded_number_of_waiting_requests(
    access_world, settings, django_user_model
):
    settings.MEMBERSHIP_REQUESTS_PENDING_PER_CLUB = 2
    club = access_world.club
    for n in range(2):
        requests.ask(club, django_user_model.objects.create_user(f"asker{n}"))

    with pytest.raises(requests.RequestRefused):
        requests.ask(club, access_world.users["outsider"])


def test_the_database_keeps_one_pending_request_per_user_and_club(access_world):
    from django.db import IntegrityError, transaction

    club, outsider = access_world.club, access_world.users["outsider"]
    MembershipRequest.objects.create(club=club, user=outsider)
    with pytest.raises(IntegrityError), transaction.atomic():
        MembershipRequest.objects.create(club=club, user=outsider)
    # Decided requests stay beside a new pending one: they are the record.
    MembershipRequest.objects.update(status="declined")
    MembershipRequest.objects.create(club=club, user=outsider)
    assert MembershipRequest.objects.count() == 2
