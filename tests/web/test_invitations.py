"""Joining a club by an invitation link (prefscore/clubs/member_views.py, invitations.py)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from prefscore.clubs import invitations
from prefscore.clubs.models import Invitation, Membership, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user("newcomer", password="pw-for-tests-1234")


def link(invitation: Invitation) -> str:
    return reverse("members:invitation", args=[invitation.token])


def organiser_invitation(world) -> Invitation:
    return invitations.create_invitation(world.club, world.users["admin"], Role.ORGANISER)


# --- creating ---


def test_an_admin_creates_a_link_valid_for_seven_days(access_world, client_as):
    client = client_as("admin")

    response = client.post(
        reverse("members:invite", args=["home"]), {"role": "organiser", "days": 7}
    )

    assert response.status_code == 302
    created = Invitation.objects.exclude(pk=access_world.invitation.pk).get()
    assert created.role == Role.ORGANISER
    assert created.created_by == access_world.users["admin"]
    assert created.used_at is None
    remaining = created.expires_at - timezone.now()
    assert timedelta(days=6, hours=23) < remaining <= timedelta(days=7)
    assert len(created.token) >= 40
    page = client.get(reverse("members:list", args=["home"])).content.decode()
    assert "http://testserver" + link(created) in page


def test_an_htmx_invitation_answers_with_the_invitations_region(access_world, client_as):
    response = client_as("admin").post(
        reverse("members:invite", args=["home"]),
        {"role": "member", "days": 3},
        headers={"hx-request": "true"},
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="invitations" id="invitations"')
    assert "<html" not in html
    assert html.count("/invitations/") >= 2  # the old link and the new one


def test_an_invitation_with_a_bad_role_or_days_is_refused(access_world, client_as):
    client = client_as("admin")
    for data in ({"role": "king", "days": 7}, {"role": "member", "days": 0}, {"role": "member"}):
        response = client.post(reverse("members:invite", args=["home"]), data, follow=True)
        assert response.status_code == 200
        assert "messages__item--error" in response.content.decode()
    assert Invitation.objects.count() == 1


@pytest.mark.parametrize("role", ["member", "organiser", "outsider"])
def test_only_an_admin_may_invite(access_world, client_as, role):
    response = client_as(role).post(
        reverse("members:invite", args=["home"]), {"role": "admin", "days": 7}
    )

    assert response.status_code == 403
    assert Invitation.objects.count() == 1


def test_an_admin_withdraws_an_unused_link(access_world, client_as):
    response = client_as("admin").post(
        reverse("members:revoke", args=["home", access_world.invitation.pk])
    )

    assert response.status_code == 302
    assert not Invitation.objects.exists()


def test_a_used_link_cannot_be_withdrawn(access_world, client_as, newcomer):
    invitations.accept(access_world.invitation, newcomer)

    response = client_as("admin").post(
        reverse("members:revoke", args=["home", access_world.invitation.pk]), follow=True
    )

    assert "messages__item--error" in response.content.decode()
    assert Invitation.objects.filter(pk=access_world.invitation.pk).exists()


def test_an_admin_cannot_withdraw_another_clubs_link(access_world, client_as):
    theirs = invitations.create_invitation(
        access_world.other_club, access_world.users["outsider"], Role.MEMBER
    )

    response = client_as("admin").post(reverse("members:revoke", args=["home", theirs.pk]))

    assert response.status_code == 404
    assert Invitation.objects.filter(pk=theirs.pk).exists()


# --- opening and accepting ---


def test_the_link_shows_a_visitor_the_club_and_asks_him_to_sign_up_or_in(access_world):
    response = Client().get(link(access_world.invitation))

    assert response.status_code == 200
    html = response.content.decode()
    assert "Home club" in html
    assert reverse("signup") + "?next=" + link(access_world.invitation) in html
    assert reverse("login") + "?next=" + link(access_world.invitation) in html


def test_a_newcomer_signs_up_from_the_link_and_joins_with_its_role(access_world):
    invitation = organiser_invitation(access_world)
    client = Client()

    signed_up = client.post(
        reverse("signup"),
        {
            "username": "zhenya",
            "email": "zhenya@example.com",
            "password1": "grand-slam-in-no-trumps",
            "password2": "grand-slam-in-no-trumps",
            "next": link(invitation),
        },
    )
    assert signed_up["Location"] == link(invitation)
    page = client.get(link(invitation))
    assert "Accept" in page.content.decode() or "Принять" in page.content.decode()
    accepted = client.post(link(invitation))

    assert accepted.status_code == 302
    assert accepted["Location"] == reverse("members:list", args=["home"])
    zhenya = get_user_model().objects.get(username="zhenya")
    assert Membership.objects.get(club=access_world.club, user=zhenya).role == Role.ORGANISER
    invitation.refresh_from_db()
    assert invitation.used_by == zhenya and invitation.used_at is not None
    assert client.get(reverse("members:list", args=["home"])).status_code == 200


def test_an_existing_player_signs_in_from_the_link_and_joins(access_world, newcomer):
    client = Client()
    signed_in = client.post(
        reverse("login"),
        {
            "username": "newcomer",
            "password": "pw-for-tests-1234",
            "next": link(access_world.invitation),
        },
    )
    assert signed_in["Location"] == link(access_world.invitation)

    client.post(link(access_world.invitation))

    assert Membership.objects.get(club=access_world.club, user=newcomer).role == Role.MEMBER


def test_accepting_without_signing_in_leads_to_the_sign_in_page(access_world):
    response = Client().post(link(access_world.invitation))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    access_world.invitation.refresh_from_db()
    assert access_world.invitation.used_at is None


def test_a_link_works_only_once(access_world, newcomer, django_user_model):
    client = Client()
    client.force_login(newcomer)
    client.post(link(access_world.invitation))
    second = django_user_model.objects.create_user("second", password="pw-for-tests-1234")
    other = Client()
    other.force_login(second)

    opened = other.get(link(access_world.invitation))
    accepted = other.post(link(access_world.invitation))

    assert opened.status_code == 410
    assert accepted.status_code == 410
    assert "already been used" in opened.content.decode() or "уже" in opened.content.decode()
    assert not Membership.objects.filter(user=second).exists()


def test_an_expired_link_answers_410_with_a_message(access_world, newcomer):
    Invitation.objects.filter(pk=access_world.invitation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    client = Client()
    client.force_login(newcomer)

    for response in (
        client.get(link(access_world.invitation)),
        client.post(link(access_world.invitation)),
    ):
        assert response.status_code == 410
        assert 'role="alert"' in response.content.decode()
    assert not Membership.objects.filter(user=newcomer).exists()


@pytest.mark.parametrize("token", ["no-such-token", "x" * 300, "%3Cscript%3E"])
def test_an_unknown_link_answers_404_with_a_message(access_world, token):
    response = Client().get(f"/invitations/{token}/")

    assert response.status_code == 404
    assert 'role="alert"' in response.content.decode()
    assert "<script>" not in response.content.decode()


def test_a_member_opening_a_link_is_told_he_is_in_and_the_link_stays_unused(
    access_world, client_as
):
    client = client_as("member")

    page = client.get(link(access_world.invitation))
    response = client.post(link(access_world.invitation), follow=True)

    assert page.status_code == 200
    assert reverse("clubs:club", args=["home"]) in page.content.decode()
    assert response.status_code == 200
    assert access_world.memberships["member"].role == Role.MEMBER
    access_world.invitation.refresh_from_db()
    assert access_world.invitation.used_at is None


def test_two_acceptances_of_one_link_make_one_member(access_world, newcomer, django_user_model):
    """The second device still holds the page from before the first accepted."""
    second = django_user_model.objects.create_user("second", password="pw-for-tests-1234")
    stale = Invitation.objects.get(pk=access_world.invitation.pk)
    invitations.accept(access_world.invitation, newcomer)

    with pytest.raises(invitations.InvitationGone):
        invitations.accept(stale, second)

    assert not Membership.objects.filter(user=second).exists()


def test_the_invitation_page_answers_405_to_other_methods(access_world):
    assert Client().put(link(access_world.invitation)).status_code == 405


def test_accepting_needs_the_csrf_token(access_world, newcomer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(newcomer)

    response = client.post(link(access_world.invitation))

    assert response.status_code == 403
    assert not Membership.objects.filter(user=newcomer).exists()


def test_the_invitation_page_is_the_same_for_htmx(access_world):
    response = Client().get(link(access_world.invitation), headers={"hx-request": "true"})

    assert response.status_code == 200
