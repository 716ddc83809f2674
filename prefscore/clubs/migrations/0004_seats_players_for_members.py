"""Every member of a club is one of its players (README.md, "Accounts, roles and security").

Before, accepting an invitation made a membership but no player. This gives every
member without one a player named by his username (the next free name, "anna 2", when
a guest already has it), and records it as a player event. An account linked to
several players of one club keeps the oldest link: the next migration allows one.
"""

from django.db import migrations

NAME_LENGTH = 60


def _free_name(taken, wanted):
    base = wanted[:NAME_LENGTH].strip() or "?"
    name, number = base, 2
    while name.casefold() in taken:
        suffix = f" {number}"
        name = base[: NAME_LENGTH - len(suffix)] + suffix
        number += 1
    return name


def players_for_members(apps, schema_editor):
    Membership = apps.get_model("clubs", "Membership")
    Player = apps.get_model("clubs", "Player")
    PlayerEvent = apps.get_model("clubs", "PlayerEvent")
    linked = set()
    for player in Player.objects.filter(user__isnull=False).order_by("pk").iterator():
        key = (player.club_id, player.user_id)
        if key in linked:
            Player.objects.filter(pk=player.pk).update(user=None)
        linked.add(key)
    for membership in Membership.objects.select_related("user").order_by("pk").iterator():
        if (membership.club_id, membership.user_id) in linked:
            continue
        taken = {
            name.casefold()
            for name in Player.objects.filter(club_id=membership.club_id).values_list(
                "name", flat=True
            )
        }
        username = membership.user.username
        player = Player.objects.create(
            club_id=membership.club_id, name=_free_name(taken, username), user=membership.user
        )
        PlayerEvent.objects.create(
            club_id=membership.club_id,
            action="joined",
            player=player,
            account=membership.user,
            details={"player": player.name, "account": username, "by": "", "migrated": True},
        )


class Migration(migrations.Migration):
    dependencies = [("clubs", "0003_seats_player_events")]

    operations = [migrations.RunPython(players_for_members, migrations.RunPython.noop)]
