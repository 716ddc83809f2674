"""RS's two options in the admin (docs/rules.md §3.7 ``mountain_divisor``, §3.10.7
``half_whist_played``): saved, and refused next to their own field, in Russian too."""

from __future__ import annotations

import pytest

from scoring.models import Convention
from tests.web.fixtures_conventions import ADD, assert_refused_beside, form_errors, new_data

pytestmark = pytest.mark.django_db


def test_a_club_admin_saves_rss_options(conventions_client, conventions_world):
    data = new_data(conventions_world, mountain_divisor="others", half_whist_played=True)

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 302, form_errors(response)
    conv = Convention.objects.get(slug="thursday").to_engine()
    assert (conv.mountain_divisor, conv.half_whist_played) == ("others", True)


def test_the_defaults_keep_the_mean_mountain_and_the_unplayed_half_whist(
    conventions_client, conventions_world
):
    response = conventions_client("ada").post(ADD, new_data(conventions_world))

    assert response.status_code == 302, form_errors(response)
    conv = Convention.objects.get(slug="thursday").to_engine()
    assert (conv.mountain_divisor, conv.half_whist_played) == ("players", False)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"mountain_divisor": "owner"}, "mountain_divisor", "Select a valid"),
        (
            {"half_whist_played": True, "half_whist_levels": []},
            "half_whist_played",
            "played out only where one is allowed",
        ),
    ],
)
def test_each_objection_appears_next_to_its_field_and_nothing_is_saved(
    conventions_client, conventions_world, changes, field, message
):
    data = new_data(conventions_world, **changes)

    assert_refused_beside(conventions_client("ada"), data, field, message)


def test_the_objection_is_in_russian_for_a_russian_reader(conventions_client, conventions_world):
    data = new_data(conventions_world, half_whist_played=True, half_whist_levels=[])

    response = conventions_client("ada").post(ADD, data, headers={"accept-language": "ru"})

    errors = form_errors(response)["half_whist_played"]
    assert any("Разыграть полвиста можно" in text for text in errors), errors
