"""While the database does not answer, pages are a styled, translated 503 with
Retry-After (prefscore/errors.py), not a 500; the anonymous home page still answers."""

from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.template.loader import get_template
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


def database_down(error=OperationalError):
    refused = error("connection to server at 127.0.0.1 port 5432 failed: Connection refused")
    return mock.patch.object(BaseDatabaseWrapper, "cursor", side_effect=refused)


@pytest.fixture
def signed_in(django_user_model):
    client = Client(raise_request_exception=False)
    client.force_login(django_user_model.objects.create_user("olga", password="pw-olga-1234"))
    return client


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_page_while_the_database_is_down_is_a_503_with_retry_after(signed_in, error):
    with database_down(error):
        response = signed_in.get(reverse("games:sheet", args=[1]))

    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    html = response.content.decode()
    assert "База данных не отвечает" in html
    assert "prefscore.css" in html


def test_the_503_speaks_english_when_asked(signed_in):
    with database_down():
        response = signed_in.get(reverse("clubs:home"), headers={"accept-language": "en"})

    assert response.status_code == 503
    assert "The database is not answering" in response.content.decode()


def test_an_htmx_request_gets_the_503_too(signed_in):
    with database_down():
        response = signed_in.post(reverse("games:record", args=[1]), headers={"HX-Request": "1"})

    assert response.status_code == 503


def test_the_anonymous_home_page_still_answers():
    with database_down():
        response = Client(raise_request_exception=False).get(reverse("clubs:home"))

    assert response.status_code == 200
    assert reverse("login") in response.content.decode()


def test_any_other_error_is_still_a_500(signed_in):
    with mock.patch("prefscore.games.views.clubs.render_page", side_effect=KeyError("x")):
        response = signed_in.get(reverse("clubs:home"))

    assert response.status_code == 500
    assert "Retry-After" not in response


@pytest.mark.parametrize(
    ("status", "context", "heading"),
    [(500, None, "Что-то пошло не так"), (503, {"seconds": 30}, "База данных не отвечает")],
)
def test_the_500_and_503_pages_render_from_their_own_frame_without_request_or_database(
    status, context, heading
):
    """Both extend errors/_standalone.html, which asks nothing of a request or of
    context processors: neither may touch what is down (prefscore/errors.py)."""
    template = get_template(f"errors/{status}.html")
    rendered = []

    def seen(sender, template, **kwargs):
        rendered.append(template.name)

    template_rendered.connect(seen)
    try:
        with database_down(), translation.override("ru"):
            html = template.render(context)
    finally:
        template_rendered.disconnect(seen)

    assert rendered == [f"errors/{status}.html", "errors/_standalone.html"]  # no base.html

    assert html.startswith("<!doctype html>")
    assert f'<p class="error-page__code">{status}</p>' in html
    assert heading in html
    assert f'href="{reverse("clubs:home")}"' in html
    assert "{{" not in html and "{%" not in html
