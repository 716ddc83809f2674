"""Conventions in the Django admin: club admins edit their own, presets stay read-only,
and every engine objection appears next to its field."""

from __future__ import annotations

import re
from html import escape
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from prefscore.clubs.admin_group import GROUP_NAME
from prefscore.games.models import Pulka
from scoring.engine.conventions import OPTION_NAMES, preset
from scoring.models import OPTION_FIELD_NAMES, PRICE_FIELDS, Convention
from tests.web.fixtures_conventions import pulka_under

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:scoring_convention_changelist")
ADD = reverse("admin:scoring_convention_add")
LIST_FIELDS = ("allpass_ladder", "exit_ladder")
MULTI_FIELDS = ("consolation", "half_whist_levels")


def change_url(convention: Convention) -> str:
    return reverse("admin:scoring_convention_change", args=[convention.pk])


def form_data(convention: Convention, **changes: Any) -> dict[str, Any]:
    """What the admin form posts for ``convention``, with ``changes`` applied.

    Booleans are posted as a ticked box or left out, lists as the admin's widgets
    send them; a change given as a string is posted as it is.
    """
    values: dict[str, Any] = {
        "name": convention.name,
        "slug": convention.slug,
        "owner": convention.owner_id or "",
        "description": convention.description,
        **{name: getattr(convention, name) for name in OPTION_FIELD_NAMES},
        **changes,
    }
    data: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is None:
            data[name] = ""
        elif name in LIST_FIELDS and isinstance(value, list):
            data[name] = ", ".join(str(v) for v in value)
        elif name in MULTI_FIELDS:
            data[name] = [str(v) for v in value]
        else:
            data[name] = str(value)
    return data


def new_data(world: Any, **changes: Any) -> dict[str, Any]:
    template = Convention.from_engine(
        preset("sochi"), name="Thursday rules", slug="thursday", owner=world.home
    )
    return form_data(template, **changes)


def form_errors(response: Any) -> dict[str, list[str]]:
    return {
        name: list(errors) for name, errors in response.context["adminform"].form.errors.items()
    }


# The model covers the protocol


def test_the_model_has_a_field_for_every_option_of_the_protocol():
    covered = {name for name in OPTION_FIELD_NAMES if name not in PRICE_FIELDS.values()}

    assert covered | {"prices"} == set(OPTION_NAMES)
    assert len(PRICE_FIELDS) == 6


def test_a_convention_round_trips_through_the_engine_for_every_preset():
    for name in ("sochi", "leningrad", "rostov", "fspr"):
        model = Convention.from_engine(preset(name), name=name, slug=name)

        assert model.to_engine() == preset(name)


# Who sees what


def test_a_superuser_sees_every_convention_in_the_changelist(conventions_client, conventions_world):
    response = conventions_client("root").get(CHANGELIST)

    html = response.content.decode()
    assert response.status_code == 200
    assert "Home rules" in html and "Away rules" in html
    assert "/conventions/sochi/" not in html  # names link to the admin, not the site
    assert response.context["cl"].result_count == 6


def test_a_club_admin_sees_the_presets_and_his_club_only(conventions_client, conventions_world):
    response = conventions_client("ada").get(CHANGELIST)

    shown = {c.slug for c in response.context["cl"].result_list}
    assert shown == {"sochi", "leningrad", "rostov", "fspr", "home-rules"}
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
        ({"deal_limit": "20"}, "deal_limit", "applies only to a pulka that ends after a number"),
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
    data = new_data(conventions_world, deal_limit="20")

    response = conventions_client("ada").post(ADD, data, headers={"accept-language": "ru"})

    errors = form_errors(response)["deal_limit"]
    assert any("число сдач" in text.lower() for text in errors), errors


def test_an_edit_that_the_engine_refuses_changes_nothing(conventions_client, conventions_world):
    home = conventions_world.home_rules

    response = conventions_client("ada").post(
        change_url(home), form_data(home, allpass_scoring="whists", name="Renamed")
    )

    assert response.status_code == 200
    home.refresh_from_db()
    assert home.name == "Home rules" and home.allpass_scoring == "gora"


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

    assert response.context["cl"].result_count == 20


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
