"""Each static file's URL worked out once per process (prefscore/web/static_urls.py)."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles.storage import StaticFilesStorage

from prefscore.web.static_urls import ManifestStorage, RememberedUrls

NAME = "css/prefscore.css"


def test_a_url_is_the_storage_own_and_is_worked_out_once(settings, monkeypatch):
    settings.DEBUG = False
    storage = RememberedUrls()
    asked: list[str] = []
    plain = StaticFilesStorage.url

    def counted(self, name):
        asked.append(name)
        return plain(self, name)

    monkeypatch.setattr(StaticFilesStorage, "url", counted)

    assert storage.url(NAME) == StaticFilesStorage().url(NAME) == f"/static/{NAME}"
    assert storage.url(NAME) == f"/static/{NAME}"
    assert asked == [NAME, NAME]  # the remembering storage's once, the plain one's once


def test_under_debug_nothing_is_kept(settings):
    settings.DEBUG = True
    storage = RememberedUrls()

    assert storage.url(NAME) == f"/static/{NAME}"
    assert "_remembered_urls" not in storage.__dict__


def test_the_manifest_names_the_hashed_file_and_a_missing_name_is_refused_each_time(
    settings, tmp_path
):
    settings.DEBUG = False
    hashed = {NAME: "css/prefscore.0123456789ab.css"}
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": hashed, "version": "1.1"}))
    storage = ManifestStorage(location=tmp_path)

    assert storage.url(NAME) == "/static/css/prefscore.0123456789ab.css"
    assert storage.url(NAME) == "/static/css/prefscore.0123456789ab.css"
    for _ in range(2):
        with pytest.raises(ValueError):
            storage.url("css/gone.css")
    assert "css/gone.css" not in storage.__dict__["_remembered_urls"]
