"""The signed-in user read in one plain statement (``web.PlainUserRead.get_user``,
``prefscore.web.auth.row_by_pk``): the same user as the ORM reads, and the same refusals."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from prefscore.clubs.ratelimit import RateLimitedModelBackend
from prefscore.web.auth import row_by_pk

pytestmark = pytest.mark.django_db


def fields(user: object) -> dict[str, object]:
    model = get_user_model()
    return {f.attname: getattr(user, f.attname) for f in model._meta.concrete_fields}


def test_the_user_read_is_the_orms_field_by_field() -> None:
    user = get_user_model().objects.create_user(
        "zoya", password="pw-user-read-2468", first_name="Зоя", email="z@example.org"
    )
    get_user_model().objects.filter(pk=user.pk).update(last_login=timezone.now())
    orm = get_user_model().objects.get(pk=user.pk)
    with CaptureQueriesContext(connection) as seen:
        read = RateLimitedModelBackend().get_user(user.pk)
    assert len(seen.captured_queries) == 1
    assert fields(read) == fields(orm)
    assert read.last_login.tzinfo is not None and read.is_active is True
    assert read._state.adding is False and read._state.db == orm._state.db


def test_an_inactive_or_unknown_user_is_none() -> None:
    user = get_user_model().objects.create_user("yan", password="pw-user-read-2468")
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert RateLimitedModelBackend().get_user(user.pk) is None
    assert row_by_pk(get_user_model(), user.pk + 1000) is None
    assert RateLimitedModelBackend().get_user(user.pk + 1000) is None


def test_a_session_of_a_user_made_inactive_is_signed_out() -> None:
    user = get_user_model().objects.create_user("xena", password="pw-user-read-2468")
    client = Client()
    client.force_login(user)
    home = reverse("clubs:home")
    assert client.get(home).context["user"].pk == user.pk
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert not client.get(home).context["user"].is_authenticated
