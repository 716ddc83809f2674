"""Who a club's players are: every member is one of them, and guests are names.

Every member of a club is one of its players: joining makes (or claims) the player,
creating a club makes its creator's. An account is one person, so it has at most one
player in each club (the database says so: ``one_player_per_account_in_club``).

A club's admins put the players right: link a guest to a member's account, unlink a
player from an account, and merge two players who are one person. Every change is a
:class:`PlayerEvent` (who, when, what, which players), shown to the club's admins.

This module sits in clubs, below the games and the tournaments: it moves the rows that
point at a player (seats, entries, consents, …) through ``Player._meta``'s relations,
never by importing those apps, so a relation added later moves too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import IntegrityError, models, transaction
from django.db.models import ForeignKey, OneToOneField
from django.utils.translation import gettext as _

from .models import Club, Membership, Player, PlayerEvent
from .name_rules import skeleton
from .names import display_name, isolate

# A name taken in the club gets " 2", " 3"… (the first free one): few clash, so few tries.
NAME_ATTEMPTS = 50
NAME_LENGTH = 60


class PlayersRefused(Exception):
    """A change to the players that the rules refuse; the message says why."""


# --- a member's own player ---------------------------------------------------------------


def player_of(club: Club | int, user: Any) -> Player | None:
    """The account's player in the club, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(club=club, user=user).first()


def free_name(club: Club | int, wanted: str) -> str:
    """``wanted``, or ``wanted 2``, ``wanted 3``…: whichever no player of the club has,
    nor a name that looks the same (``name_rules.skeleton``: "Aнна" with a Latin A beside
    "Анна" becomes "Aнна 2")."""
    base = wanted[:NAME_LENGTH].strip() or "?"
    # Compared in Python: SQLite's case-insensitive LIKE knows only ASCII ("Анна", "анна").
    names = Player.objects.filter(club=club).values_list("name", flat=True)
    taken = {skeleton(name) for name in names.iterator()}
    if skeleton(base) not in taken:
        return base
    for number in range(2, NAME_ATTEMPTS + 2):
        suffix = f" {number}"
        name = base[: NAME_LENGTH - len(suffix)] + suffix
        if skeleton(name) not in taken:
            return name
    raise PlayersRefused(_("Too many players of this club have this name."))


def ensure_player(club: Club, user: Any, by: Any = None) -> Player:
    """The member's player in the club: his own if he has one, else a new one by his
    name at the table (``names.display_name``; the next free name when a guest has it). Call it whenever an account
    becomes a member."""
    found = player_of(club, user)
    if found is not None:
        return found
    for _attempt in range(3):
        name = free_name(club, display_name(user))
        try:
            with transaction.atomic():
                player = Player.objects.create(club=club, name=name, user=user)
        except IntegrityError:
            # The same name (or this account's player) made at the same instant elsewhere.
            found = player_of(club, user)
            if found is not None:
                return found
            continue
        _record(club, PlayerEvent.Action.JOINED, by or user, player, user)
        return player
    raise PlayersRefused(_("Someone else took this name just now: try again."))


def claimable_guests(club: Club) -> models.QuerySet[Player]:
    """The club's players without an account: the guests a newcomer may say she is."""
    return Player.objects.filter(club=club, user__isnull=True).order_by("name")


def claim(club: Club, guest_pk: int, user: Any) -> Player:
    """The newcomer says she is this guest: the guest becomes her player, with every seat
    and result it has. Inside the transaction that makes her a member."""
    if player_of(club, user) is not None:
        raise PlayersRefused(_("You already have a player in this club."))
    taken = Player.objects.filter(pk=guest_pk, club=club, user__isnull=True).update(user=user)
    if not taken:
        raise PlayersRefused(_("That guest is no longer free: someone has claimed it."))
    player = Player.objects.get(pk=guest_pk)
    _record(club, PlayerEvent.Action.CLAIMED, user, player, user)
    return player


# --- an admin's changes --------------------------------------------------------------------


def link(player: Player, account: Any, by: Any) -> Player:
    """Link a guest to a member's account. The member's own player, if it has no history
    yet (the empty one joining made), gives way; one with a history is merged instead."""
    with transaction.atomic():
        player = _locked(player.pk)
        if player.user_id is not None:
            raise PlayersRefused(
                _("%(player)s already has an account: unlink it first.")
                % {"player": isolate(player.name)}
            )
        if not Membership.objects.filter(club=player.club_id, user=account).exists():
            raise PlayersRefused(_("Only a member of the club can be linked to a player."))
        own = Player.objects.select_for_update().filter(club=player.club_id, user=account).first()
        if own is not None:
            if _has_history(own):
                raise PlayersRefused(
                    _(
                        "%(user)s already plays as %(own)s, with pulkas of her own: merge "
                        "%(player)s into %(own)s instead."
                    )
                    % {
                        "user": isolate(display_name(account)),
                        "own": isolate(own.name),
                        "player": isolate(player.name),
                    }
                )
            _record_gone(own, by)
            own.delete()
        player.user = account
        player.save(update_fields=["user"])
        _record(player.club, PlayerEvent.Action.LINKED, by, player, account)
    return player


def unlink(player: Player, by: Any) -> Player:
    """Make a player a guest again (a wrong link). If the account is still a member, it
    gets a new player of its own: every member is one of the club's players."""
    with transaction.atomic():
        player = _locked(player.pk)
        account = player.user
        if account is None:
            raise PlayersRefused(
                _("%(player)s has no account to unlink.") % {"player": isolate(player.name)}
            )
        player.user = None
        player.save(update_fields=["user"])
        _record(player.club, PlayerEvent.Action.UNLINKED, by, player, account)
        if Membership.objects.filter(club=player.club_id, user=account).exists():
            ensure_player(player.club, account, by)
    return player


def merge(keep: Player, drop: Player, by: Any) -> Player:
    """``drop`` and ``keep`` are one person: every row that points at ``drop`` (seats,
    tournament entries, consents…) moves to ``keep``, and ``drop`` goes. ``keep`` keeps
    its name; it takes ``drop``'s account if it has none.

    Refused when both have (different) accounts, and when a move would make one person
    twice of something, such as two seats at one pulka.
    """
    if keep.pk == drop.pk:
        raise PlayersRefused(_("Choose two different players to merge."))
    with transaction.atomic():
        keep, drop = _locked(keep.pk), _locked(drop.pk)
        if keep.club_id != drop.club_id:
            raise PlayersRefused(_("Only players of the same club can be merged."))
        if keep.user_id and drop.user_id and keep.user_id != drop.user_id:
            raise PlayersRefused(
                _("%(keep)s and %(drop)s are two accounts: unlink one of them first.")
                % {"keep": keep.name, "drop": drop.name}
            )
        _refuse_clashes(keep, drop)
        moved = {
            label: relation.related_model._default_manager.filter(
                **{relation.field.name: drop}
            ).update(**{relation.field.name: keep})
            for label, relation in _relations()
        }
        account = keep.user or drop.user
        details = {"kept": keep.name, "dropped": drop.name, "dropped_pk": drop.pk}
        drop.delete()
        if account is not None and keep.user_id is None:
            keep.user = account
            keep.save(update_fields=["user"])
        details["moved"] = {label: count for label, count in moved.items() if count}
        _record(keep.club, PlayerEvent.Action.MERGED, by, keep, account, details)
    return keep


def _refuse_clashes(keep: Player, drop: Player) -> None:
    """Refuse a merge that would put one person twice where a rule allows one: for each
    relation whose uniqueness includes the player (one seat per player in a pulka, one
    entry per player in a tournament…), the rows of both players that share the rest."""
    # Seats first: two seats at one pulka is the clash people meet, and its message says so.
    for _label, relation in sorted(_relations(), key=lambda item: item[0] != "games.pulkaseat"):
        name = relation.field.name
        manager = relation.related_model._default_manager
        for others in _unique_with(relation.related_model, name):
            kept = set(manager.filter(**{name: keep}).values_list(*others))
            clashes = [v for v in manager.filter(**{name: drop}).values_list(*others) if v in kept]
            if clashes:
                where = _described(relation.related_model, others[0], [v[0] for v in clashes])
                raise PlayersRefused(_clash_message(keep, drop, relation, where))


def _described(model: type[models.Model], field_name: str, values: list[Any]) -> str:
    """The first few clashing objects as people know them (a pulka's title or players)."""
    field = model._meta.get_field(field_name)
    shown = values[:3]
    target = getattr(field, "related_model", None)
    if target is not None:
        shown = list(target._default_manager.filter(pk__in=shown))
    return ", ".join(f"«{value}»" for value in shown)


def _clash_message(keep: Player, drop: Player, relation: Any, where: str) -> str:
    values = {"keep": keep.name, "drop": drop.name, "where": where}
    if relation.related_model._meta.label_lower == "games.pulkaseat":
        return (
            _(
                "%(keep)s and %(drop)s sat at the same pulka (%(where)s): one person can't "
                "hold two seats, so they are two people. Nothing was merged."
            )
            % values
        )
    values["what"] = str(relation.related_model._meta.verbose_name)
    return (
        _(
            "%(keep)s and %(drop)s are both in %(where)s (%(what)s): one person can't be "
            "there twice. Nothing was merged."
        )
        % values
    )


def _relations() -> Iterator[tuple[str, Any]]:
    """Every foreign key to Player except the audit's own (it keeps the merge's record);
    hidden ones too (``related_name="+"``, as the consents' is)."""
    for relation in Player._meta.get_fields(include_hidden=True):
        if not (relation.auto_created and not relation.concrete):
            continue
        field, model = getattr(relation, "field", None), relation.related_model
        # A one-to-one row is the player's own (a rating, say): it goes with him, and
        # whoever keeps it recomputes it when the player is deleted.
        if isinstance(field, OneToOneField):
            continue
        if isinstance(field, ForeignKey) and model is not None and model is not PlayerEvent:
            yield model._meta.label_lower, relation


def _unique_with(model: type[models.Model], field_name: str) -> list[tuple[str, ...]]:
    """The other fields of each unconditional unique rule of ``model`` that includes
    ``field_name``."""
    found = []
    for constraint in model._meta.constraints:
        fields = getattr(constraint, "fields", ())
        if (
            isinstance(constraint, models.UniqueConstraint)
            and constraint.condition is None
            and field_name in fields
        ):
            others = tuple(name for name in fields if name != field_name)
            if others:
                found.append(others)
    for together in model._meta.unique_together:
        if field_name in together:
            found.append(tuple(name for name in together if name != field_name))
    return found


def _has_history(player: Player) -> bool:
    return any(
        relation.related_model._default_manager.filter(**{relation.field.name: player}).exists()
        for _label, relation in _relations()
    )


def _locked(pk: int) -> Player:
    return Player.objects.select_for_update(of=("self",)).select_related("club", "user").get(pk=pk)


def _record_gone(player: Player, by: Any) -> None:
    """The empty player an account had, removed when a guest is linked to it instead."""
    _record(
        player.club,
        PlayerEvent.Action.MERGED,
        by,
        None,
        player.user,
        {"dropped": player.name, "dropped_pk": player.pk, "empty": True},
    )


def _record(
    club: Club,
    action: str,
    by: Any,
    player: Player | None,
    account: Any,
    details: dict[str, Any] | None = None,
) -> PlayerEvent:
    names = {
        "player": player.name if player is not None else "",
        "account": account.get_username() if account is not None else "",
        "by": by.get_username() if by is not None else "",
    }
    return PlayerEvent.objects.create(
        club=club,
        action=action,
        by=by,
        player=player,
        account=account,
        details={**names, **(details or {})},
    )
