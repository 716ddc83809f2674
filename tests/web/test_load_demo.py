import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command

from prefscore.clubs.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME

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
