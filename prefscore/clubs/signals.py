"""Club admins edit their club's conventions in the Django admin, which needs staff status
and the convention permissions: given with the admin role, taken back with the last one.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .admin_group import club_admin_group, grant
from .models import Membership, Role


@receiver(post_save, sender=Membership)
def admin_role_opens_the_admin(sender: Any, instance: Membership, **kwargs: Any) -> None:
    if instance.role == Role.ADMIN:
        grant(instance.user)
    else:
        _close_when_no_longer_admin(instance.user)


@receiver(post_delete, sender=Membership)
def last_admin_role_closes_the_admin(sender: Any, instance: Membership, **kwargs: Any) -> None:
    _close_when_no_longer_admin(instance.user)


def _close_when_no_longer_admin(user: Any) -> None:
    if not get_user_model().objects.filter(pk=user.pk).exists():
        return  # the user himself is being deleted
    if user.memberships.filter(role=Role.ADMIN).exists():
        return
    user.groups.remove(club_admin_group())
    # A superuser or staff member made by hand keeps the admin for his own reasons;
    # only the club-admin group's grant is taken back.
    if user.is_staff and not user.is_superuser and not user.user_permissions.exists():
        user.is_staff = False
        user.save(update_fields=["is_staff"])
