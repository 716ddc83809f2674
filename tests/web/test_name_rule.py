"""One rule for every name people type (clubs/name_rules.py): a name that shows no letter
or digit is refused with a message, and a player's name that passes for another player
of the club (equal UTS #39 skeletons) asks "is this …?". Every class of invisible name
and every look-alike pair, at every place a name is typed: sign-up, the name at the
table, guests, new pulkas, pulka and tournament files, tournaments, seasons, clubs, the
calculator; an account joining a club gets the next free name; ``check_names`` lists
the names made before."""

from __future__ import annotations

import io as text_io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from prefscore.clubs import name_rules, players
from prefscore.clubs.account_views import DisplayNameForm, SignUpForm
from prefscore.clubs.forms import ClubForm, GuestForm
from prefscore.clubs.models import Club, Membership, Player, Role
from prefscore.games.calculator_forms import PaperPlayersForm
from prefscore.games.models import Pulka
from prefscore.games.pulka_forms import NewPulkaForm
from prefscore.seasons.forms import SeasonForm
from prefscore.tournaments import exports, imports
from prefscore.tournaments.forms.tournament import TournamentForm
from tests.web.fixtures_table import EN

pytestmark = pytest.mark.django_db

# Each shows nothing: the joiners, the Hangul filler, the Braille blank, the Khmer
# inherent vowels, combining marks alone, and mixes of them.
SHOWS_NOTHING = {
    "ZWNJ U+200C": "\u200c",
    "ZWJ U+200D": "\u200d",
    "Hangul filler U+3164": "\u3164",
    "Braille blank U+2800": "\u2800",
    "Khmer U+17B4": "\u17b4",
    "Khmer U+17B5": "\u17b5",
    "acute alone U+0301": "\u0301",
    "two marks alone": "\u0301\u0302\u0308",
    "a mix": "\u200d\u3164 \u2800\u17b4\u0301",
}
# (typed, the club's player it passes for)
LOOK_ALIKES = {
    "Latin A in Анна": ("A\u043d\u043d\u0430", "Анна"),
    "fullwidth Ａnna": ("\uff21nna", "Anna"),
    "Latin Bepa for Вера": ("Bepa", "Вера"),
    "Cyrillic Оlga": ("\u041elga", "Olga"),
    "small capitals": ("ᴀnna", "Anna"),
}
NOTHING = pytest.mark.parametrize("name", SHOWS_NOTHING.values(), ids=SHOWS_NOTHING.keys())
ALIKE = pytest.mark.parametrize(("typed", "taken"), LOOK_ALIKES.values(), ids=LOOK_ALIKES.keys())
PASSWORD = "seven-hearts-in-the-talon"


@pytest.fixture(autouse=True)
def english() -> Any:
    """The forms' messages in English, whatever another test left active."""
    with translation.override("en"):
        yield


@pytest.fixture
def club() -> Club:
    club = Club.objects.create(name="Friday", slug="friday")
    for name in ("Анна", "Anna", "Вера", "Olga"):
        Player.objects.create(club=club, name=name)
    return club


@pytest.fixture
def member(club: Club) -> Any:
    user = get_user_model().objects.create_user("ivan", password=PASSWORD)
    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    Player.objects.create(club=club, name="Ivan", user=user)
    return user


def errors_of(form: Any) -> str:
    assert not form.is_valid()
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


# --- the rule itself ----------------------------------------------------------------------


@NOTHING
def test_a_name_of_nothing_visible_does_not_show(name):
    assert not name_rules.shows(name)
    assert not name_rules.shows(f" {name} {name} ")


@pytest.mark.parametrize("name", ["Anna", "Анна", "李", "٣", "A\u200dB", "Jos\u0065\u0301", "Ω7"])
def test_a_name_with_a_letter_or_digit_shows(name):
    assert name_rules.shows(name)


@ALIKE
def test_look_alikes_have_one_skeleton_and_others_do_not(typed, taken):
    assert name_rules.skeleton(typed) == name_rules.skeleton(taken)
    assert name_rules.look_alike(typed, [Player(name="Boris"), Player(name=taken)]).name == taken


def test_common_names_are_not_taken_for_each_other():
    names = [
        "Анна", "Алла", "Алёна", "Ася", "Яна", "Инна", "Нина", "Лена", "Лёна", "Вера", "Вика",
        "Пётр", "Петр", "Иван", "Ivan", "Anna", "Ann", "Ada", "Ana", "Lena", "Lina", "Oleg",
    ]  # fmt: skip
    assert name_rules.first_look_alike(names) is None


# --- each place a name is typed -----------------------------------------------------------


@NOTHING
def test_sign_up_refuses_a_username_or_a_name_at_the_table_of_nothing(name):
    data = {"email": "a@example.com", "password1": PASSWORD, "password2": PASSWORD}
    by_username = SignUpForm({**data, "username": name})
    by_name = SignUpForm({**data, "username": "lena", "first_name": name})

    assert not by_username.is_valid()
    assert str(name_rules.NO_LETTER) in errors_of(by_name)


@NOTHING
def test_the_name_at_the_table_of_nothing_is_refused(member, name):
    assert str(name_rules.NO_LETTER) in errors_of(
        DisplayNameForm({"first_name": name}, user=member)
    )


@ALIKE
def test_the_name_at_the_table_may_not_pass_for_a_player_of_ones_clubs(member, typed, taken):
    assert "Is this" in errors_of(DisplayNameForm({"first_name": typed}, user=member))


def test_the_name_at_the_table_page_says_why_and_saves_nothing(member, client):
    client.force_login(member)

    response = client.post(reverse("display_name"), {"first_name": "\u3164"}, headers=EN)

    assert response.status_code == 200
    assert str(name_rules.NO_LETTER) in response.content.decode()
    member.refresh_from_db()
    assert member.first_name == ""


@NOTHING
def test_a_guest_of_nothing_is_refused(club, name):
    assert str(name_rules.NO_LETTER) in errors_of(GuestForm({"name": name}, club=club))


@ALIKE
def test_a_guest_who_looks_like_a_player_asks_is_this_her(club, typed, taken):
    message = errors_of(GuestForm({"name": typed}, club=club))

    assert "Is this" in message and taken in message


def test_the_guests_page_asks_and_adds_nobody(club, member, client):
    client.force_login(member)
    before = Player.objects.count()

    response = client.post(
        reverse("clubs:add_guest", args=["friday"]), {"name": "A\u043d\u043d\u0430"}, headers=EN
    )

    assert response.status_code == 200
    assert "Is this" in response.content.decode()
    assert Player.objects.count() == before


def new_pulka_data(club: Club, guest: str) -> dict[str, Any]:
    by_name = {player.name: player.pk for player in club.players.all()}
    return {
        "convention": "sochi",
        "guest_1": guest,
        "player_2": by_name["Вера"],
        "player_3": by_name["Olga"],
        "target": 20,
        "first_dealer": 1,
    }


@NOTHING
def test_a_new_pulkas_guest_of_nothing_is_refused(club, name):
    form = NewPulkaForm(new_pulka_data(club, f"{name}"), club=club)

    assert not form.is_valid()


@ALIKE
def test_a_new_pulkas_guest_who_looks_like_a_player_asks(club, typed, taken):
    if taken == "Вера":  # she sits at seat 2 already; the name alone is the point
        taken, typed = "Анна", "A\u043d\u043d\u0430"
    assert "Is this" in errors_of(NewPulkaForm(new_pulka_data(club, typed), club=club))


def test_a_new_pulkas_guest_typed_as_the_club_has_it_is_that_player(club):
    form = NewPulkaForm(new_pulka_data(club, "анна"), club=club)

    assert form.is_valid(), form.errors
    assert form.cleaned_data["seated"][0] == Player.objects.get(name="Анна")


@NOTHING
def test_a_club_a_tournament_and_a_season_of_nothing_are_refused(club, name):
    assert str(name_rules.NO_LETTER) in errors_of(ClubForm({"name": name}))
    assert str(name_rules.NO_LETTER) in errors_of(TournamentForm({"name": name}, club=club))
    assert str(name_rules.NO_LETTER) in errors_of(SeasonForm({"name": name}, club=club))


@NOTHING
def test_the_calculator_refuses_a_name_of_nothing(member, name):
    data = {"convention": "sochi", "target": 10, "name_1": "Anna", "name_2": "Boris"}
    form = PaperPlayersForm({**data, "name_3": f"{name}"}, user=member)

    assert str(name_rules.NO_LETTER) in errors_of(form)


def paste(client: Any, names: list[str]) -> Any:
    data = {"convention": "sochi", "players": names, "target": 10, "deals": []}
    return client.post(
        reverse("games:import", args=["friday"]), {"text": json.dumps(data)}, headers=EN
    )


@pytest.mark.parametrize("name", ["\u2800", "\u0301", "\u200d"], ids=["braille", "mark", "zwj"])
def test_a_pulka_file_with_a_name_of_nothing_is_refused(club, member, client, name):
    client.force_login(member)

    response = paste(client, [name, "Boris", "Gleb"])

    assert response.status_code == 200
    assert not Pulka.objects.exists()


@ALIKE
def test_a_pulka_file_whose_player_passes_for_a_club_player_is_refused(
    club, member, client, typed, taken
):
    client.force_login(member)

    response = paste(client, [typed, "Boris", "Gleb"])

    assert response.status_code == 200
    assert "looks the same as" in response.content.decode()
    assert not Pulka.objects.exists()
    assert not Player.objects.filter(name=typed).exists()


def test_a_pulka_file_with_two_look_alikes_of_its_own_is_refused(club, member, client):
    client.force_login(member)

    response = paste(client, ["Boris", "B\u043eris", "Gleb"])  # a Cyrillic о

    assert "look the same" in response.content.decode()
    assert not Pulka.objects.exists()


def tournament_text(cup: Any, names: list[str], name: str = "Cup") -> str:
    """The cup's own file (as exported), with these players, this name and no rounds."""
    data = exports.export_data(cup)
    data["tournament"]["name"] = name
    data["players"] = [{"name": player, "dropped": False} for player in names]
    data["rounds"] = []
    return json.dumps(data)


@pytest.mark.parametrize("name", ["\u2800", "\u200d", "\u17b5", "\u0301\u0302"])
def test_a_tournament_file_with_a_name_of_nothing_is_refused(tournament_world, cup, name):
    imports.read_file(tournament_text(cup, ["Anna", "Boris", "Gleb"]))  # the file is good
    for text in (
        tournament_text(cup, [name, "Boris", "Gleb"]),
        tournament_text(cup, ["Anna", "Boris", "Gleb"], name),
    ):
        with pytest.raises(imports.ImportRefused):
            imports.read_file(text)


@ALIKE
def test_a_tournament_file_whose_player_passes_for_a_club_player_is_refused(
    tournament_world, cup, club, typed, taken
):
    file = imports.read_file(tournament_text(cup, [typed, "Boris", "Gleb"]))

    with pytest.raises(imports.ImportRefused) as refused:
        imports.import_tournament(club, file, None)

    assert "looks the same as" in str(refused.value)
    assert not club.tournaments.exists()


@ALIKE
def test_an_account_joining_a_club_under_a_look_alike_name_gets_the_next_free_one(
    club, typed, taken
):
    user = get_user_model().objects.create_user("newcomer", first_name=typed)

    player = players.ensure_player(club, user)

    assert player.name == f"{typed} 2"


def test_check_names_lists_the_names_made_before_and_renames_nothing(club):
    Player.objects.create(club=club, name="\u2800")
    Player.objects.create(club=club, name="A\u043d\u043d\u0430")
    get_user_model().objects.create_user("\u3164", first_name="\u200d")
    out, err = text_io.StringIO(), text_io.StringIO()

    with pytest.raises(SystemExit) as ended:
        call_command("check_names", stdout=out, stderr=err)

    lines = out.getvalue()
    assert ended.value.code == 1
    assert "shows no letter or digit" in lines
    assert "players look the same" in lines and "'\\u0410\\u043d\\u043d\\u0430'" in lines
    assert "username '\\u1160' shows no letter" in lines  # Django keeps it in NFKC
    assert Player.objects.filter(name="\u2800").exists()  # nothing renamed


def test_check_names_is_quiet_when_every_name_keeps_the_rule(club):
    out = text_io.StringIO()

    call_command("check_names", stdout=out)

    assert "every name shows" in out.getvalue()
