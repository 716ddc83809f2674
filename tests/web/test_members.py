"""A club's members page: who is in, with what role; admins change roles and remove."""

import pytest
from django.test import Client
from django.urls import reverse

from prefscore.clubs import invitations
from prefscore.clubs.models import Membership, Role
from prefscore.clubs.permissions import ADMINS, MEMBERS, ORGANISERS, at_least, require_role

pytestmark = pytest.mark.django_db

PAGE = reverse("members:list", args=["home"])


def role_url(world, role):
    return reverse("members:role", args=["home", world.memberships[role].pk])


def remove_url(world, role):
    return reverse("members:remove", args=["home", world.memberships[role].pk])


def role_of(world, role):
    return Membership.objects.get(pk=world.memberships[role].pk).role


# --- the roles themselves ---


def test_each_role_includes_the_rights_of_the_roles_below():
    assert MEMBERS == ("member", "organiser", "admin")
    assert ORGANISERS == ("organiser", "admin")
    assert ADMINS == ("admin",)
    assert at_least("organiser") == ORGANISERS


def test_require_role_refuses_outsiders_and_roles_too_low(access_world):
    from django.core.exceptions import PermissionDenied

    club, users = access_world.club, access_world.users
    assert require_role(club, users["admin"], *ADMINS) == "admin"
    assert require_role(club, users["member"]) == "member"
    for user, roles in ((users["outsider"], ()), (users["member"], ORGANISERS)):
        with pytest.raises(PermissionDenied):
            require_role(club, user, *roles)
    with pytest.raises(PermissionDenied):
        require_role(club, users["superuser"])


# --- the page ---


def test_a_member_sees_everyone_with_their_role_and_no_controls(access_world, client_as):
    response = client_as("member").get(PAGE)

    assert response.status_code == 200
    html = response.content.decode()
    for name in ("member", "organiser", "admin"):
        assert f'id="member-{access_world.memberships[name].pk}"' in html
    assert 'name="role"' not in html
    assert 'id="invitations"' not in html
    assert access_world.invitation.token not in html


def test_an_admin_sees_role_controls_and_the_invitation_links(access_world, client_as):
    html = client_as("admin").get(PAGE).content.decode()

    assert html.count('name="role"') >= 3
    assert role_url(access_world, "member") in html
    assert remove_url(access_world, "member") in html
    assert access_world.invitation.token in html
    assert 'id="invitations"' in html


def test_the_members_page_lists_admins_first(access_world, client_as):
    html = client_as("member").get(PAGE).content.decode()

    positions = [
        html.index(f'id="member-{access_world.memberships[r].pk}"')
        for r in ("admin", "organiser", "member")
    ]
    assert positions == sorted(positions)


def test_the_members_page_answers_405_to_a_post(access_world, client_as):
    assert client_as("admin").post(PAGE).status_code == 405


def test_the_members_page_of_an_unknown_club_is_404(access_world, client_as):
    assert client_as("admin").get(reverse("members:list", args=["nope"])).status_code == 404


def test_the_members_page_query_count_does_not_grow_with_members(
    access_world, client_as, django_assert_max_num_queries, django_user_model
):
    client = client_as("admin")
    with django_assert_max_num_queries(12) as few:
        client.get(PAGE)
    for i in range(30):
        user = django_user_model.objects.create_user(f"extra{i}")
        Membership.objects.create(club=access_world.club, user=user)
        invitations.create_invitation(access_world.club, access_world.users["admin"], Role.MEMBER)

    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(PAGE)


# --- changing roles ---


def test_an_admin_makes_a_member_organiser(access_world, client_as):
    response = client_as("admin").post(role_url(access_world, "member"), {"role": "organiser"})

    assert response.status_code == 302
    assert response["Location"] == PAGE
    assert role_of(access_world, "member") == Role.ORGANISER


def test_an_htmx_role_change_answers_with_the_members_region_and_a_message(access_world, client_as):
    response = client_as("admin").post(
        role_url(access_world, "member"), {"role": "admin"}, headers={"hx-request": "true"}
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section class="members" id="members"')
    assert "messages__item--success" in html
    assert role_of(access_world, "member") == Role.ADMIN


def test_an_unknown_role_is_refused_with_a_message(access_world, client_as):
    response = client_as("admin").post(
        role_url(access_world, "member"), {"role": "emperor"}, follow=True
    )

    assert "messages__item--error" in response.content.decode()
    assert role_of(access_world, "member") == Role.MEMBER


@pytest.mark.parametrize("role", ["member", "organiser", "outsider"])
def test_only_an_admin_changes_roles(access_world, client_as, role):
    response = client_as(role).post(role_url(access_world, "member"), {"role": "admin"})

    assert response.status_code == 403
    assert role_of(access_world, "member") == Role.MEMBER


def test_an_admin_cannot_change_a_role_in_another_club(access_world, client_as):
    theirs = Membership.objects.get(club=access_world.other_club)

    response = client_as("admin").post(
        reverse("members:role", args=["home", theirs.pk]), {"role": "member"}
    )

    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.role == Role.ADMIN


def test_the_last_admin_cannot_step_down(access_world, client_as):
    response = client_as("admin").post(role_url(access_world, "admin"), {"role": "member"})

    assert response.status_code == 302
    assert role_of(access_world, "admin") == Role.ADMIN
    page = client_as("admin").get(PAGE)
    assert "messages__item--error" not in page.content.decode()  # shown once, already


def test_the_last_admin_is_told_why_he_cannot_step_down(access_world, client_as):
    response = client_as("admin").post(
        role_url(access_world, "admin"), {"role": "member"}, headers={"hx-request": "true"}
    )

    assert "messages__item--error" in response.content.decode()
    assert role_of(access_world, "admin") == Role.ADMIN


def test_an_admin_steps_down_once_there_is_another_admin(access_world, client_as):
    client = client_as("admin")
    client.post(role_url(access_world, "organiser"), {"role": "admin"})

    response = client.post(role_url(access_world, "admin"), {"role": "member"})

    assert role_of(access_world, "admin") == Role.MEMBER
    assert response["Location"] == PAGE  # still a member: back to the page, without controls


def test_an_admin_stepping_down_by_htmx_is_sent_to_reload_the_page(access_world, client_as):
    client = client_as("admin")
    client.post(role_url(access_world, "organiser"), {"role": "admin"})

    response = client.post(
        role_url(access_world, "admin"), {"role": "member"}, headers={"hx-request": "true"}
    )

    assert response.status_code == 204
    assert response["HX-Redirect"] == PAGE


# --- removing ---


def test_an_admin_removes_a_member_and_his_pulkas_stay(access_world, client_as):
    deals = access_world.pulka.deals.count()

    response = client_as("admin").post(remove_url(access_world, "member"))

    assert response.status_code == 302
    assert not Membership.objects.filter(pk=access_world.memberships["member"].pk).exists()
    assert access_world.pulka.deals.count() == deals
    gone = Client()
    gone.force_login(access_world.users["member"])
    assert gone.get(reverse("members:list", args=["home"])).status_code == 403


def test_the_last_admin_cannot_be_removed(access_world, client_as):
    response = client_as("admin").post(remove_url(access_world, "admin"), follow=True)

    assert "messages__item--error" in response.content.decode()
    assert Membership.objects.filter(pk=access_world.memberships["admin"].pk).exists()


def test_an_admin_who_removes_himself_lands_on_the_home_page(access_world, client_as):
    client = client_as("admin")
    client.post(role_url(access_world, "organiser"), {"role": "admin"})

    response = client.post(remove_url(access_world, "admin"))

    assert response["Location"] == reverse("clubs:home")


@pytest.mark.parametrize("role", ["member", "organiser", "outsider"])
def test_only_an_admin_removes_members(access_world, client_as, role):
    response = client_as(role).post(remove_url(access_world, "member"))

    assert response.status_code == 403
    assert Membership.objects.filter(pk=access_world.memberships["member"].pk).exists()


def test_removing_needs_the_csrf_token(access_world, client_as):
    response = client_as("admin", enforce_csrf_checks=True).post(remove_url(access_world, "member"))

    assert response.status_code == 403
    assert Membership.objects.filter(pk=access_world.memberships["member"].pk).exists()


def test_the_role_and_remove_views_answer_405_to_a_get(access_world, client_as):
    client = client_as("admin")

    assert client.get(role_url(access_world, "member")).status_code == 405
    assert client.get(remove_url(access_world, "member")).status_code == 405


def test_two_admins_cannot_demote_each_other_into_no_admin(access_world):
    """Each demotion counts the admins as the database has them, not as the page did."""
    second = access_world.memberships["organiser"]
    invitations.change_role(second, Role.ADMIN)
    first = access_world.memberships["admin"]
    stale_second = Membership.objects.get(pk=second.pk)

    invitations.change_role(first, Role.MEMBER)
    with pytest.raises(invitations.LastAdmin):
        invitations.change_role(stale_second, Role.MEMBER)

    assert Membership.objects.filter(club=access_world.club, role=Role.ADMIN).count() == 1
