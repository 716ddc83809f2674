"""The new-pulka form: convention, players clockwise, target, stake, first dealer."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from prefscore.clubs.models import Player
from prefscore.games.models import Pulka
from scoring.conventions import convention_choices, convention_for_key
from scoring.engine.conventions import PRESET_NAMES, preset
from scoring.models import Convention as ConventionRecord

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
EN = {"accept-language": "en"}


def new_url(slug: str = "friday") -> str:
    return reverse("games:new", args=[slug])


def form_data(world, **changes) -> dict[str, object]:
    """olga, ivan and Guest Gena, Sochi to 20, olga deals first."""
    data = {
        "convention": "sochi",
        "player_1": world.players["olga"].pk,
        "player_2": world.players["ivan"].pk,
        "player_3": world.players["Guest Gena"].pk,
        "target": 20,
        "stake": "",
        "first_dealer": 1,
        "title": "",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def test_the_form_offers_the_four_presets_and_the_club_players(club_world, club_client):
    response = club_client("ivan").get(new_url(), headers=EN)

    html = response.content.decode()
    assert response.status_code == 200
    for label in ("Sochi", "Leningrad", "Rostov", "FSPR"):
        assert label in html
    assert "Guest Gena" in html and "olga" in html
    assert 'id="new-pulka-form"' in html and "<html" in html


def test_the_form_under_htmx_is_only_the_form(club_world, club_client):
    response = club_client("ivan").get(new_url(), headers=HX)

    html = response.content.decode()
    assert html.lstrip().startswith('<form id="new-pulka-form"')
    assert "<html" not in html


def test_convention_choices_are_the_presets_with_translated_labels():
    from django.utils import translation

    with translation.override("ru"):
        choices = dict(convention_choices(None))

    assert list(choices) == list(PRESET_NAMES)
    assert choices["sochi"] == "Сочи" and choices["leningrad"] == "Ленинград"


def test_convention_for_key_gives_the_engine_preset_and_refuses_others():
    assert convention_for_key(None, "rostov") == ("rostov", preset("rostov"))
    with pytest.raises(KeyError):
        convention_for_key(None, "poker")


def test_a_new_pulka_is_saved_with_its_snapshot_and_seats(club_world, club_client):
    data = form_data(
        club_world,
        convention="leningrad",
        player_1=None,
        guest_1="Новенький",
        player_4=club_world.players["olga"].pk,
        player_2=club_world.players["ivan"].pk,
        player_3=club_world.players["Guest Gena"].pk,
        stake="0.5",
        first_dealer=2,
        title="Вечер",
    )
    response = club_client("ivan").post(new_url(), data)

    pulka = Pulka.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:sheet", args=[pulka.pk])
    assert pulka.player_names == ["Новенький", "ivan", "Guest Gena", "olga"]
    assert [seat.player.name for seat in pulka.seats.all()] == pulka.player_names
    assert pulka.convention_name == "leningrad"
    assert pulka.convention_options == preset("leningrad").to_options()
    assert (pulka.target, pulka.stake, pulka.first_dealer) == (20, Decimal("0.5"), 1)
    assert pulka.created_by == club_world.users["ivan"]
    assert pulka.title == "Вечер"
    assert pulka.status == Pulka.Status.RUNNING
    assert Player.objects.get(name="Новенький").user is None


def test_a_new_pulka_under_htmx_redirects_the_browser_to_its_sheet(club_world, club_client):
    response = club_client("ivan").post(new_url(), form_data(club_world), headers=HX)

    pulka = Pulka.objects.get()
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("games:sheet", args=[pulka.pk])


def test_empty_rows_are_skipped_and_the_dealer_counts_filled_seats(club_world, club_client):
    data = form_data(club_world, player_2=None, player_5=club_world.players["ivan"].pk)
    data["first_dealer"] = 5
    club_client("ivan").post(new_url(), data)

    pulka = Pulka.objects.get()
    assert pulka.player_names == ["olga", "Guest Gena", "ivan"]
    assert pulka.first_dealer == 2


def test_a_guest_typed_with_a_club_players_name_is_that_player(club_world, club_client):
    data = form_data(club_world, player_3=None, guest_3="guest gena")
    club_client("ivan").post(new_url(), data)

    assert Pulka.objects.get().player_names == ["olga", "ivan", "Guest Gena"]
    assert Player.objects.filter(club=club_world.club).count() == 3


def test_two_players_are_enough(club_world, club_client):
    club_client("ivan").post(new_url(), form_data(club_world, player_3=None))

    assert Pulka.objects.get().player_names == ["olga", "ivan"]


def test_five_players_fit(club_world, club_client):
    data = form_data(club_world, guest_4="Четвёртый", guest_5="Пятый")
    club_client("ivan").post(new_url(), data)

    assert len(Pulka.objects.get().player_names) == 5


def test_the_form_has_no_sixth_seat(club_world, club_client):
    data = form_data(club_world, guest_4="D", guest_5="E", guest_6="F")
    club_client("ivan").post(new_url(), data)

    assert "F" not in Pulka.objects.get().player_names
    assert 'name="guest_6"' not in club_client("ivan").get(new_url()).content.decode()


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"player_2": None, "player_3": None}, "player_1", "A pulka needs 2 to 5 players"),
        ({"player_1": None, "player_2": None, "player_3": None}, "player_1", "2 to 5 players"),
        ({"player_3": "olga"}, "player_3", "Select a valid choice."),
        ({"player_3": 99999}, "player_3", "Select a valid choice."),
        ({"player_2": "PLAYER_1"}, "player_2", "olga already sits at seat 1."),
        ({"player_3": None, "guest_3": "OLGA"}, "guest_3", "olga already sits at seat 1."),
        ({"guest_4": "Twin", "guest_5": "twin"}, "guest_5", "twin already sits at seat 4."),
        ({"guest_3": "Somebody"}, "guest_3", "Pick a player or type a guest's name, not both."),
        ({"guest_4": "x" * 61}, "guest_4", "at most 60 characters"),
        ({"target": 0}, "target", "greater than or equal to 1"),
        ({"target": 10001}, "target", "less than or equal to 10000"),
        ({"target": ""}, "target", "This field is required."),
        ({"target": "ten"}, "target", "Enter a whole number."),
        ({"stake": "-1"}, "stake", "greater than or equal to 0"),
        ({"stake": "0.00001"}, "stake", "no more than 4 decimal places"),
        ({"stake": "1000000"}, "stake", "less than or equal to 999999.9999"),
        ({"stake": "lots"}, "stake", "Enter a number."),
        ({"first_dealer": 4}, "first_dealer", "Seat 4 is empty: the first dealer must be one"),
        ({"first_dealer": 9}, "first_dealer", "Select a valid choice."),
        ({"convention": "poker"}, "convention", "Select a valid choice."),
        ({"title": "t" * 121}, "title", "at most 120 characters"),
    ],
)
def test_a_bad_new_pulka_is_refused_with_a_message_next_to_the_field(
    club_world, club_client, changes, field, message
):
    if changes.get("player_2") == "PLAYER_1":
        changes["player_2"] = club_world.players["olga"].pk
    data = form_data(club_world, **changes)

    for headers in (EN, {**EN, **HX}):
        response = club_client("ivan").post(new_url(), data, headers=headers)
        assert response.status_code == 200
        errors = " ".join(response.context["form"].errors.get(field, []))
        assert message in errors
        assert 'class="form__error' in response.content.decode()

    assert not Pulka.objects.exists()
    assert Player.objects.filter(club=club_world.club).count() == 3


def test_the_refused_form_under_htmx_is_only_the_form_with_its_messages(club_world, club_client):
    response = club_client("ivan").post(
        new_url(), form_data(club_world, target=0), headers={**HX, **EN}
    )

    html = response.content.decode()
    assert html.lstrip().startswith('<form id="new-pulka-form"')
    assert "greater than or equal to 1" in html


def test_hostile_guest_names_are_kept_and_escaped(club_world, club_client):
    data = form_data(club_world, player_3=None, guest_3="<script>x</script>")
    club_client("ivan").post(new_url(), data)
    response = club_client("ivan").post(
        new_url(), form_data(club_world, target=0, guest_4="<img src=x>"), headers=HX
    )

    assert Pulka.objects.get().player_names[2] == "<script>x</script>"
    assert "<img src=x>" not in response.content.decode()
    assert "&lt;script&gt;x&lt;/script&gt;" in club_client("ivan").get(new_url()).content.decode()


def test_an_outsider_gets_403(club_world, club_client):
    client = club_client("petr")

    assert client.get(new_url()).status_code == 403
    assert client.post(new_url(), form_data(club_world)).status_code == 403
    assert not Pulka.objects.exists()


def test_an_unknown_club_is_404(club_world, club_client):
    assert club_client("ivan").get(new_url("nowhere")).status_code == 404


def test_an_anonymous_visitor_is_sent_to_sign_in(club_world, client):
    response = client.get(new_url())

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_new_pulka_form_answers_405_to_put(club_world, club_client):
    assert club_client("ivan").put(new_url()).status_code == 405


def test_starting_a_pulka_needs_the_csrf_token(club_world, club_client):
    response = club_client("ivan", csrf=True).post(new_url(), form_data(club_world))

    assert response.status_code == 403
    assert not Pulka.objects.exists()


def test_every_mistake_is_shown_at_once(club_world, club_client):
    data = form_data(club_world, player_2=club_world.players["olga"].pk, first_dealer=5)

    response = club_client("ivan").post(new_url(), data, headers=EN)

    errors = response.context["form"].errors
    assert "already sits at seat 1" in errors["player_2"][0]
    assert "Seat 5 is empty" in errors["first_dealer"][0]


def test_a_club_convention_is_offered_and_its_options_are_snapshot(club_world, club_client):
    house = ConventionRecord.objects.get(slug="sochi").duplicate(club_world.club)
    house.name = "Friday Sochi"
    house.whist_style = "gentleman"
    house.save()
    other = ConventionRecord.objects.get(slug="sochi").duplicate(club_world.other_club)

    html = club_client("ivan").get(new_url(), headers=EN).content.decode()
    assert "Friday Sochi" in html and other.slug not in html

    club_client("ivan").post(new_url(), form_data(club_world, convention=house.slug))
    pulka = Pulka.objects.get()
    assert pulka.convention_source == house and pulka.convention_name == "Friday Sochi"
    assert pulka.convention_options["whist_style"] == "gentleman"

    house.whist_style = "greedy"
    house.save()
    pulka.refresh_from_db()
    assert pulka.convention_options["whist_style"] == "gentleman"


def test_another_clubs_convention_cannot_be_posted(club_world, club_client):
    other = ConventionRecord.objects.get(slug="sochi").duplicate(club_world.other_club)
    response = club_client("ivan").post(new_url(), form_data(club_world, convention=other.slug))
    assert response.status_code == 200 and not Pulka.objects.exists()
