"""400, 403, 404, 500 and CSRF failures are styled pages in the visitor's language that
say why and what to do, never Django's bare English ones (prefscore/errors.py)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import path, reverse

from prefscore.urls import urlpatterns as site_urls

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
DJANGO_PAGES = ("Not Found", "403 Forbidden", "Bad Request (400)", "Server Error (500)")


def broken_view(request):
    raise RuntimeError("a bug")


urlpatterns = [*site_urls, path("broken/", broken_view)]
handler400 = "prefscore.errors.bad_request"
handler403 = "prefscore.errors.permission_denied"
handler404 = "prefscore.errors.page_not_found"
handler500 = "prefscore.errors.server_error"


def assert_our_page(response, status: int, *phrases: str) -> str:
    html = response.content.decode()
    assert response.status_code == status
    assert "prefscore.css" in html  # styled: the site's own stylesheet
    assert f'<p class="error-page__code">{status}</p>' in html
    for phrase in phrases:
        assert phrase in html, phrase
    for bare in DJANGO_PAGES:
        assert bare not in html
    return html


def test_an_unknown_address_is_a_404_page_in_russian(client):
    html = assert_our_page(client.get("/no/such/page/"), 404, "Такой страницы нет")

    assert '<html lang="ru">' in html


def test_an_unknown_club_is_the_same_404_page_in_english(club_world, club_client):
    response = club_client("ivan").get(reverse("clubs:club", args=["nowhere"]), headers=EN)

    assert_our_page(response, 404, "There is no such page", "ask them for it again")


def test_an_outsider_is_told_why_and_offered_to_sign_in_as_someone_else(club_world, club_client):
    response = club_client("petr").get(reverse("clubs:club", args=["friday"]), headers=EN)

    html = assert_our_page(
        response, 403, "You are signed in as petr", "ask its admin for an invitation link"
    )
    assert "Sign in as someone else" in html
    assert f'action="{reverse("logout")}"' in html


def test_the_403_page_in_russian_has_no_english(club_world, club_client):
    response = club_client("petr").get(reverse("clubs:club", args=["friday"]))

    html = assert_our_page(response, 403, "Войти под другим именем")
    assert "signed in as" not in html and "Sign in as someone else" not in html


def test_signing_in_as_someone_else_leads_back_to_the_page(club_world, club_client):
    club = reverse("clubs:club", args=["friday"])
    client = club_client("petr")
    response = client.post(reverse("logout"), {"next": f"{reverse('login')}?next={club}"})

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={club}"


def test_a_form_without_its_csrf_token_gets_a_page_that_says_what_to_do(club_world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(club_world.users["ivan"])

    response = client.post(reverse("clubs:add_guest", args=["friday"]), {"name": "X"}, headers=EN)

    assert_our_page(
        response, 403, "The form had expired", "reload the page and send the form again"
    )


def test_a_bad_host_is_a_400_page(client):
    response = client.get("/", HTTP_HOST="evil.example", headers=EN)

    assert_our_page(response, 400, "The request could not be understood")


@override_settings(ROOT_URLCONF=__name__)
def test_a_bug_is_a_500_page_in_the_visitors_language_without_a_traceback():
    client = Client(raise_request_exception=False)

    russian = client.get("/broken/")
    english = client.get("/broken/", headers=EN)

    assert_our_page(russian, 500, "Что-то пошло не так")
    html = assert_our_page(english, 500, "Something went wrong on our side")
    assert "Traceback" not in html and "RuntimeError" not in html
