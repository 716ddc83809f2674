"""``python manage.py grant_club_admins [--club SLUG]``: let club admins into the admin.

A club admin (Membership role "admin") edits his club's conventions in the Django
admin. The admin site needs two things Django keeps apart from club roles: the user's
``is_staff`` flag, and the scoring.Convention permissions, which come through the
"Club admins" group. This command gives both to every club admin (of one club with
``--club``); run it again after naming new admins. It never takes anything away.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, Group, Permission
from django.core.management.base import BaseCommand, CommandError, CommandParser

from prefscore.clubs.models import Club, Membership, Role

GROUP_NAME = "Club admins"
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
        content_type__app_label="scoring", codename__in=CONVENTION_PERMISSIONS
    )
    group.permissions.add(*permissions)
    return group


def grant(user: AbstractBaseUser, group: Group | None = None) -> None:
    """Staff status and the convention permissions for one club admin."""
    if not user.is_staff:  # type: ignore[attr-defined]
        user.is_staff = True  # type: ignore[attr-defined]
        user.save(update_fields=["is_staff"])
    user.groups.add(group or club_admin_group())  # type: ignore[attr-defined]


class Command(BaseCommand):
    help = "Give every club admin staff status and the permission to edit conventions."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="only the admins of the club with this slug")

    def handle(self, *args: Any, **options: Any) -> None:
        memberships = Membership.objects.filter(role=Role.ADMIN).select_related("user")
        if options["club"]:
            if not Club.objects.filter(slug=options["club"]).exists():
                raise CommandError(f"No club has the slug {options['club']!r}.")
            memberships = memberships.filter(club__slug=options["club"])
        group = club_admin_group()
        users = {membership.user for membership in memberships}
        for user in users:
            grant(user, group)
        self.stdout.write(f"{len(users)} club admin(s) may now edit their conventions.")
