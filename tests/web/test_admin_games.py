"""The Django admin for clubs and pulkas: pulkas are archived, deals never deleted."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from prefscore.clubs.models import Club, Membership, Player
from prefscore.games.models import Deal, Pulka
from tests.web.fixtures_club import club_pulka, three_deals

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_admin(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.com"))
    return client


@pytest.fixture
def played(club_world) -> Pulka:
    names = ["olga", "ivan", "Guest Gena"]
    return club_pulka(club_world.club, names, three_deals(names), title="Admin's view")


def test_clubs_players_memberships_pulkas_and_deals_are_in_the_admin():
    for model in (Club, Player, Membership, Pulka, Deal):
        assert admin.site.is_registered(model), model


def test_a_club_is_edited_with_its_members_and_players_inline(site_admin, club_world):
    html = site_admin.get(reverse("admin:clubs_club_change", args=[club_world.club.pk])).content

    assert b"memberships-TOTAL_FORMS" in html and b"players-TOTAL_FORMS" in html
    assert b"Guest Gena" in html


@pytest.mark.parametrize(
    "name", ["clubs_club", "clubs_player", "clubs_membership", "games_pulka", "games_deal"]
)
def test_every_admin_list_opens(site_admin, played, name):
    assert site_admin.get(reverse(f"admin:{name}_changelist")).status_code == 200


def test_the_pulka_list_filters_by_club_and_status_and_searches(site_admin, club_world, played):
    other = club_pulka(club_world.other_club, ("x", "y", "z"), title="Elsewhere game")
    url = reverse("admin:games_pulka_changelist")

    by_club = site_admin.get(url, {"club__id__exact": club_world.club.pk})
    by_status = site_admin.get(url, {"status__exact": "finished"})
    by_player = site_admin.get(url, {"q": "Gena"})

    assert list(by_club.context["cl"].result_list) == [played]
    assert list(by_status.context["cl"].result_list) == []
    assert list(by_player.context["cl"].result_list) == [played]
    assert other not in by_player.context["cl"].result_list


def test_a_pulkas_snapshot_is_read_only_in_the_admin(site_admin, played):
    url = reverse("admin:games_pulka_change", args=[played.pk])
    response = site_admin.get(url)

    form_fields = response.context["adminform"].form.fields
    assert list(form_fields) == ["title"]
    site_admin.post(
        url,
        {
            "title": "Renamed",
            "target": 999,
            "player_names": '["x"]',
            "seats-TOTAL_FORMS": 3,
            "seats-INITIAL_FORMS": 3,
        },
    )
    played.refresh_from_db()
    assert played.target == 10 and played.player_names == ["olga", "ivan", "Guest Gena"]


def test_a_pulka_cannot_be_deleted_or_added_in_the_admin(site_admin, played):
    delete = site_admin.get(reverse("admin:games_pulka_delete", args=[played.pk]))
    add = site_admin.get(reverse("admin:games_pulka_add"))

    assert delete.status_code == 403 and add.status_code == 403
    actions = site_admin.get(reverse("admin:games_pulka_changelist")).context["action_form"]
    assert [name for name, _ in actions.fields["action"].choices if name] == ["archive"]


def test_the_archive_action_archives_and_bumps_the_version(site_admin, played):
    played.refresh_from_db()
    version = played.version

    response = site_admin.post(
        reverse("admin:games_pulka_changelist"),
        {"action": "archive", "_selected_action": [played.pk]},
        follow=True,
    )

    played.refresh_from_db()
    assert played.status == Pulka.Status.ARCHIVED
    assert played.version == version + 1
    assert "1" in str(list(response.context["messages"])[0])
    assert played.deals.count() == 3


def test_deals_are_read_only_and_never_deleted_in_the_admin(site_admin, played):
    deal = played.deals.first()

    change = site_admin.get(reverse("admin:games_deal_change", args=[deal.pk]))
    delete = site_admin.get(reverse("admin:games_deal_delete", args=[deal.pk]))
    post = site_admin.post(reverse("admin:games_deal_change", args=[deal.pk]), {"number": 9})

    assert change.status_code == 200 and not change.context["has_change_permission"]
    assert delete.status_code == 403
    assert post.status_code == 403
    assert site_admin.get(reverse("admin:games_deal_add")).status_code == 403
    deal.refresh_from_db()
    assert deal.number == 1


def test_the_deal_list_takes_as_many_queries_for_many_deals(
    site_admin, club_world, django_assert_max_num_queries
):
    names = ["olga", "ivan", "Guest Gena"]
    club_pulka(club_world.club, names, three_deals(names))
    url = reverse("admin:games_deal_changelist")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as few:
        site_admin.get(url)
    for _ in range(5):
        club_pulka(club_world.club, names, three_deals(names))
    with django_assert_max_num_queries(len(few)):
        site_admin.get(url)


def test_a_club_member_who_is_not_staff_cannot_open_the_admin(club_world, club_client):
    response = club_client("ivan").get(reverse("admin:games_pulka_changelist"))

    assert response.status_code == 302
