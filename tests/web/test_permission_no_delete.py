"""Pulkas are archived, never deleted; deals are never deleted: no URL, no admin action."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from prefscore.games.models import Deal, Pulka
from tests.web.fixtures_access import World
from tests.web.permission_table import (
    ROUTES,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def access_world(access_world_once_per_module: World) -> World:
    """One world for this module's many requests, as it was at each test's start."""
    return access_world_once_per_module


# --- pulkas are archived, never deleted; deals never deleted ---


def test_no_url_of_the_project_deletes_anything():
    deleting = [
        name
        for name, route in ROUTES.items()
        if "delete" in name.lower() or "delete" in route.route.lower()
    ]

    assert deleting == []


@pytest.mark.parametrize("model", [Pulka, Deal], ids=["pulka", "deal"])
def test_the_admin_refuses_to_delete_pulkas_and_deals(model, access_world, client_as, rf):
    assert model in admin.site._registry, f"{model.__name__} is not in the admin"
    model_admin = admin.site._registry[model]
    request = rf.get("/admin/")
    request.user = access_world.users["superuser"]
    obj = access_world.pulka if model is Pulka else access_world.pulka.deals.first()

    assert not model_admin.has_delete_permission(request)
    assert not model_admin.has_delete_permission(request, obj)
    opts = model._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_delete", args=[obj.pk])
    response = client_as("superuser").post(url, {"post": "yes"})
    assert response.status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()
    bulk = client_as("superuser").post(
        reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302, 403)
    assert model.objects.filter(pk=obj.pk).exists()
