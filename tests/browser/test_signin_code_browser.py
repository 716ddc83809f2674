"""A phone that a guesser's failures put behind the mailed code signs in with it, in
Russian and in English, at 390×844, accessibly (prefscore/clubs/signin_codes.py); the
page's policy is checked with every page's in tests/web/test_permission_csp.py."""

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.browser.support import axe_violations, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "mizer-9-tricks"
WORDS = {
    "ru-RU": ("одноразовый код", "Код из письма"),
    "en-US": ("one-time code", "Code from the email"),
}


@pytest.mark.parametrize("locale", ["en-US"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_the_owner_gets_in_with_the_mailed_code(
    live_server, task_worker, new_context, settings, screenshot_dir, locale
):
    settings.MAIL_CONFIGURED = True  # a server with SMTP settings
    settings.EMAIL_BACKEND = "prefscore.clubs.mail_queue.QueueBackend"
    settings.MAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    get_user_model().objects.create_user("olga", "olga@club.example", PASSWORD)
    for i in range(10):  # from ten other addresses: the username is challenged
        for _ in range(5):
            Client(REMOTE_ADDR=f"198.51.100.{i}").post(
                "/accounts/login/", {"username": "olga", "password": "wrong"}
            )
    page = new_context(locale=locale, bypass_csp=True).new_page()  # axe is injected

    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.locator("input[name=code]").wait_for()
    told, label = WORDS[locale]
    assert told in page.content() and label in page.content()
    screenshot(page, screenshot_dir / f"signin-code-{locale}.png")
    assert axe_violations(page) == []

    # The worker composes the code's mail after the response, then sends it.
    deadline = time.monotonic() + 20
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.1)
    code = re.search(r"^(\d{8})$", mail.outbox[-1].body, re.M).group(1)
    page.fill("input[name=code]", code)
    page.locator(".mailed-code button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")
    assert "olga" in page.content()
