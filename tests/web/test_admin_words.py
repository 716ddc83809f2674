"""The admin's titles read as sentences in both languages (prefscore/admin_words.py).

Django's own titles put the model's name into a phrase («Добавить %s», «Выберите %s для
изменения»), which Russian declines: «Добавить конвенция». Every registered model's
list, add and change pages are walked here, in Russian and in English.
"""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst

from prefscore.admin_words import WordedAdmin
from scoring.models import Convention

pytestmark = pytest.mark.django_db

MODELS = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)
# Django's phrases that put a declined name in the nominative, in Russian.
UNDECLINED = re.compile(r"Добавить \w+|Выберите \w+ для|Изменить \w+|Просмотреть \w+")


def _title(html: str) -> str:
    found = re.search(r'<div id="content"[^>]*>\s*<h1>(.*?)</h1>', html, re.S)
    assert found, "no title on the page"
    return found.group(1).strip()


def _words_of(html: str) -> str:
    """The page's tab title, its heading and its add button: what Django words."""
    tab = re.search(r"<title>(.*?)</title>", html, re.S)
    return " | ".join([tab.group(1) if tab else "", _title(html), _add_button(html) or ""])


def _add_button(html: str) -> str | None:
    found = re.search(r'class="addlink">\s*(.*?)\s*</a>', html, re.S)
    return found.group(1).strip() if found else None


@pytest.fixture
def root(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.com"))
    return client


def _get(client: Client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_conventions_admin_reads_new_convention_and_conventions(root, language):
    changelist = _get(root, reverse("admin:scoring_convention_changelist"), language)
    add = _get(root, reverse("admin:scoring_convention_add"), language)
    sochi = Convention.objects.get(slug="sochi")
    one = _get(root, reverse("admin:scoring_convention_change", args=[sochi.pk]), language)

    expected = {
        "ru": ("Конвенции", "Новая конвенция", "Конвенция"),
        "en": ("Conventions", "New convention", "Convention"),
    }[language]
    assert (_title(changelist), _title(add), _title(one)) == expected
    assert _add_button(changelist) == expected[1]
    assert not UNDECLINED.search(_words_of(changelist) + _words_of(add) + _words_of(one))
    assert "Django" not in _words_of(changelist)


@pytest.mark.parametrize(("model", "model_admin"), MODELS, ids=[m._meta.label for m, _ in MODELS])
def test_every_admin_page_is_titled_without_declining_a_name(root, model, model_admin):
    assert isinstance(model_admin, WordedAdmin)
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    for language in ("ru", "en"):
        with translation.override(language):
            plural = str(capfirst(opts.verbose_name_plural))
        html = _get(root, changelist, language)
        assert _title(html) == plural
        assert not UNDECLINED.search(_words_of(html))
        if _add_button(html) is None:
            continue  # this admin only shows: nothing to add
        add = _get(root, reverse(f"admin:{opts.app_label}_{opts.model_name}_add"), language)
        assert _title(add) == _add_button(html)
        assert not UNDECLINED.search(_words_of(add))
    with translation.override("ru"):
        words = [
            str(opts.verbose_name),
            str(opts.verbose_name_plural),
            str(model_admin._words()["add_title"]),
        ]
    with translation.override("en"):
        english = [str(opts.verbose_name), str(opts.verbose_name_plural)]
    # Translated: a Russian page never names the model in English.
    assert all(re.search("[а-яё]", word, re.I) for word in words), words
    assert words[:2] != english


def test_an_addable_admin_words_its_own_add_title(django_user_model):
    request = RequestFactory().get("/")
    request.user = django_user_model(username="root", is_superuser=True, is_active=True)
    for _model, model_admin in MODELS:
        if model_admin.has_add_permission(request) and not model_admin.add_title:
            pytest.fail(f"{type(model_admin).__name__} has no add_title")
