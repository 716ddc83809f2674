"""The peers' options of the defence and of help (docs/rules.md §3.9) in the admin: saved,
and refused next to their own field when the other options leave them no meaning."""

from __future__ import annotations

import pytest

from scoring.models import Convention
from tests.web.fixtures_conventions import ADD, assert_refused_beside, form_errors, new_data

pytestmark = pytest.mark.django_db


def test_a_club_admin_saves_the_new_options(conventions_client, conventions_world):
    data = new_data(
        conventions_world,
        whist_style="gentleman",
        gentleman_on_made=True,
        personal_quota=True,
        joint_liability="second_own",
        ten="checked",
        checked_ten_consolation="none",
        help_writeoff="pulya_rate",
        help_writeoff_stops_at_zero=True,
        pulya_to_gora=2,
    )

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 302, form_errors(response)
    conv = Convention.objects.get(slug="thursday").to_engine()
    assert conv.gentleman_on_made and conv.personal_quota
    assert (conv.joint_liability, conv.checked_ten_consolation) == ("second_own", "none")
    assert (conv.help_writeoff, conv.help_writeoff_stops_at_zero) == ("pulya_rate", True)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"whist_style": "greedy", "gentleman_on_made": True},
            "gentleman_on_made",
            "only to gentleman whist",
        ),
        (
            {"help": False, "help_writeoff": "pulya_rate"},
            "help_writeoff",
            "write off one gora point per pulya point",
        ),
        (
            {"help": False, "help_writeoff_stops_at_zero": True},
            "help_writeoff_stops_at_zero",
            "only with help",
        ),
        ({"checked_ten_consolation": "dealer"}, "checked_ten_consolation", "Select a valid"),
    ],
)
def test_each_objection_appears_next_to_its_field_and_nothing_is_saved(
    conventions_client, conventions_world, changes, field, message
):
    data = new_data(conventions_world, **changes)

    assert_refused_beside(conventions_client("ada"), data, field, message)


def test_the_objection_is_in_russian_for_a_russian_reader(conventions_client, conventions_world):
    data = new_data(conventions_world, whist_style="greedy", gentleman_on_made=True)

    response = conventions_client("ada").post(ADD, data, headers={"accept-language": "ru"})

    errors = form_errors(response)["gentleman_on_made"]
    assert any("джентльменском" in text for text in errors), errors
