"""What the table screen carries for a failing network (static/js/network.js): the words
it shows, translated on the page, and no debug script that would replace the page with a
refusal's fragment under DEBUG (django-htmx's django-htmx.js does that on 400/403/404)."""

import re

import pytest
from django.urls import reverse

from tests.web.fixtures_table import EN, HTMX, deal_form

pytestmark = pytest.mark.django_db

RU = {"accept-language": "ru"}


def sheet(client, pulka, headers):
    response = client.get(reverse("games:sheet", args=[pulka.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def strings(html: str) -> dict[str, str]:
    tag = re.search(r'<div id="net-strings" hidden([^>]*)>', html)
    assert tag, "no #net-strings"
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1)))


@pytest.mark.parametrize("debug", [False, True])
def test_the_page_loads_htmx_and_the_network_script_but_never_the_debug_handler(
    make_table_pulka, table_client, settings, debug
):
    settings.DEBUG = debug
    html = sheet(table_client(), make_table_pulka(), EN)

    assert "django-htmx.js" not in html
    assert re.search(r'<script src="[^"]*django_htmx/htmx-2\.min\.js" defer></script>', html)
    assert re.search(r'<script src="[^"]*js/network\.js" defer></script>', html)
    assert re.search(r'<script src="[^"]*js/table\.js" defer></script>', html)


@pytest.mark.parametrize("debug", [False, True])
def test_a_refusal_answers_regions_whatever_the_debug_setting(
    make_table_pulka, table_client, settings, debug
):
    settings.DEBUG = debug
    pulka = make_table_pulka()
    table_client("anna").post(reverse("games:record", args=[pulka.pk]), deal_form(), headers=HTMX)

    response = table_client("boris").post(
        reverse("games:pencil", args=[pulka.pk, 1]), {"action": "undo"}, headers=HTMX
    )

    assert response.status_code == 403
    html = response.content.decode()
    assert not html.lstrip().lower().startswith("<!doctype")
    assert re.search(r'id="entry"[^>]*hx-swap-oob="true"', html)


def test_the_words_of_the_network_states_are_on_the_page_in_english(make_table_pulka, table_client):
    words = strings(sheet(table_client(), make_table_pulka(), EN))

    assert words["saving"] == "Saving…"
    assert words["retry"] == "Retry now"
    assert words["failed"].startswith("Not saved:")
    assert words["refused"].startswith("Not saved:")
    assert words["elsewhere"] == (
        "Deal {number} was recorded on another device while you were filling it in."
    )
    assert words["restore"] == "Put my entry back as deal {number}"
    assert words["unloaded"].startswith("Not loaded:")


def test_the_words_of_the_network_states_are_russian_on_a_russian_page(
    make_table_pulka, table_client
):
    words = strings(sheet(table_client(), make_table_pulka(), RU))

    assert set(words) == {
        "saving",
        "failed",
        "retry",
        "refused",
        "elsewhere",
        "restore",
        "unloaded",
        "queued",
        "signed-out",
        "waits",
        "same-waiting",
        "as-next",
        "replace",
        "next-note",
        "deal",
    }
    for key, text in words.items():
        latin = re.findall(r"[A-Za-z]+", text.replace("{number}", ""))
        assert latin == [], (key, text)
    assert "{number}" in words["elsewhere"] and "{number}" in words["restore"]
    for key in ("waits", "same-waiting", "as-next", "replace", "deal"):
        assert "{number}" in words[key], key


def test_the_words_of_the_outbox_are_russian_on_a_russian_page(make_table_pulka, table_client):
    html = sheet(table_client(), make_table_pulka(), RU)
    tag = re.search(r'<div id="outbox"[^>]*>', html).group(0)
    words = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag))

    for key in ("user", "session-url", "login-url", "worker-url"):
        assert words.pop(key), key
    assert words["waiting-one"] == "{count} запись ждёт отправки"
    assert words["waiting-few"] == "{count} записи ждут отправки"
    assert words["waiting-many"] == "{count} записей ждут отправки"
    assert words["signin-many"] == "Войдите, чтобы отправить {count} сохранённых записей"
    for key, text in words.items():
        latin = re.findall(r"[A-Za-z]+", re.sub(r"\{\w+\}", "", text))
        assert latin == [], (key, text)


def test_the_entry_form_says_its_mode_for_the_script(make_table_pulka, table_client):
    html = sheet(table_client(), make_table_pulka(), EN)

    assert re.search(r'<form id="entry-form"[^>]*data-mode="record"', html)
