"""The Django admin's titles worded as a sentence of their own, in every language.

Django builds its admin titles by putting a model's name into a phrase: "Add %s",
"Select %s to change", "Change %s". Russian declines the name after a verb, so the
phrase with the name as it is reads «Добавить конвенция» and «Выберите конвенция для
изменения». Every admin of the project takes :class:`WordedAdmin` instead: the list is
titled by the plural alone («Конвенции»), the page of one object by its name («Конвенция»,
with the object below, as Django shows it), and adding by the model's own words
(``add_title``: «Новая конвенция»), which the list's add button reads too
(``templates/admin/change_list_object_tools.html``). ``tests/web/test_admin_words.py``
walks every registered model's pages in both languages.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.functional import Promise
from django.utils.text import capfirst


class WordedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A model admin whose titles need no declension: set ``add_title`` in each."""

    # "New convention", «Новая конвенция»: the adjective agrees with the noun, so each
    # model words its own.
    add_title: str | Promise = ""

    def _words(self) -> dict[str, Any]:
        return {"add_title": self.add_title or capfirst(self.opts.verbose_name)}

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        words = {"title": capfirst(self.opts.verbose_name_plural), **self._words()}
        return super().changelist_view(request, {**words, **(extra_context or {})})

    def add_view(
        self,
        request: HttpRequest,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        words = {"title": self._words()["add_title"]}
        return super().add_view(request, form_url, {**words, **(extra_context or {})})

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        words = {"title": capfirst(self.opts.verbose_name)}
        return super().change_view(request, object_id, form_url, {**words, **(extra_context or {})})
