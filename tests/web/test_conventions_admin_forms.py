"""Conventions in the Django admin: adding and editing, and every engine objection
appears next to its field."""

from __future__ import annotations

import re
from html import escape

import pytest

from scoring.models import Convention
from tests.web.fixtures_conventions import (
    ADD,
    change_url,
    form_data,
    form_errors,
    new_data,
)

pytestmark = pytest.mark.django_db


# Adding and editing


def test_a_club_admin_adds_a_convention_for_his_club(conventions_client, conventions_world):
    data = new_data(conventions_world, whist_style="gentleman", allpass_ladder="1, 2, 3")

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 302, form_errors(response)
    created = Convention.objects.get(slug="thursday")
    assert created.owner == conventions_world.home
    assert not created.is_preset
    assert created.to_engine().whist_style == "gentleman"
    assert created.allpass_ladder == [1, 2, 3]


def test_the_add_form_offers_a_club_admin_only_his_clubs(conventions_client, conventions_world):
    response = conventions_client("ada").get(ADD)

    owners = response.context["adminform"].form.fields["owner"].queryset
    assert list(owners) == [conventions_world.home]


def test_a_club_admin_cannot_file_a_convention_under_another_club(
    conventions_client, conventions_world
):
    data = new_data(conventions_world, owner=conventions_world.away.pk)

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 200
    assert "owner" in form_errors(response)
    assert not Convention.objects.filter(slug="thursday").exists()


def test_a_club_admin_must_name_his_club(conventions_client, conventions_world):
    response = conventions_client("ada").post(ADD, new_data(conventions_world, owner=""))

    assert "owner" in form_errors(response)


def test_a_superuser_adds_a_convention_for_every_club(conventions_client, conventions_world):
    response = conventions_client("root").post(ADD, new_data(conventions_world, owner=""))

    assert response.status_code == 302, form_errors(response)
    assert Convention.objects.get(slug="thursday").owner is None


def test_a_club_admin_edits_his_clubs_convention(conventions_client, conventions_world):
    home = conventions_world.home_rules
    data = form_data(home, help=False, end="sum_reached", pulya_to_gora=2, consolation=["passer"])

    response = conventions_client("ada").post(change_url(home), data)

    assert response.status_code == 302, form_errors(response)
    home.refresh_from_db()
    engine = home.to_engine()
    assert (engine.help, engine.end, engine.pulya_to_gora) == (False, "sum_reached", 2)
    assert engine.consolation == ("passer",)


def test_the_edit_form_shows_lists_as_people_type_them(conventions_client, conventions_world):
    away = conventions_world.away_rules

    html = conventions_client("otto").get(change_url(away)).content.decode()

    assert 'value="1, 2, 3"' in html  # allpass_ladder
    assert 'value="6, 7, 8"' in html  # exit_ladder


def test_the_form_groups_the_options_by_topic(conventions_client, conventions_world):
    response = conventions_client("ada").get(change_url(conventions_world.home_rules))

    titles = [fieldset.name for fieldset in response.context["adminform"]]
    assert [str(t) for t in titles[1:]] == [
        "Prices",
        "Whist",
        "All-pass",
        "Pulya and help",
        "Settlement",
    ]


def test_the_help_texts_give_the_russian_terms(conventions_client, conventions_world):
    html = conventions_client("ada").get(change_url(conventions_world.home_rules)).content.decode()

    assert "жлобский / джентльменский вист" in html
    assert "выход из распасов" in html


def test_the_admin_form_needs_the_csrf_token(conventions_client, conventions_world):
    home = conventions_world.home_rules

    response = conventions_client("ada", csrf=True).post(
        change_url(home), form_data(home, name="x")
    )

    assert response.status_code == 403
    home.refresh_from_db()
    assert home.name == "Home rules"


# Every objection, next to its field


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"help": False, "help_excludes_dealer": True}, "help_excludes_dealer", "only with help"),
        (
            {"help": False, "help_excludes_remized_whister": True},
            "help_excludes_remized_whister",
            "only with help",
        ),
        (
            {"allpass_scoring": "whists", "allpass_dealer_talon": False},
            "allpass_amnesty",
            "Amnesty applies only to all-pass in the gora",
        ),
        (
            {"allpass_scoring": "whists", "allpass_amnesty": False},
            "allpass_dealer_talon",
            "the talon is never opened",
        ),
        ({"allpass_ladder": "0, 1"}, "allpass_ladder", "from 1 to 1000"),
        ({"allpass_ladder": "1, two"}, "allpass_ladder", "whole numbers separated by commas"),
        ({"allpass_ladder": ""}, "allpass_ladder", "This field is required"),
        ({"allpass_ladder": ", ".join(["1"] * 21)}, "allpass_ladder", "one to twenty"),
        ({"exit_ladder": "6, 11"}, "exit_ladder", "from 6 to 10"),
        ({"exit_ladder": "5"}, "exit_ladder", "from 6 to 10"),
        ({"price_6": "0"}, "price_6", "A price must be a whole number from 1 to 1000"),
        ({"price_misere": "5000"}, "price_misere", "A price must be a whole number from 1 to 1000"),
        ({"whist_scale": "0"}, "whist_scale", "Enter a whole number from 1 to 100"),
        ({"gora_scale": "101"}, "gora_scale", "Enter a whole number from 1 to 100"),
        ({"allpass_whist_rate": "1001"}, "allpass_whist_rate", "from 0 to 1000"),
        ({"allpass_max_run": "0"}, "allpass_max_run", "from 1 to 100000"),
        ({"deal_limit": "0", "end": "deals"}, "deal_limit", "from 1 to 100000"),
        ({"price_7": "-4"}, "price_7", "greater than or equal to 0"),
        ({"slug": "compare"}, "slug", "taken by the site's own pages"),
        ({"slug": "home-rules"}, "slug", "already exists"),
    ],
)
def test_each_objection_appears_next_to_its_field_and_nothing_is_saved(
    conventions_client, conventions_world, changes, field, message
):
    data = new_data(conventions_world, **changes)

    response = conventions_client("ada").post(ADD, data)

    assert response.status_code == 200
    errors = form_errors(response)
    assert field in errors, errors
    assert any(message in text for text in errors[field]), errors[field]
    assert not Convention.objects.filter(slug=data["slug"], name="Thursday rules").exists()
    # The admin shows the message at the top of the field's own row.
    row = re.search(
        rf'field-{field}">\s*<ul class="errorlist" id="id_{field}_error">(.*?)</ul>',
        response.content.decode(),
        re.S,
    )
    assert row is not None and escape(message) in row.group(1)


def test_an_objection_is_in_russian_for_a_russian_reader(conventions_client, conventions_world):
    data = new_data(conventions_world, help=False, help_excludes_dealer=True)

    response = conventions_client("ada").post(ADD, data, headers={"accept-language": "ru"})

    errors = form_errors(response)["help_excludes_dealer"]
    assert any("только с помощью" in text.lower() for text in errors), errors


def test_an_edit_that_the_engine_refuses_changes_nothing(conventions_client, conventions_world):
    home = conventions_world.home_rules

    response = conventions_client("ada").post(
        change_url(home), form_data(home, allpass_scoring="whists", name="Renamed")
    )

    assert response.status_code == 200
    home.refresh_from_db()
    assert home.name == "Home rules" and home.allpass_scoring == "gora"
