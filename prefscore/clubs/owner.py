"""The server's owner: made once, by a one-time link printed when the server starts.

A club's own server (``make run``) ships no account with a known password. On a server
without an owner, each start prints a link (and its QR code) to a page that makes the
owner: a superuser with his name, password and, if he has one, his email. The link is a
random 256-bit token of which only the digest is kept (:class:`~.models.OwnerLink`); it
works once, and a new start ends the links printed before. Two people sending the form
at once make one owner: the link is claimed under a row lock in the transaction that
makes the account, and the second is told the link was used.

The owner is the first active superuser who can sign in (:func:`server_owner`). Clubs
whose every admin has lost his way in (the demo account whose published password was
retired, below) are given to him, so that no club is left without an admin.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import Club, Membership, OwnerLink, Role
from .players import ensure_player

# The account `make dev` signs in with (load_demo): its password is in the README, so a
# server that is not a developer's must never accept it.
DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-pulka"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def can_sign_in() -> QuerySet[Any]:
    """Accounts that can sign in: active, with a password (an unusable one starts "!")."""
    return get_user_model().objects.filter(is_active=True).exclude(password__startswith="!")


def server_owner() -> Any:
    """The server's owner: its first active superuser with a password, or None."""
    return can_sign_in().filter(is_superuser=True).order_by("date_joined", "pk").first()


def new_link() -> str:
    """A fresh owner link's token; the links made before stop working."""
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        OwnerLink.objects.filter(used_at__isnull=True).delete()
        OwnerLink.objects.create(digest=digest(token))
    return token


def link_is_live(token: str) -> bool:
    """The token is the last printed link's, unused, and the server has no owner yet."""
    live = OwnerLink.objects.filter(digest=digest(token), used_at__isnull=True).exists()
    return live and server_owner() is None


def claim(token: str, form: UserCreationForm) -> Any:
    """The owner the form makes with this link, or None when the link is used or unknown.

    The link's row is locked and checked again inside the transaction that makes the
    account: of two people racing to it, the second finds it used.
    """
    with transaction.atomic():
        link = (
            OwnerLink.objects.select_for_update()
            .filter(digest=digest(token), used_at__isnull=True)
            .first()
        )
        if link is None or server_owner() is not None:
            return None
        user = form.save(commit=False)
        user.is_staff = user.is_superuser = True
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            form.add_error("username", _("A user with that username already exists."))
            return None
        link.used_at, link.used_by = timezone.now(), user
        link.save(update_fields=["used_at", "used_by"])
        OwnerLink.objects.filter(used_at__isnull=True).delete()
    adopt_orphan_clubs(user)
    return user


def orphan_clubs() -> QuerySet[Club]:
    """Clubs none of whose admins can sign in."""
    admins_in = Membership.objects.filter(
        club=OuterRef("pk"), role=Role.ADMIN, user__in=can_sign_in()
    )
    return Club.objects.filter(~Exists(admins_in)).order_by("name")


def adopt_orphan_clubs(owner: Any) -> list[Club]:
    """Make the owner admin (and one of the players) of every club left without one."""
    adopted = list(orphan_clubs())
    for club in adopted:
        with transaction.atomic():
            Membership.objects.update_or_create(
                club=club, user=owner, defaults={"role": Role.ADMIN}
            )
            ensure_player(club, owner, by=owner)
    return adopted


def retire_published_password() -> bool:
    """The demo account stops signing in with its published password; True if it did.

    Its password is made unusable, which also ends its sessions (Django checks a
    session against the password it was opened with). Its clubs and deals stay.
    """
    demo = get_user_model().objects.filter(username=DEMO_USERNAME).first()
    if demo is None or not demo.check_password(DEMO_PASSWORD):
        return False
    demo.set_unusable_password()
    demo.save(update_fields=["password"])
    return True
