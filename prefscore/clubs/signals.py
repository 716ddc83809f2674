"""Club admins edit their club's conventions in the Django admin, which needs staff status
and the convention permissions: given with the admin role, taken back with the last one.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .admin_group import GROUP_NAME, grant
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
    """Take back what the admin role gave (the club-admin group, and the staff status it
    brought), once he is nobody's admin. Only from one who holds the group: staff made
    by hand, or by a group of the site's own, keeps the admin for his own reasons, and a
    member who never was an admin costs one query here, not the group's six."""
    granted = user.groups.filter(name=GROUP_NAME)
    if not granted.exists():
        return
    if user.memberships.filter(role=Role.ADMIN).exists():
        return
    if not get_user_model().objects.filter(pk=user.pk).exists():
        return  # the user himself is being deleted
    user.groups.remove(*granted)
    if (
        user.is_staff
        and not user.is_superuser
        and not user.user_permissions.exists()
        and not user.groups.exists()
    ):
        user.is_staff = False
        user.save(update_fields=["is_staff"])
