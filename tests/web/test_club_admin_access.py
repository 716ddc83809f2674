"""A club admin reaches the Django admin for his conventions without a manual step."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.urls import reverse

from prefscore.clubs.models import Club, Membership, Role

pytestmark = pytest.mark.django_db


def test_a_new_clubs_creator_may_edit_conventions_in_the_admin(client):
    user = get_user_model().objects.create_user("founder", password="pw-founder-1234")
    client.force_login(user)

    client.post(reverse("clubs:create"), {"name": "Thursday", "slug": ""})

    user.refresh_from_db()
    assert Membership.objects.get(user=user).role == Role.ADMIN
    assert user.is_staff and user.has_perm("scoring.change_convention")
    assert client.get(reverse("admin:scoring_convention_changelist")).status_code == 200


def test_the_admin_closes_when_the_last_admin_role_goes():
    user = get_user_model().objects.create_user("olga")
    first, second = Club.objects.create(name="A", slug="a"), Club.objects.create(name="B", slug="b")
    Membership.objects.create(club=first, user=user, role=Role.ADMIN)
    admin_b = Membership.objects.create(club=second, user=user, role=Role.ADMIN)

    Membership.objects.filter(pk=admin_b.pk).delete()
    user.refresh_from_db()
    assert user.is_staff  # still an admin of club A

    only = Membership.objects.get(club=first, user=user)
    only.role = Role.MEMBER
    only.save()
    user = get_user_model().objects.get(pk=user.pk)
    assert not user.is_staff and not user.has_perm("scoring.change_convention")


def test_a_superuser_keeps_staff_status_when_a_club_role_goes():
    root = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-1234")
    club = Club.objects.create(name="A", slug="a")
    membership = Membership.objects.create(club=club, user=root, role=Role.ADMIN)
    membership.delete()
    root.refresh_from_db()
    assert root.is_staff


def test_deleting_a_club_admins_account_is_not_stopped_by_the_grant():
    user = get_user_model().objects.create_user("gone")
    Membership.objects.create(
        club=Club.objects.create(name="A", slug="a"), user=user, role=Role.ADMIN
    )
    user.delete()
    assert not get_user_model().objects.filter(username="gone").exists()


def test_staff_made_by_hand_keeps_the_admin_when_he_joins_a_club_as_a_member():
    editor = get_user_model().objects.create_user("editor", is_staff=True)
    editor.groups.add(Group.objects.create(name="Editors"))

    Membership.objects.create(club=Club.objects.create(name="A", slug="a"), user=editor)

    editor.refresh_from_db()
    assert editor.is_staff


def test_a_member_who_never_was_an_admin_joins_in_one_query_of_the_grant(
    django_assert_num_queries,
):
    user = get_user_model().objects.create_user("plain")
    club = Club.objects.create(name="A", slug="a")

    # The membership's insert, the check that he holds no club-admin group, and the
    # event stream's announcement of the change (none on SQLite, one on PostgreSQL).
    with django_assert_num_queries(3 if connection.vendor == "postgresql" else 2):
        Membership.objects.create(club=club, user=user, role=Role.MEMBER)
