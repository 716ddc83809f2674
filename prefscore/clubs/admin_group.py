"""The "Club admins" group: what lets a club admin into the Django admin.

A club admin (Membership role "admin") edits his club's conventions in the Django
admin, which needs two things Django keeps apart from club roles: the user's
``is_staff`` flag, and the convention permissions, which come through this group. The
admin role gives both (``signals``); ``manage.py grant_club_admins`` gives them to
admins named before that. The permissions are looked up by app label and codename, so
that clubs, below scoring in the layers, need not import it.
"""

from __future__ import annotations

from django.contrib.auth.models import Group, Permission, User

GROUP_NAME = "Club admins"
# scoring.Convention's permissions (Django's four for every model).
CONVENTION_APP_LABEL = "scoring"
CONVENTION_PERMISSIONS = (
    "add_convention",
    "change_convention",
    "delete_convention",
    "view_convention",
)


def club_admin_group() -> Group:
    """The group holding the scoring.Convention permissions, created when missing."""
    group, _created = Group.objects.get_or_create(name=GROUP_NAME)
    permissions = Permission.objects.filter(
        content_type__app_label=CONVENTION_APP_LABEL, codename__in=CONVENTION_PERMISSIONS
    )
    group.permissions.add(*permissions)
    return group


def grant(user: User, group: Group | None = None) -> None:
    """Staff status and the convention permissions for one club admin."""
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.groups.add(group or club_admin_group())
