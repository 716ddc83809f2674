"""A refused tournament import shows its reason in the browser (docs/tournaments.md §6.4).

The import form posts with htmx and a refusal answers 422 with the form and the message;
htmx swaps no 4xx by default, and the sheet's script that swaps them is not on this page,
so the page's htmx configuration swaps 422 answers everywhere (templates/base.html).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from prefscore.clubs.models import Club, Membership, Role
from prefscore.tournaments.models import Tournament
from tests.browser.support import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REFUSED = {"ru": "Это не файл турнира prefscore.", "en": "This is not a prefscore tournament file."}


@pytest.mark.parametrize("language", ["ru"])  # one walk, one language: CONTRIBUTING.md, "Tests"
def test_a_refused_import_shows_its_message(live_server, new_context, language):
    organiser = get_user_model().objects.create_user("director", password="pw-director-1234")
    club = Club.objects.create(name="Cup club", slug="cup")
    Membership.objects.create(club=club, user=organiser, role=Role.ORGANISER)
    context = new_context(
        locale="ru-RU" if language == "ru" else "en-US", viewport={"width": 390, "height": 844}
    )
    sign_in(context, live_server.url, organiser)
    page = context.new_page()
    page.goto(f"{live_server.url}/tournaments/cup/new/import/")

    page.locator("textarea").fill('{"format": "something else", "version": 1}')
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.locator("#import button[type=submit]").click()

    assert answer.value.status == 422
    error = page.locator("#import .form__error, #import [role=alert]").first
    error.wait_for(timeout=5000)
    assert error.inner_text().strip() == REFUSED[language]
    assert not Tournament.objects.exists()
