"""Forms of the tournament screens: a new tournament, entries, the cut, publishing.

Each form says what is wrong next to the field; the views save nothing until it is valid.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.models import Club, Player
from prefscore.clubs.name_rules import shown_name
from prefscore.clubs.names import isolate
from prefscore.web.integers import IdsChoiceField, request_int
from scoring.conventions import convention_choices, convention_for_key, convention_record
from scoring.engine import ranking
from scoring.engine.conventions import from_options
from scoring.engine.errors import ConventionError
from scoring.engine.protocol import MAX_TARGET

from ..models import Round, TableClosure, Tournament
from ..services import free_slug

MAX_WHISTS = 1_000_000

# docs/tournaments.md §1: "max 18 deals", "6 deals per round"; a generous ceiling.
MAX_DEALS = 200
MAX_CUT = 200
# A day's play at most; a stage of ten rounds is more than any regulations ask.
MAX_ROUND_MINUTES = 1440
MAX_STAGE_ROUNDS = 10
# Discipline settings (docs/tournaments.md §4.9): sane bounds, nothing more.
MAX_YELLOW_CARDS = 9
MAX_FLOOR = 1_000_000
TIE_BREAK_SLOTS = len(ranking.TIE_BREAKS)

TIE_BREAK_LABELS = {
    "whists": _("whists in total"),
    "allpass_won": _("most all-pass deals won"),
    "allpass_tricks": _("fewest all-pass tricks"),
    "remizes": _("fewest remizes"),
    "misere_tricks": _("fewest misère tricks"),
    "best_round": _("best round"),
    "head_to_head": _("head-to-head"),
    "opponents": _("opponents' points"),
}


class WholeNumberField(forms.IntegerField):
    """A whole number in ASCII digits, with an optional minus (the rule of
    ``web.integers.request_int``).

    Django's own field reads ``"١٠"`` as 10 and fullwidth digits too: a figure nobody
    typed on the keyboard the sheet shows is refused, never guessed.
    """

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text)
        number = request_int(digits)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return sign * number


class TournamentForm(forms.Form):
    """Name, convention, tables, round length, scoring and tie-breaks (docs/tournaments.md §4.1)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    convention = forms.ChoiceField(label=_("Convention"))
    table_size = forms.TypedChoiceField(
        label=_("Players per table"),
        coerce=int,
        choices=[(4, _("4 (the dealer sits out)")), (3, "3")],
        initial=4,
        help_text=_("With 4, a field that does not divide by 4 also gets tables of 3."),
    )
    target = forms.IntegerField(
        label=_("Pulya target"), min_value=1, max_value=MAX_TARGET, initial=20
    )
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"),
        min_value=1,
        max_value=MAX_DEALS,
        required=False,
        help_text=_("Each table stops after this many deals; leave empty to play to the target."),
    )
    end_rule = forms.ChoiceField(
        label=_("A table ends"),
        choices=[
            ("deals", _("after the deals per round")),
            ("first", _("at the target or after the deals per round, whichever comes first")),
        ],
        initial="deals",
        required=False,
        help_text=_("With no deals per round, a table plays to the target."),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round"),
        min_value=1,
        max_value=MAX_ROUND_MINUTES,
        required=False,
        help_text=_("The room's clock counts it down; leave empty for no time limit."),
    )
    stage_rounds = forms.IntegerField(
        label=_("Rounds per stage after a cut"),
        min_value=1,
        max_value=MAX_STAGE_ROUNDS,
        initial=1,
        required=False,
        help_text=_("A semi-final or a final plays this many rounds, seated by standing."),
    )
    normalisation = forms.ChoiceField(
        label=_("Round scores"),
        choices=Tournament.Normalisation.choices,
        initial=Tournament.Normalisation.RAW,
    )
    carry = forms.ChoiceField(
        label=_("Qualifying points in the final"),
        choices=Tournament.Carry.choices,
        initial=Tournament.Carry.KEPT,
    )
    yellow_cards_limit = forms.IntegerField(
        label=_("Yellow cards that disqualify"),
        min_value=1,
        max_value=MAX_YELLOW_CARDS,
        initial=2,
        required=False,
        help_text=_("A red card always does; leave empty for no limit."),
    )
    round_floor = WholeNumberField(
        label=_("Floor of a round, in whists"),
        min_value=-MAX_FLOOR,
        max_value=-1,
        initial=-1000,
        required=False,
        help_text=_("A player whose table ends below it gets a yellow card; leave empty for none."),
    )
    forfeit_whists = WholeNumberField(
        label=_("A forfeit counts at most, in whists"),
        min_value=-MAX_FLOOR,
        max_value=0,
        required=False,
        help_text=_(
            "A player who leaves his table after its first deal: 0 records no gain, a"
            " negative figure is a penalty; leave empty to count the sheet as it stands."
        ),
    )
    at_time = forms.ChoiceField(
        label=_("When the time is up"),
        choices=Tournament.AtTime.choices,
        initial=Tournament.AtTime.FLAG,
        required=False,
        widget=forms.RadioSelect,  # its choices are sentences: a phone's select cuts them
    )
    after_drop = forms.ChoiceField(
        label=_("When a player leaves a table of 4 in play"),
        choices=Tournament.AfterDrop.choices,
        initial=Tournament.AfterDrop.CLOSE,
        required=False,
        widget=forms.RadioSelect,  # its choices are sentences: a phone's select cuts them
    )
    public = forms.BooleanField(label=_("Standings are public"), required=False)

    def clean_name(self) -> str:
        """The tournament's name shows (the one rule of names, clubs/name_rules.py)."""
        name = shown_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Give the tournament a name."))
        return name

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        cast(forms.ChoiceField, self.fields["convention"]).choices = convention_choices(club)
        choices = [("", _("— none —"))] + list(TIE_BREAK_LABELS.items())
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            default = ranking.DEFAULT_TIE_BREAKS
            self.fields[f"tie_break_{slot}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": slot},
                choices=choices,
                required=False,
                initial=default[slot - 1] if slot <= len(default) else "",
            )

    def discipline_values(self) -> dict[str, Any]:
        """The discipline and time settings the form sent (an empty field: none); unsent,
        untouched.

        A client that predates them (a script, an older page) keeps the defaults.
        """
        values = {
            name: self.cleaned_data.get(name)
            for name in ("yellow_cards_limit", "round_floor", "forfeit_whists")
            if name in self.data
        }
        for name in ("at_time", "after_drop"):
            if self.cleaned_data.get(name):
                values[name] = self.cleaned_data[name]
        return values

    def tie_break_fields(self) -> list[forms.BoundField]:
        return [self[f"tie_break_{slot}"] for slot in range(1, TIE_BREAK_SLOTS + 1)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        order: list[str] = []
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            name = cleaned.get(f"tie_break_{slot}")
            if not name:
                continue
            if name in order:
                self.add_error(f"tie_break_{slot}", _("This tie-break is already listed above."))
            order.append(name)
        cleaned["tie_breaks"] = order
        self._clean_convention(cleaned)
        return cleaned

    def _clean_convention(self, cleaned: dict[str, Any]) -> None:
        key = cleaned.get("convention")
        if not key:
            return
        try:
            name, convention = convention_for_key(self.club, key)
            if cleaned.get("deals_per_round"):
                # docs/rules.md §3.5: the deals alone, or the target and the deals,
                # whichever comes first (the convention's own end kept).
                limit: dict[str, Any] = {"deal_limit": cleaned["deals_per_round"]}
                if cleaned.get("end_rule") != "first":
                    limit["end"] = "deals"
                convention = from_options(limit, base=convention)
        except (KeyError, ConventionError):
            self.add_error("convention", _("Choose one of the conventions offered."))
            return
        cleaned["convention_name"] = name
        cleaned["engine_convention"] = convention
        cleaned["convention_source"] = convention_record(self.club, key)

    def save(self, user: Any) -> Tournament:
        data = self.cleaned_data
        return Tournament.objects.create(
            club=self.club,
            name=data["name"],
            slug=free_slug(self.club, data["name"]),
            public=data["public"],
            table_size=data["table_size"],
            convention_name=data["convention_name"],
            convention_options=data["engine_convention"].to_options(),
            convention_source=data["convention_source"],
            target=data["target"],
            deals_per_round=data.get("deals_per_round"),
            round_minutes=data.get("round_minutes"),
            stage_rounds=data.get("stage_rounds") or 1,
            normalisation=data["normalisation"],
            tie_breaks=data["tie_breaks"],
            carry=data["carry"],
            created_by=user,
            **self.discipline_values(),
        )


class EntryForm(forms.Form):
    """Club players to register: those not entered yet."""

    players = IdsChoiceField(
        label=_("Players to register"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Pick at least one player.")},
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = cast(IdsChoiceField, self.fields["players"])
        players.queryset = tournament.club.players.exclude(
            tournament_entries__tournament=tournament
        )


class CutForm(forms.Form):
    """How many players go through, and to which stage (docs/tournaments.md §4.10)."""

    size = WholeNumberField(label=_("Players who go through"), min_value=3, max_value=MAX_CUT)
    stage = forms.ChoiceField(
        label=_("To"),
        choices=[(Round.Stage.FINAL, _("the final")), (Round.Stage.SEMIFINAL, _("a semi-final"))],
        initial=Round.Stage.FINAL,
        required=False,
    )

    def clean_stage(self) -> str:
        return self.cleaned_data.get("stage") or Round.Stage.FINAL


class SwapForm(forms.Form):
    """Two players of a draft round who change places (docs/tournaments.md §4.5)."""

    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, seated: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            cast(forms.TypedChoiceField, self.fields[name]).choices = seated

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("first") is not None and cleaned.get("first") == cleaned.get("second"):
            self.add_error("second", _("Pick two different players."))
        return cleaned


class LeaveForm(forms.Form):
    """Why a player is dropped or disqualified: the decision's record (§4.15)."""

    reason = forms.CharField(
        label=_("Why"),
        max_length=300,
        help_text=_("Written in the tournament's record of decisions, with your name."),
    )


class CloseTableForm(forms.Form):
    """Why the organiser closes a table, and the arbiter's final sheet (Кодекс 4.2.16)."""

    reason = forms.ChoiceField(
        label=_("Why the table is closed"),
        choices=[
            (value, label)
            for value, label in TableClosure.Reason.choices
            if value != TableClosure.Reason.DROP
        ],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(label=_("Note for the record"), max_length=300, required=False)

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names = names
        for seat, name in enumerate(names):
            self.fields[f"whists_{seat}"] = WholeNumberField(
                label=_("Whists of %(name)s") % {"name": isolate(name)},
                required=False,
                min_value=-MAX_WHISTS,
                max_value=MAX_WHISTS,
            )

    def whist_fields(self) -> list[forms.BoundField]:
        return [self[f"whists_{seat}"] for seat in range(len(self.names))]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if cleaned.get("reason") != TableClosure.Reason.ARBITER:
            cleaned["whists"] = None
            return cleaned
        values = [cleaned.get(f"whists_{seat}") for seat in range(len(self.names))]
        if any(value is None for value in values):
            for seat, value in enumerate(values):
                if value is None and f"whists_{seat}" not in self.errors:
                    self.add_error(f"whists_{seat}", _("Enter the whists of every player."))
            return cleaned
        whole = [int(value) for value in values if value is not None]
        if sum(whole) != 0:
            self.add_error(
                None,
                _("The whists add up to %(sum)s: a final sheet adds up to zero.")
                % {"sum": sum(whole)},
            )
        cleaned["whists"] = whole
        return cleaned


class PublishForm(forms.Form):
    public = forms.BooleanField(label=_("Standings are public"), required=False)


class DecisionReasonForm(forms.Form):
    """Why the arbiter decides (reopening a tournament): required, kept in the audit."""

    reason = forms.CharField(label=_("Reason"), max_length=300)


class CorrectClosureForm(DecisionReasonForm):
    """The arbiter's corrected final sheet (Кодекс 4.2.16): whole whists adding up to zero."""

    def __init__(
        self, *args: Any, names: list[str], whists: list[int] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.names = names
        for seat, name in enumerate(names):
            self.fields[f"whists_{seat}"] = WholeNumberField(
                label=_("Whists of %(name)s") % {"name": isolate(name)},
                min_value=-MAX_WHISTS,
                max_value=MAX_WHISTS,
                initial=whists[seat] if whists and seat < len(whists) else None,
            )

    def whist_fields(self) -> list[forms.BoundField]:
        return [self[f"whists_{seat}"] for seat in range(len(self.names))]

    def whists(self) -> list[int]:
        return [int(self.cleaned_data[f"whists_{seat}"]) for seat in range(len(self.names))]


class MoveForm(forms.Form):
    """A player moved to a table of a draft (docs/tournaments.md §4.5)."""

    player = forms.TypedChoiceField(label=_("Move"), coerce=int)
    table = forms.TypedChoiceField(label=_("to table"), coerce=int)

    def __init__(
        self, *args: Any, players: list[tuple[int, str]], tables: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["player"]).choices = players
        cast(forms.TypedChoiceField, self.fields["table"]).choices = [
            (number, str(number)) for number in range(1, tables + 1)
        ]
