"""Conventions in the Django admin: duplicating, the pulkas using a convention (and
their snapshots), and the admin-site access of club admins."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from prefscore.clubs.admin_group import GROUP_NAME
from prefscore.games.models import Pulka
from scoring.engine.conventions import PRESET_NAMES, preset
from scoring.models import Convention
from tests.web.fixtures_conventions import (
    CHANGELIST,
    change_url,
    form_data,
    form_errors,
    pulka_under,
)

pytestmark = pytest.mark.django_db


# Duplicating


def duplicate(client: Any, *conventions: Convention) -> Any:
    return client.post(
        CHANGELIST,
        {"action": "duplicate", "index": "0", "_selected_action": [c.pk for c in conventions]},
    )


def test_a_club_admin_duplicates_a_preset_into_his_club(conventions_client, conventions_world):
    sochi = Convention.objects.get(slug="sochi")

    response = duplicate(conventions_client("ada"), sochi)

    copy = Convention.objects.get(slug="sochi-copy")
    assert response.status_code == 302
    assert response["Location"] == change_url(copy)
    assert copy.name == "Sochi (copy)"
    assert copy.owner == conventions_world.home
    assert not copy.is_preset
    assert copy.to_engine() == preset("sochi")


def test_duplicating_twice_gives_a_second_free_slug(conventions_client, conventions_world):
    sochi = Convention.objects.get(slug="sochi")
    client = conventions_client("ada")

    duplicate(client, sochi)
    duplicate(client, sochi)

    assert set(
        Convention.objects.filter(slug__startswith="sochi-copy").values_list("slug", flat=True)
    ) == {
        "sochi-copy",
        "sochi-copy-2",
    }


def test_the_copy_is_editable_by_the_club_admin(conventions_client, conventions_world):
    client = conventions_client("ada")
    duplicate(client, Convention.objects.get(slug="leningrad"))
    copy = Convention.objects.get(slug="leningrad-copy")

    response = client.post(change_url(copy), form_data(copy, help=True, name="Our Leningrad"))

    assert response.status_code == 302, form_errors(response)
    copy.refresh_from_db()
    assert copy.name == "Our Leningrad" and copy.help is True


def test_a_superuser_duplicate_keeps_the_source_owner(conventions_client, conventions_world):
    client = conventions_client("root")

    duplicate(client, Convention.objects.get(slug="rostov"), conventions_world.away_rules)

    assert Convention.objects.get(slug="rostov-copy").owner is None
    assert Convention.objects.get(slug="away-rules-copy").owner == conventions_world.away


def test_the_change_page_button_duplicates_the_convention_it_shows(
    conventions_client, conventions_world
):
    fspr = Convention.objects.get(slug="fspr")
    client = conventions_client("ada", csrf=True)
    page = client.get(change_url(fspr))
    token = (
        page.cookies["csrftoken"].value
        if "csrftoken" in page.cookies
        else client.cookies["csrftoken"].value
    )

    # What the button posts: the action and the one convention, without "index".
    response = client.post(
        CHANGELIST,
        {"action": "duplicate", "_selected_action": fspr.pk, "csrfmiddlewaretoken": token},
    )

    copy = Convention.objects.get(slug="fspr-copy")
    assert response["Location"] == change_url(copy)
    assert copy.owner == conventions_world.home


# Pulkas using a convention


def test_the_changelist_counts_the_pulkas_using_each_convention(
    conventions_client, conventions_world
):
    for _ in range(3):
        pulka_under(conventions_world.home_rules, conventions_world.home)

    response = conventions_client("ada").get(CHANGELIST)

    counts = {c.slug: c.pulka_count for c in response.context["cl"].result_list}
    assert counts["home-rules"] == 3
    assert counts["sochi"] == 0


def test_the_changelist_query_count_does_not_grow_with_conventions_or_pulkas(
    conventions_client, conventions_world, django_assert_max_num_queries
):
    client = conventions_client("ada")
    client.get(CHANGELIST)  # warm the session and the content types
    with django_assert_max_num_queries(20) as few:
        client.get(CHANGELIST)
    for number in range(15):
        convention = Convention.from_engine(
            preset("rostov"),
            name=f"Extra {number}",
            slug=f"extra-{number}",
            owner=conventions_world.home,
        )
        convention.save()
        pulka_under(convention, conventions_world.home)

    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(CHANGELIST)

    # The presets, the club's own and the 15 extra.
    assert response.context["cl"].result_count == len(PRESET_NAMES) + 1 + 15


def test_a_pulkas_snapshot_is_unchanged_when_its_convention_is_edited(
    conventions_client, conventions_world
):
    home = conventions_world.home_rules
    pulka = pulka_under(home, conventions_world.home)
    before = Pulka.objects.get(pk=pulka.pk).convention_options

    response = conventions_client("ada").post(
        change_url(home), form_data(home, whist_style="gentleman", price_6="3", help=False)
    )

    assert response.status_code == 302, form_errors(response)
    pulka.refresh_from_db()
    assert pulka.convention_options == before == preset("sochi").to_options()
    assert pulka.convention == preset("sochi")
    assert home.__class__.objects.get(pk=home.pk).to_engine().price(6) == 3


def test_a_snapshot_is_a_copy_not_a_shared_object(conventions_world):
    home = conventions_world.home_rules
    snapshot = home.snapshot()

    snapshot["consolation"].append("nobody")
    snapshot["prices"]["6"] = 99

    assert home.snapshot() == preset("sochi").to_options()


# Access for club admins


def test_grant_club_admins_gives_every_club_admin_the_admin(conventions_world):
    User = get_user_model()
    otto = User.objects.get(username="otto")
    otto.is_staff = False
    otto.save()
    otto.groups.clear()

    call_command("grant_club_admins", stdout=open("/dev/null", "w"))

    otto = User.objects.get(username="otto")
    assert otto.is_staff
    assert otto.groups.filter(name=GROUP_NAME).exists()
    assert otto.has_perm("scoring.change_convention")
    assert not User.objects.get(username="mila").is_staff


def test_grant_club_admins_refuses_an_unknown_club(conventions_world):
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="no-such-club"):
        call_command("grant_club_admins", club="no-such-club")
