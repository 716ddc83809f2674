"""Sessions read in one plain statement (prefscore/web/sessions.py, ``SessionStore``): what Django's
database sessions do, signing in, out and expiring alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from prefscore.web.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_sessions_are_the_plain_statements():
    assert settings.SESSION_ENGINE == "prefscore.web.sessions"


def test_a_stored_session_is_read_back_and_an_unknown_key_is_none():
    store = SessionStore()
    store["colour"] = "green"
    store.save()
    key = store.session_key
    with CaptureQueriesContext(connection) as seen:
        assert SessionStore(key)["colour"] == "green"
    assert len(seen.captured_queries) == 1
    unknown = SessionStore("x" * 32)
    assert unknown.get("colour") is None
    assert unknown.session_key is None  # as Django's: a key not found is dropped


def test_an_expired_session_is_not_read():
    store = SessionStore()
    store["colour"] = "green"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert SessionStore(store.session_key).get("colour") is None


def test_signing_in_and_out_goes_through_it(seated_world):
    client = Client()
    client.force_login(seated_world.users["gleb"])
    home = reverse("clubs:home")
    assert client.get(home).status_code == 200
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert SessionStore(key).get("_auth_user_id") == str(seated_world.users["gleb"].pk)
    client.post(reverse("logout"))
    assert not Session.objects.filter(session_key=key).exists()
    sheet = reverse("games:sheet", args=[seated_world.pulka.pk])
    assert client.get(sheet).status_code == 302  # to the sign-in page
