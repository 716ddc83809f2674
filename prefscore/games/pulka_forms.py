"""Forms that start a pulka: a new pulka's header, and a pulka file pasted or uploaded.

Each form checks everything a person can get wrong and says so next to the field;
the views save nothing until the form is valid.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Player
from prefscore.clubs.name_rules import refuse_look_alike, shown_name
from prefscore.clubs.names import isolate, normalise_name
from scoring.conventions import convention_choices, convention_for_key, convention_record
from scoring.engine.protocol import MAX_TARGET
from scoring.engine.seats import MAX_PLAYERS, MIN_PLAYERS

from . import io
from .models import Pulka


def target_field() -> forms.IntegerField:
    """A pulka's pulya target, within the engine's limit (a new pulka, the calculator)."""
    return forms.IntegerField(
        label=_("Pulya target"), min_value=1, max_value=MAX_TARGET, initial=20
    )


def stake_field() -> forms.DecimalField:
    """Money per whist, optional, as ``Pulka.stake`` and a pulka file (``io.MAX_STAKE``)
    hold it (a new pulka, the calculator)."""
    return forms.DecimalField(
        label=_("Stake per whist"),
        required=False,
        min_value=Decimal(0),
        max_digits=10,
        decimal_places=4,
        validators=[MaxValueValidator(io.MAX_STAKE)],
        help_text=_("Money per whist; leave empty to play for whists only."),
    )


@dataclass(frozen=True)
class SeatRow:
    """One row of the new-pulka form: a club player or a new guest's name."""

    number: int
    player: forms.BoundField
    guest: forms.BoundField


class NewPulkaForm(forms.Form):
    """A pulka's header: convention, players clockwise, target, stake, first dealer.

    There are MAX_PLAYERS seat rows; each takes a club player or a guest's name. Filled
    rows are the seats in order; empty rows are skipped.
    """

    title = forms.CharField(label=_("Title"), max_length=120, required=False)
    convention = forms.ChoiceField(label=_("Convention"))
    target = target_field()
    stake = stake_field()
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"), coerce=int, initial=1, empty_value=None
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.club_players = list(club.players.all())
        cast(forms.ChoiceField, self.fields["convention"]).choices = convention_choices(club)
        choices = [("", _("— empty —")), *self._player_groups()]
        for number in range(1, MAX_PLAYERS + 1):
            self.fields[f"player_{number}"] = forms.TypedChoiceField(
                label=_("Seat %(number)s") % {"number": number},
                choices=choices,
                coerce=int,
                required=False,
                empty_value=None,
            )
            self.fields[f"guest_{number}"] = forms.CharField(
                label=_("or a new guest at seat %(number)s") % {"number": number},
                max_length=60,
                required=False,
                widget=forms.TextInput(attrs={"placeholder": _("or a guest")}),
            )
        cast(forms.TypedChoiceField, self.fields["first_dealer"]).choices = [
            (n, _("Seat %(number)s") % {"number": n}) for n in range(1, MAX_PLAYERS + 1)
        ]

    def _player_groups(self) -> list[tuple[Any, Any]]:
        """The club's members (each is one of its players, and may sit as himself),
        then its guests; a group only when it has someone."""
        members = [(p.pk, p.name) for p in self.club_players if p.user_id is not None]
        guests = [(p.pk, p.name) for p in self.club_players if p.user_id is None]
        groups = [(_("Members"), members), (_("Guests"), guests)]
        return [(label, group) for label, group in groups if group]

    def seat_rows(self) -> list[SeatRow]:
        return [
            SeatRow(n, self[f"player_{n}"], self[f"guest_{n}"]) for n in range(1, MAX_PLAYERS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        seated = self._clean_seats()
        rows = [row for row, _seat in seated or []]
        dealer_row = cleaned.get("first_dealer")
        if dealer_row is not None and dealer_row not in self._filled_rows():
            self.add_error(
                "first_dealer",
                _("Seat %(number)s is empty: the first dealer must be one of the players.")
                % {"number": dealer_row},
            )
        if seated is None:
            return cleaned
        if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
            self.add_error(
                "player_1",
                _("A pulka needs %(low)s to %(high)s players: pick them seat by seat.")
                % {"low": MIN_PLAYERS, "high": MAX_PLAYERS},
            )
            return cleaned
        if dealer_row in rows:
            cleaned["dealer_index"] = rows.index(dealer_row)
        cleaned["seated"] = [seat for _row, seat in seated]
        return cleaned

    def _filled_rows(self) -> list[int]:
        """Rows where a player was picked or a name typed, valid or not."""
        return [
            number
            for number in range(1, MAX_PLAYERS + 1)
            if self.data.get(f"player_{number}")
            or normalise_name(str(self.data.get(f"guest_{number}", "")))
        ]

    def _clean_seats(self) -> list[tuple[int, Player | str]] | None:
        """Filled rows as (row, player or new guest name); None after an error."""
        by_pk = {player.pk: player for player in self.club_players}
        by_name = {player.name.casefold(): player for player in self.club_players}
        seated: list[tuple[int, Player | str]] = []
        seen: dict[str, int] = {}
        ok = True
        for number in range(1, MAX_PLAYERS + 1):
            pk = self.cleaned_data.get(f"player_{number}")
            guest = normalise_name(self.cleaned_data.get(f"guest_{number}") or "")
            refused = self._refused_guest(guest) if guest and pk is None else None
            if refused is not None:
                self.add_error(f"guest_{number}", refused)
                ok = False
                continue
            if pk is not None and guest:
                self.add_error(
                    f"guest_{number}", _("Pick a player or type a guest's name, not both.")
                )
                ok = False
                continue
            if pk is None and not guest:
                continue
            seat: Player | str = (
                by_pk[pk] if pk is not None else by_name.get(guest.casefold(), guest)
            )
            name = seat.name if isinstance(seat, Player) else seat
            if name.casefold() in seen:
                field = f"guest_{number}" if guest else f"player_{number}"
                self.add_error(
                    field,
                    _("%(name)s already sits at seat %(seat)s.")
                    % {"name": isolate(name), "seat": seen[name.casefold()]},
                )
                ok = False
                continue
            seen[name.casefold()] = number
            seated.append((number, seat))
        return seated if ok else None

    def _refused_guest(self, guest: str) -> ValidationError | None:
        """A typed name that shows nothing, or passes for a club player it is not (the
        one rule, clubs/name_rules.py); a name the club has, case aside, is that player."""
        try:
            shown_name(guest)
            if not any(p.name.casefold() == guest.casefold() for p in self.club_players):
                refuse_look_alike(guest, self.club_players)
        except ValidationError as error:
            return error
        return None

    def save(self, user: Any) -> Pulka:
        data = self.cleaned_data
        name, convention = convention_for_key(self.club, data["convention"])
        with transaction.atomic():
            players = [
                seat if isinstance(seat, Player) else self._guest(seat) for seat in data["seated"]
            ]
            return io.create_pulka(
                self.club,
                convention_name=name,
                convention=convention,
                players=players,
                target=data["target"],
                stake=data["stake"],
                first_dealer=data["dealer_index"],
                user=user,
                title=data["title"].strip(),
                source=convention_record(self.club, data["convention"]),
            )

    def _guest(self, name: str) -> Player:
        player, _created = Player.objects.get_or_create(club=self.club, name=name)
        return player


class PulkaFileForm(forms.Form):
    """A pulka file pasted or uploaded; valid once the engine has read it."""

    text = forms.CharField(
        label=_("Paste the pulka file"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("or upload it"), required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        text, upload = cleaned.get("text") or "", cleaned.get("file")
        if self.errors:
            return cleaned
        if upload is not None and text.strip():
            self.add_error("file", _("Paste the file or upload it, not both."))
            return cleaned
        if upload is None and not text.strip():
            self.add_error("text", _("Paste a pulka file or choose one to upload."))
            return cleaned
        field = "file" if upload is not None else "text"
        try:
            if upload is not None:
                text = self._read_upload(upload)
            cleaned["pulka_file"] = io.read_text(text)
            cleaned["pulka_text"] = text  # to ask again before importing a duplicate
        except io.FileRefused as error:
            self.add_error(field, str(error))
        return cleaned

    @staticmethod
    def _read_upload(upload: Any) -> str:
        if upload.size > io.MAX_FILE_BYTES:
            raise io.FileRefused(io.too_large_message())
        return io.decode(upload.read(io.MAX_FILE_BYTES + 1))
