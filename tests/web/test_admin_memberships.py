"""A membership added in the Django admin makes the member one of the club's players."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from prefscore.clubs.models import Club, Membership, Player

pytestmark = pytest.mark.django_db


def test_a_membership_added_in_the_admin_gives_the_member_a_player(admin_client):
    club = Club.objects.create(name="Tuesday", slug="tuesday")
    user = get_user_model().objects.create_user("zoya", password="pw-admin-tests-9753")

    response = admin_client.post(
        reverse("admin:clubs_membership_add"),
        {"club": club.pk, "user": user.pk, "role": "member"},
    )

    assert response.status_code == 302
    assert Membership.objects.filter(club=club, user=user).exists()
    assert Player.objects.filter(club=club, user=user).count() == 1
