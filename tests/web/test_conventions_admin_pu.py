"""PU's three options in the admin (help_order, checked_ten_trick_whists,
allpass_zero_bonus_excludes_dealer): saved, and refused next to their own field when
the other options leave them no meaning, in Russian too."""

from __future__ import annotations

import pytest

from scoring.models import Convention
from tests.web.fixtures_conventions import ADD, assert_refused_beside, form_errors, new_data

pytestmark = pytest.mark.django_db


def test_a_club_admin_saves_pus_options(conventions_client, conventions_world):
    data = new_data(
        conventions_world,
        help_order="clockwise",
        ten="checked",
        checked_ten_trick_whists=True,
        allpass_zero_bonus_excludes_dealer=True,
    )

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 302, form_errors(response)
    conv = Convention.objects.get(slug="thursday").to_engine()
    assert conv.help_order == "clockwise"
    assert conv.checked_ten_trick_whists and conv.allpass_zero_bonus_excludes_dealer


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"help": False, "help_order": "clockwise"},
            "help_order",
            "give help to the largest pulya",
        ),
        ({"checked_ten_trick_whists": True}, "checked_ten_trick_whists", "only to a checked ten"),
        (
            {"allpass_zero_bonus_dealer": True, "allpass_zero_bonus_excludes_dealer": True},
            "allpass_zero_bonus_excludes_dealer",
            "untick one of them",
        ),
        ({"help_order": "anticlockwise"}, "help_order", "Select a valid"),
    ],
)
def test_each_objection_appears_next_to_its_field_and_nothing_is_saved(
    conventions_client, conventions_world, changes, field, message
):
    data = new_data(conventions_world, **changes)

    assert_refused_beside(conventions_client("ada"), data, field, message)


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"help": False, "help_order": "clockwise"}, "help_order", "самую большую пулю"),
        ({"checked_ten_trick_whists": True}, "checked_ten_trick_whists", "проверяемой десятерной"),
    ],
)
def test_the_objection_is_in_russian_for_a_russian_reader(
    conventions_client, conventions_world, changes, field, words
):
    data = new_data(conventions_world, **changes)

    response = conventions_client("ada").post(ADD, data, headers={"accept-language": "ru"})

    errors = form_errors(response)[field]
    assert any(words in text for text in errors), errors
