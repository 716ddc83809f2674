import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from prefscore.games.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = pytest.mark.django_db


@pytest.fixture
def debug(settings):
    settings.DEBUG = True


def test_load_demo_creates_a_user_who_can_sign_in(debug):
    call_command("load_demo")

    assert authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD) is not None


def test_load_demo_twice_leaves_one_demo_user(debug, django_user_model):
    call_command("load_demo")
    call_command("load_demo")

    assert django_user_model.objects.filter(username=DEMO_USERNAME).count() == 1


def test_load_demo_restores_a_changed_demo_password(debug, django_user_model):
    call_command("load_demo")
    user = django_user_model.objects.get(username=DEMO_USERNAME)
    user.set_password("something-else")
    user.save()

    call_command("load_demo")

    assert authenticate(username=DEMO_USERNAME, password=DEMO_PASSWORD) is not None


def test_load_demo_refuses_to_publish_a_password_with_debug_off(settings, django_user_model):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_demo")

    assert not django_user_model.objects.filter(username=DEMO_USERNAME).exists()


def demo_rows() -> dict[str, list]:
    """Every demo row that load_demo makes, as comparable values."""
    from prefscore.clubs.models import Club, Membership, Player
    from prefscore.games.models import Deal, Pulka, PulkaSeat

    return {
        "clubs": list(Club.objects.values_list("pk", "slug", "name")),
        "memberships": list(Membership.objects.values_list("pk", "club", "user", "role")),
        "players": list(Player.objects.values_list("pk", "name", "user").order_by("pk")),
        "pulkas": list(Pulka.objects.values_list("pk", "title", "status", "version")),
        "seats": list(PulkaSeat.objects.values_list("pk", "pulka", "seat", "player")),
        "deals": list(Deal.objects.values_list("pk", "pulka", "number").order_by("pk")),
    }


def test_load_demo_makes_the_demo_club_with_the_demo_user_as_admin(debug, django_user_model):
    from prefscore.clubs.models import Club, Role

    call_command("load_demo")

    club = Club.objects.get(slug="demo")
    user = django_user_model.objects.get(username=DEMO_USERNAME)
    assert club.name == "Демо-клуб"
    assert club.role_of(user) == Role.ADMIN
    assert 4 <= club.players.count() <= 5
    assert club.players.filter(user=user).exists()


def test_load_demo_makes_a_finished_sochi_pulka_and_a_running_leningrad_one(debug):
    from prefscore.games.models import Pulka
    from prefscore.games.services import score

    call_command("load_demo")

    finished = Pulka.objects.get(status=Pulka.Status.FINISHED)
    running = Pulka.objects.get(status=Pulka.Status.RUNNING)
    assert (finished.convention_name, len(finished.player_names)) == ("sochi", 3)
    assert (running.convention_name, len(running.player_names)) == ("leningrad", 4)
    assert score(finished).state.closed
    assert not score(running).state.closed
    assert 6 <= running.deals.count() <= 10
    assert [s.player.name for s in running.seats.select_related("player")] == running.player_names


def test_load_demo_twice_gives_the_same_rows(debug):
    call_command("load_demo")
    first = demo_rows()

    call_command("load_demo")

    assert demo_rows() == first
    assert len(first["pulkas"]) == 2 and len(first["deals"]) == 17


def test_the_demo_user_sees_the_demo_club_page(debug, client, django_user_model):
    call_command("load_demo")
    client.force_login(django_user_model.objects.get(username=DEMO_USERNAME))

    html = client.get("/clubs/demo/").content.decode()

    assert "Демо-клуб" in html
    assert "Сочинка в четверг" in html and "Ленинградка на четверых" in html
