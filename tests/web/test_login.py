import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("olga", password="mizer-9-tricks")


def test_the_sign_in_page_is_in_russian_by_default(client):
    response = client.get("/accounts/login/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "Вход" in html
    assert "Пароль" in html


def test_the_sign_in_page_is_in_english_when_asked(client):
    response = client.get("/accounts/login/", headers={"accept-language": "en"})

    assert "Sign in" in response.content.decode()


def test_a_player_signs_in_and_lands_on_the_home_page(client, player):
    response = client.post("/accounts/login/", {"username": "olga", "password": "mizer-9-tricks"})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/").context["user"] == player


def test_a_wrong_password_is_refused_with_a_message(client, player):
    response = client.post("/accounts/login/", {"username": "olga", "password": "wrong"})

    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not response.context["user"].is_authenticated


def test_a_player_signs_out_with_a_post(client, player):
    client.force_login(player)

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_signing_out_needs_the_csrf_token(player):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(player)

    response = client.post(reverse("logout"))

    assert response.status_code == 403
