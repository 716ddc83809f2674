import pytest

from tests.browser.support import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_home_page_fits_a_phone_without_sideways_scrolling(live_server, phone, screenshot_dir):
    phone.goto(live_server.url + "/")

    assert phone.locator("h1").inner_text() == "Добро пожаловать в prefscore"
    scroll_width = phone.evaluate("document.scrollingElement.scrollWidth")
    inner_width = phone.evaluate("window.innerWidth")
    assert scroll_width <= inner_width
    screenshot(phone, screenshot_dir / "home.png", full_page=True)


def test_the_language_buttons_switch_the_page_to_english(live_server, phone):
    phone.goto(live_server.url + "/")

    phone.get_by_role("button", name="English").click()

    assert phone.locator("h1").inner_text() == "Welcome to prefscore"
    assert phone.locator("html").get_attribute("lang") == "en"


def test_every_control_on_the_home_page_is_a_comfortable_tap_target(live_server, phone):
    phone.goto(live_server.url + "/")

    controls = phone.locator("header a, header button, main a.button, main button")
    assert controls.count() >= 3
    for index in range(controls.count()):
        box = controls.nth(index).bounding_box()
        assert box is not None
        assert box["height"] >= 44, controls.nth(index).inner_text()


def test_a_player_signs_in_on_a_phone_and_sees_their_pulkas(
    live_server, phone, screenshot_dir, django_user_model
):
    django_user_model.objects.create_user("demo", password="demo-pulka")
    phone.goto(live_server.url + "/")

    phone.get_by_role("main").get_by_role("link", name="Вход").click()
    phone.get_by_label("Имя пользователя").fill("demo")
    phone.get_by_label("Пароль").fill("demo-pulka")
    phone.get_by_role("main").get_by_role("button", name="Вход").click()

    assert phone.get_by_role("heading", name="Ваши пульки").is_visible()
    assert phone.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    screenshot(phone, screenshot_dir / "home-signed-in.png", full_page=True)
