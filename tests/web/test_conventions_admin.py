"""Conventions in the Django admin: the model covers the protocol, and who sees what.

Club admins see and edit their own club's conventions; presets stay read-only. Adding
and editing are in test_conventions_admin_forms.py, duplicating, the pulkas using a
convention and the club admins' access in test_conventions_admin_copies.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.engine.conventions import OPTION_NAMES, PRESET_NAMES, preset
from scoring.models import OPTION_FIELD_NAMES, PRICE_FIELDS, Convention
from tests.web.fixtures_conventions import (
    CHANGELIST,
    change_url,
    form_data,
    pulka_under,
)

pytestmark = pytest.mark.django_db


# The model covers the protocol


def test_the_model_has_a_field_for_every_option_of_the_protocol():
    covered = {name for name in OPTION_FIELD_NAMES if name not in PRICE_FIELDS.values()}

    assert covered | {"prices"} == set(OPTION_NAMES)
    assert len(PRICE_FIELDS) == 6


def test_a_convention_round_trips_through_the_engine_for_every_preset():
    for name in PRESET_NAMES:
        model = Convention.from_engine(preset(name), name=name, slug=name)

        assert model.to_engine() == preset(name)


# Who sees what


def test_a_superuser_sees_every_convention_in_the_changelist(conventions_client, conventions_world):
    response = conventions_client("root").get(CHANGELIST)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Home rules" in html and "Away rules" in html
    assert "/conventions/sochi/" not in html  # names link to the admin, not the site
    assert response.context["cl"].result_count == len(PRESET_NAMES) + 2


def test_a_club_admin_sees_the_presets_and_his_club_only(conventions_client, conventions_world):
    response = conventions_client("ada").get(CHANGELIST)

    shown = {c.slug for c in response.context["cl"].result_list}
    assert shown == {*PRESET_NAMES, "home-rules"}
    assert "Away rules" not in response.content.decode()


def test_the_owner_filter_offers_a_club_admin_only_his_own_club(
    conventions_client, conventions_world
):
    html = conventions_client("ada").get(CHANGELIST).content.decode()

    assert f"owner__id__exact={conventions_world.home.pk}" in html
    assert f"owner__id__exact={conventions_world.away.pk}" not in html


def test_a_club_admin_cannot_open_another_clubs_convention(conventions_client, conventions_world):
    response = conventions_client("ada").get(change_url(conventions_world.away_rules))

    # The admin treats an object outside get_queryset as missing: back to the index.
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:index")


def test_a_club_admin_cannot_change_another_clubs_convention(conventions_client, conventions_world):
    away = conventions_world.away_rules
    data = form_data(away, name="Taken over", owner=conventions_world.home.pk)

    response = conventions_client("ada").post(change_url(away), data)

    assert response.status_code == 302
    away.refresh_from_db()
    assert away.name == "Away rules" and away.owner == conventions_world.away


def test_a_club_member_without_staff_cannot_enter_the_admin(conventions_client, conventions_world):
    response = conventions_client("mila").get(CHANGELIST)

    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_a_preset_opens_read_only_with_its_options_in_words(conventions_client, conventions_world):
    sochi = Convention.objects.get(slug="sochi")

    response = conventions_client("ada").get(change_url(sochi))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="_save"' not in html
    assert 'name="whist_style"' not in html
    assert "the whisters, the passer, the dealer (4–5 players)" in html
    assert "Duplicate as a new convention" in html


@pytest.mark.parametrize("user", ["ada", "root"])
def test_nobody_can_change_a_preset(conventions_client, conventions_world, user):
    sochi = Convention.objects.get(slug="sochi")

    response = conventions_client(user).post(change_url(sochi), form_data(sochi, whist_scale=3))

    assert response.status_code == 403
    sochi.refresh_from_db()
    assert sochi.to_engine() == preset("sochi")


@pytest.mark.parametrize("user", ["ada", "root"])
def test_nobody_can_delete_a_preset(conventions_client, conventions_world, user):
    sochi = Convention.objects.get(slug="sochi")
    url = reverse("admin:scoring_convention_delete", args=[sochi.pk])

    response = conventions_client(user).post(url, {"post": "yes"})

    assert response.status_code == 403
    assert Convention.objects.filter(slug="sochi").exists()


def test_a_club_admin_deletes_his_clubs_unused_convention(conventions_client, conventions_world):
    url = reverse("admin:scoring_convention_delete", args=[conventions_world.home_rules.pk])

    response = conventions_client("ada").post(url, {"post": "yes"})

    assert response.status_code == 302
    assert not Convention.objects.filter(slug="home-rules").exists()


def test_a_convention_in_use_cannot_be_deleted(conventions_client, conventions_world):
    pulka_under(conventions_world.home_rules, conventions_world.home)
    url = reverse("admin:scoring_convention_delete", args=[conventions_world.home_rules.pk])

    response = conventions_client("ada").post(url, {"post": "yes"})

    assert Convention.objects.filter(slug="home-rules").exists()
    assert response.status_code in (200, 403)
