import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_home_page_speaks_russian_by_default(client):
    response = client.get(reverse("clubs:home"))

    assert response.status_code == 200
    assert response["Content-Language"] == "ru"
    assert "Добро пожаловать" in response.content.decode()


def test_the_home_page_speaks_english_to_a_browser_that_asks_for_it(client):
    response = client.get(reverse("clubs:home"), headers={"accept-language": "en"})

    assert response.status_code == 200
    assert "Welcome to prefscore" in response.content.decode()


def test_the_language_switch_sets_the_language_of_the_next_pages(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302

    page = client.get(reverse("clubs:home"), headers={"accept-language": "ru"})

    assert "Welcome to prefscore" in page.content.decode()


def test_the_home_page_offers_both_languages_without_inline_script(client):
    html = client.get(reverse("clubs:home")).content.decode()

    assert 'action="/i18n/setlang/"' in html
    assert 'value="ru"' in html and 'value="en"' in html
    assert "onchange" not in html and "<script>" not in html


def test_the_home_page_loads_htmx_and_sends_the_csrf_token_with_htmx_requests(client):
    html = client.get(reverse("clubs:home")).content.decode()

    assert "htmx" in html and ".js" in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html


def test_the_home_page_invites_a_visitor_to_sign_in(client):
    html = client.get(reverse("clubs:home")).content.decode()

    assert reverse("login") in html
    assert 'id="pulkas"' not in html


def test_the_home_page_shows_a_signed_in_player_their_pulkas(client, django_user_model):
    user = django_user_model.objects.create_user("ivan", password="x-secret-42")
    client.force_login(user)

    html = client.get(reverse("clubs:home")).content.decode()

    assert 'id="pulkas"' in html
    assert "Ваши пульки" in html
    assert "ivan" in html


def test_the_home_page_answers_405_to_a_post(client):
    response = client.post(reverse("clubs:home"))

    assert response.status_code == 405
