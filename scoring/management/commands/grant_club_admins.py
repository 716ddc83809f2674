"""``python manage.py grant_club_admins [--club SLUG]``: let club admins into the admin.

A club admin (Membership role "admin") edits his club's conventions in the Django
admin. The admin site needs two things Django keeps apart from club roles: the user's
``is_staff`` flag, and the scoring.Convention permissions, which come through the
"Club admins" group (``prefscore.clubs.admin_group``). Naming an admin gives both at
once; this command gives them to every club admin (of one club with ``--club``), for
admins named before that. It never takes anything away.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from prefscore.clubs.admin_group import club_admin_group, grant
from prefscore.clubs.models import Club, Membership, Role


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
