"""Forms of the club screens: a new club, a guest.

The forms that start a pulka are the games app's (``prefscore.games.pulka_forms``).

Each form checks everything a person can get wrong and says so next to the field;
the views save nothing until the form is valid.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from . import players
from .models import Club, Membership, Player, Role
from .name_rules import refuse_look_alike, shown_name
from .names import isolate

# Clubs created at the same instant from the same name each get the next free slug; past
# the first tries (many racing for one name) a random tail makes the slug free at once.
SLUG_ATTEMPTS = 8
PLAIN_SLUG_ATTEMPTS = 2

# Russian letters for links (ГОСТ 7.79-2000, system B, simplified): "Демо-клуб" -> demo-klub.
_TRANSLIT = str.maketrans(
    {
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh",
        "з": "z", "и": "i", "й": "j", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o",
        "п": "p", "р": "r", "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "c",
        "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu",
        "я": "ya",
    }
)  # fmt: skip


def slug_from_name(name: str, fallback: str = "club") -> str:
    """An ASCII slug for a name, Russian transliterated; ``fallback`` when nothing is left."""
    max_length = Club._meta.get_field("slug").max_length or 60
    slug = slugify(name.lower().translate(_TRANSLIT))[: max_length - 4].strip("-")
    return slug or fallback


def first_free(base: str, taken: set[str]) -> str:
    """``base``, or ``base-2``, ``base-3``… whichever is not in ``taken``."""
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug


def free_among(rows: QuerySet[Any], base: str, reserved: Iterable[str] = ()) -> str:
    """``base``, or ``base-2``, ``base-3``… whichever none of ``rows`` has as its slug,
    nor is ``reserved`` (a URL word such as "new"): one query."""
    taken = set(rows.filter(slug__startswith=base).values_list("slug", flat=True))
    return first_free(base, taken | set(reserved))


def free_slug(base: str) -> str:
    """``base``, or ``base-2``, ``base-3``… whichever no club has yet (one query)."""
    return free_among(Club.objects.all(), base)


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=120)
    slug = forms.SlugField(
        label=_("Short name for links"),
        max_length=60,
        required=False,
        help_text=_("Latin letters, digits and hyphens; made from the name if left empty."),
    )

    def clean_name(self) -> str:
        name = shown_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the club a name."))
        return name

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"].lower()
        if slug and Club.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("Another club already uses this short name."))
        return slug

    def save(self, user: Any) -> Club | None:
        """The club, with its creator as its admin and as one of its players.

        None, with the reason on the form, when a club created at the same instant took
        the short name asked for; a short name made from the name just moves on to the
        next free one.
        """
        for attempt in range(SLUG_ATTEMPTS):
            slug = self.cleaned_data["slug"] or self._made_slug(attempt)
            try:
                with transaction.atomic():
                    if self._already_has(user):
                        return None
                    club = Club.objects.create(name=self.cleaned_data["name"], slug=slug)
                    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
                    players.ensure_player(club, user)
                return club
            except IntegrityError:
                if self.cleaned_data["slug"]:
                    break
        self.add_error("slug", _("Another club already uses this short name."))
        return None

    def _already_has(self, user: Any) -> bool:
        """Whether ``user`` is already in a club of this name (a form sent twice made two
        "Пятничный клуб"): checked with the account's row locked, so that two requests
        at once answer one after the other; the refusal goes on the form."""
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        wanted = self.cleaned_data["name"].casefold()
        names = Club.objects.filter(memberships__user=user).values_list("name", flat=True)
        if any(name.casefold() == wanted for name in names):
            self.add_error("name", _("You already have a club of this name."))
            return True
        return False

    def _made_slug(self, attempt: int) -> str:
        base = slug_from_name(self.cleaned_data["name"])
        if attempt < PLAIN_SLUG_ATTEMPTS:
            return free_slug(base)
        return f"{base[:54]}-{secrets.token_hex(2)}"


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=60)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_name(self) -> str:
        name = shown_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Type the guest's name."))
        # Compared in Python: SQLite's case-insensitive match knows only ASCII.
        club_players = list(self.club.players.only("name"))
        if any(player.name.casefold() == name.casefold() for player in club_players):
            raise forms.ValidationError(
                _("%(name)s already plays in this club.") % {"name": isolate(name)}
            )
        refuse_look_alike(name, club_players)
        return name

    def save(self) -> Player | None:
        """The guest; None, with the reason on the form, if the same name was added at the
        same instant from another phone."""
        name = self.cleaned_data["name"]
        try:
            with transaction.atomic():
                return Player.objects.create(club=self.club, name=name)
        except IntegrityError:
            self.add_error(
                "name", _("%(name)s already plays in this club.") % {"name": isolate(name)}
            )
            return None
