"""The Content-Security-Policy and the other security headers and settings."""

import json
import re
import secrets

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from prefscore.web.middleware import HEADER
from tests.helpers import run_python

pytestmark = pytest.mark.django_db

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'"
)


def test_the_policy_allows_nothing_inline_and_nothing_from_elsewhere():
    assert settings.CONTENT_SECURITY_POLICY == POLICY
    assert "unsafe-inline" not in POLICY and "unsafe-eval" not in POLICY


@pytest.mark.parametrize(
    "path", ["/", "/accounts/login/", "/accounts/signup/", "/no-such-page/", "/admin/login/"]
)
def test_every_response_carries_the_policy(client, path):
    response = client.get(path)

    assert response[HEADER] == POLICY


def test_a_refused_request_carries_the_policy_too():
    response = Client(enforce_csrf_checks=True).post(reverse("signup"))

    assert response.status_code == 403
    assert response[HEADER] == POLICY


def test_the_policy_is_on_the_admin_for_the_superuser(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", password="x-12345678"))

    response = client.get(reverse("admin:index"))

    assert response.status_code == 200
    assert response[HEADER] == POLICY


def test_the_other_security_headers_are_sent(client):
    response = client.get("/")

    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def test_htmx_is_a_file_from_this_site_so_the_policy_lets_it_run(client):
    html = client.get("/").content.decode()

    sources = re.findall(r'<script\b[^>]*\bsrc="([^"]+)"', html)
    assert sources and all(src.startswith("/static/") for src in sources)
    assert not re.search(r"<script\b(?![^>]*\bsrc=)", html)
    script = client.get(next(src for src in sources if "htmx" in src))
    assert script.status_code == 200
    assert "javascript" in script["Content-Type"]


def test_htmx_is_told_not_to_inject_its_indicator_styles(client):
    html = client.get("/").content.decode()

    meta = re.search(r"<meta name=\"htmx-config\" content='([^']+)'>", html)
    assert meta, "base.html must configure htmx"
    assert json.loads(meta.group(1))["includeIndicatorStyles"] is False
    css = client.get("/static/css/prefscore.css")
    assert b".htmx-indicator" in b"".join(css.streaming_content)


def test_no_cookie_is_readable_by_scripts(client, django_user_model):
    assert settings.SESSION_COOKIE_HTTPONLY and settings.CSRF_COOKIE_HTTPONLY
    django_user_model.objects.create_user("olga", password="mizer-9-tricks")
    client.get(reverse("login"))

    response = client.post(reverse("login"), {"username": "olga", "password": "mizer-9-tricks"})

    assert response.cookies[settings.SESSION_COOKIE_NAME]["httponly"]
    assert response.cookies[settings.SESSION_COOKIE_NAME]["samesite"] == "Lax"


PRINT_SECURITY = """
import json
from django.conf import settings
print(json.dumps({
    name: getattr(settings, name, None)
    for name in (
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_SSL_REDIRECT",
        "CSRF_COOKIE_HTTPONLY", "SESSION_COOKIE_HTTPONLY", "CONTENT_SECURITY_POLICY",
        "AUTHENTICATION_BACKENDS", "MIDDLEWARE", "EMAIL_BACKEND", "MAIL_DELIVERY_BACKEND",
    )
}))
"""


def production_settings(**env):
    result = run_python(
        "-c",
        PRINT_SECURITY,
        env={"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "x", **env},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_with_debug_off_cookies_are_secure_and_hsts_is_sent_for_a_year():
    seen = production_settings()

    assert seen["SESSION_COOKIE_SECURE"] and seen["CSRF_COOKIE_SECURE"]
    assert seen["LANGUAGE_COOKIE_SECURE"]
    assert seen["SECURE_HSTS_SECONDS"] >= 31536000
    assert seen["SECURE_HSTS_INCLUDE_SUBDOMAINS"]
    assert seen["SECURE_SSL_REDIRECT"]
    assert seen["CONTENT_SECURITY_POLICY"] == POLICY
    assert seen["AUTHENTICATION_BACKENDS"] == ["prefscore.clubs.ratelimit.RateLimitedModelBackend"]
    assert "prefscore.web.middleware.ContentSecurityPolicyMiddleware" in seen["MIDDLEWARE"]


def test_mail_is_queued_and_goes_out_by_smtp_when_a_host_is_set():
    seen = production_settings()
    assert seen["EMAIL_BACKEND"] == "prefscore.clubs.mail_queue.QueueBackend"
    assert seen["MAIL_DELIVERY_BACKEND"].endswith("console.EmailBackend")
    seen = production_settings(EMAIL_HOST="smtp.example")
    assert seen["MAIL_DELIVERY_BACKEND"].endswith("smtp.EmailBackend")


# The deploy check (`manage.py check --deploy` on the production settings) is
# tests/test_deploy_check.py: one subprocess per command.
