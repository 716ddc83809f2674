"""`manage.py check_names`: the names made before the one rule of names that break it
(clubs/name_rules.py; docs/accounts.md).

Lists, one a line: each club's players whose name shows no letter or digit, each pair of
a club's players whose names look the same (equal UTS #39 skeletons), and each account
whose username or name at the table shows nothing. Renames nothing: a club's admin, who
knows who is who, renames or merges them (the players page); an account's owner changes
his name at the table. Exits 1 when it lists any, 0 when every name keeps the rule.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from prefscore.clubs.models import Player
from prefscore.clubs.name_rules import shows, skeleton


def problems() -> list[str]:
    """The names that break the rule, as lines to print."""
    found: list[str] = []
    by_club: dict[tuple[int, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    rows = Player.objects.select_related("club").order_by("club__slug", "pk")
    for player in rows.iterator():
        club = (player.club_id, player.club.slug)
        if not shows(player.name):
            found.append(
                f"{club[1]}: player {player.pk} {ascii(player.name)} shows no letter or digit"
            )
            continue
        by_club[club][skeleton(player.name)].append(f"{player.pk} {ascii(player.name)}")
    for (_pk, slug), groups in by_club.items():
        for group in groups.values():
            if len(group) > 1:
                found.append(f"{slug}: players look the same: {', '.join(group)}")
    accounts = get_user_model().objects.order_by("pk").values_list("pk", "username", "first_name")
    for pk, username, first_name in accounts.iterator():
        if not shows(username):
            found.append(f"account {pk}: username {ascii(username)} shows no letter or digit")
        if first_name and not shows(first_name):
            found.append(f"account {pk}: name at the table {ascii(first_name)} shows nothing")
    return found


class Command(BaseCommand):
    help = "List the names that show nothing or pass for another player of the club."

    def handle(self, *args: Any, **options: Any) -> None:
        found = problems()
        for line in found:
            self.stdout.write(line)
        if found:
            self.stderr.write(f"{len(found)} name(s) to put right: rename or merge them")
            sys.exit(1)
        self.stdout.write("every name shows, and no two players of a club look the same")
