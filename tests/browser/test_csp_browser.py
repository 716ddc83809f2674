"""htmx still works under the Content-Security-Policy, and the browser reports no
violation (prefscore/web/middleware.py)."""

import pytest

from tests.browser.support import screenshot
from tests.web.fixtures_access import PASSWORD, build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def watch_console(page):
    messages = []
    page.on("console", lambda message: messages.append(message.text))
    return messages


def sign_in(page, base_url, username):
    page.goto(base_url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(base_url + "/")


def test_an_admin_changes_a_role_by_htmx_without_a_reload_or_a_policy_violation(
    live_server, phone, screenshot_dir
):
    world = build_world()
    console = watch_console(phone)
    sign_in(phone, live_server.url, "admin")
    phone.goto(f"{live_server.url}/clubs/{world.club.slug}/members/")
    phone.evaluate("window.stillTheSamePage = true")
    member = world.memberships["member"].pk

    phone.select_option(f"#role-{member}", "organiser")
    phone.locator(f"#member-{member} .member-list__role button").click()

    phone.locator("#members .messages__item--success").wait_for()
    assert phone.evaluate("window.stillTheSamePage") is True  # swapped, not reloaded
    world.memberships["member"].refresh_from_db()
    assert world.memberships["member"].role == "organiser"
    assert phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    screenshot(phone, screenshot_dir / "members.png", full_page=True)
    violations = [text for text in console if "Content Security Policy" in text]
    assert violations == []


def test_an_admin_creates_an_invitation_by_htmx(live_server, phone):
    world = build_world()
    console = watch_console(phone)
    sign_in(phone, live_server.url, "admin")
    phone.goto(f"{live_server.url}/clubs/{world.club.slug}/members/")
    before = phone.locator(".invitation-list__item").count()

    phone.get_by_role("button", name="Создать ссылку-приглашение").click()

    phone.locator("#invitations .messages__item--success").wait_for()
    assert phone.locator(".invitation-list__item").count() == before + 1
    assert [text for text in console if "Content Security Policy" in text] == []


def test_every_control_on_the_members_page_is_a_comfortable_tap_target(live_server, phone):
    world = build_world()
    sign_in(phone, live_server.url, "admin")
    phone.goto(f"{live_server.url}/clubs/{world.club.slug}/members/")

    controls = phone.locator("main button, main select, main input:not([type=hidden])")
    assert controls.count() >= 8
    for index in range(controls.count()):
        box = controls.nth(index).bounding_box()
        assert box is not None and box["height"] >= 44, index


def test_a_newcomer_signs_up_on_a_phone_from_an_invitation_and_joins(
    live_server, phone, screenshot_dir
):
    world = build_world()
    console = watch_console(phone)
    phone.goto(f"{live_server.url}/invitations/{world.invitation.token}/")

    phone.get_by_role("link", name="Регистрация").click()
    phone.wait_for_url("**/accounts/signup/**")  # and loaded: measured before, it had no page
    assert phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    screenshot(phone, screenshot_dir / "signup.png", full_page=True)
    phone.fill("input[name=username]", "zhenya")
    phone.fill("input[name=email]", "zhenya@example.com")
    phone.fill("input[name=password1]", "grand-slam-in-no-trumps")
    phone.fill("input[name=password2]", "grand-slam-in-no-trumps")
    phone.get_by_role("button", name="Создать учётную запись").click()
    phone.get_by_role("button", name="Принять приглашение").click()

    phone.locator(".messages__item--success").wait_for()
    assert "Home club" in phone.locator(".messages").inner_text()
    assert [text for text in console if "Content Security Policy" in text] == []
