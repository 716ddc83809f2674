"""Errors a person can act on: every error carries a stable code and its parameters.

The code names what is wrong (``deal.declarer_sits_out``); the parameters say where
and with what (the deal's ``number``, the ``player``, the ``option``, ``low``/``high``).
``str(error)`` is the one-line English message of docs/protocol.md, "Bad input", built from
the code's template in :data:`TEMPLATES`; the web side gives each code its own
translated message (``scoring/messages.py``) and never reads the English.
"""

from __future__ import annotations

import string
from typing import Any

# English templates, one per code, in str.format syntax with three conversions of our
# own: ``:q`` quotes a value as :func:`shown` does, ``:a`` puts "a" or "an" before a
# level ("an 8"), ``:list`` joins a sequence with commas.
TEMPLATES: dict[str, str] = {
    # The pulka file (docs/protocol.md, "Input").
    "file.not_json": "the file is not valid JSON: {detail}",
    "file.too_deep": "the file is not valid JSON: {detail}",
    "file.bad_number": "the file holds a number that is not allowed: {detail}",
    "file.duplicate_key": "the key {name:q} is given twice in one object",
    "file.not_object": "the file must hold one JSON object (a pulka)",
    "file.unknown_field": "unknown field {name:q}",
    "file.description": "{name:q} must be one line of text of at most {high} characters",
    "file.first_dealer": "first_dealer {value:q} is not one of the players",
    "file.options_not_map": "options must be a map of option names to values",
    "file.players_not_list": "players must be a list of names in seating order",
    "file.player_count": "a pulka has {low} to {high} players, not {count}",
    "file.name_empty": "a player's name must be non-empty text, got {value:q}",
    "file.name_long": "a player's name is at most {high} characters",
    "file.name_control": (
        "a player's name must not hold control characters or line breaks, got {value:q}"
    ),
    "file.names_twice": "two players have the same name",
    "file.target_missing": "target is missing: the pulya each player plays to",
    "file.target_range": "target must be a whole number from {low} to {high}, got {value:q}",
    "file.stake_not_number": "stake must be a number, got {value:q}",
    "file.stake_range": "stake must be a number from {low} to {high}, got {value:q}",
    "file.deals_not_list": "deals must be a list",
    "file.too_many_items": "a pulka has at most {deals} deals and {corrections} corrections",
    "pulka.too_many_deals": "a pulka has at most {high} deals",
    "pulka.too_many_corrections": "a pulka has at most {high} corrections",
    "pulka.too_much_refolding": "the corrections would re-score more than {high} deals: correct fewer early deals",
    "file.deal_not_object": "deal {number}: each deal must be an object",
    "file.sheet_players": "sheet must give pulya, gora and whists for every player",
    "file.sheet_row": "sheet of {player} must be an object",
    "file.sheet_unknown_field": "sheet of {player}: unknown field {name:q}",
    "file.sheet_whists_names": "whists of {player} must name the other players only",
    "file.sheet_pulya": (
        "pulya of {player} must be a whole number from {low} to {high}, got {value:q}"
    ),
    "file.sheet_gora": "gora of {player} must be a whole number from {low} to {high}, got {value:q}",
    "file.sheet_whists": (
        "whists of {player} must be a whole number from {low} to {high}, got {value:q}"
    ),
    # Corrections in a file (docs/protocol.md, "Corrections"; Кодекс 4.2.7).
    "correction.not_a_number": "correct must be the number of a deal",
    "correction.fields": "a correction needs 'correct' and 'deal' (and may give 'penalty')",
    "correction.deal_not_object": "a correction's deal must be an object",
    "correction.penalty_not_bool": "a correction's penalty must be true or false",
    "correction.no_such_deal": "there is no such deal yet",
    # A deal's fields as given (docs/protocol.md, a deal's fields).
    "deal.contract_missing": "the contract is missing",
    "deal.contract_not_text": "contract must be text such as '6S', got {value:q}",
    "deal.contract_unknown": (
        "unknown contract {value:q}: use 6–10 with an optional suit, misere or allpass"
    ),
    "deal.suit_unknown": "unknown suit {suit:q} in contract {value:q}",
    "deal.declarer_not_name": "declarer must be a player's name",
    "deal.dealer_not_name": "dealer must be a player's name",
    "deal.prikup_not_whole": "prikup must be a whole number 0 to 3",
    "deal.unknown_field": "unknown field {name:q}",
    "deal.whists_not_map": "whists must be a map of player names",
    "deal.tricks_not_map": "tricks must be a map of player names",
    "deal.word_not_text": "whists for {player:q} must be a word, got {value:q}",
    "deal.count_not_whole": "tricks for {player:q} must be a whole number, got {value:q}",
    # A manual entry (docs/protocol.md, "Manual entries"; docs/rules.md §3.11).
    "manual.not_object": "manual must be an object: player, section, on, points, reason",
    "manual.unknown_field": "unknown field {name:q} in a manual entry",
    "manual.section": "a manual entry's section must be pulya, gora or whists, got {value:q}",
    "manual.player_missing": "a manual entry names the player who writes it",
    "manual.on_missing": "whists are written on another player: name him in 'on'",
    "manual.not_name": "a manual entry's player must be a player's name",
    "manual.on_self": "{player} cannot write whists on himself",
    "manual.on_not_whists": "only whists are written on another player: leave out 'on'",
    "manual.points": "points must be a whole number from {low} to {high}, got {value:q}",
    "manual.points_signed": (
        "gora points must be a whole number from {low} to {high}, not 0, got {value:q}"
    ),
    "manual.reason_missing": "a manual entry needs its reason",
    "manual.reason_long": "the reason is one line of at most {high} characters",
    "correction.manual_kind": (
        "a manual entry is corrected by a manual entry, and a deal by a deal"
    ),
    # A deal against the rules (docs/rules.md §3; docs/protocol.md, "Order and limits").
    "deal.pulka_over": "the pulka is already over",
    "deal.unknown_dealer": "unknown dealer {player:q}",
    "deal.unknown_player": "unknown player {player:q} in {what}",
    "deal.below_exit": "after the all-passes the lowest contract allowed is {low}, not {contract}",
    "deal.declarer_missing": "the declarer is missing",
    "deal.declarer_sits_out": "{player} sits out this deal and cannot declare",
    "deal.declarer_defends": "the declarer {player} cannot also be a defender",
    "deal.whister_sits_out": "{player} sits out this deal and cannot whist",
    "deal.bad_word": "{player}'s word must be whist, pass or half, not {value:q}",
    "deal.word_missing": "{player}'s word (whist, pass or half) is missing",
    "deal.unwhisted_tricks": "nobody whisted, so no tricks are played",
    "deal.prikup_range": "talon fast tricks must be 0 to 3, not {value:q}",
    "deal.half_not_allowed": "half-whist is not allowed on {level:a}",
    "deal.half_second_only": "half-whist is only for the second defender, after the first passed",
    "deal.half_tricks": "a half-whisted contract is not played: no tricks",
    "deal.tricks_missing": "the tricks are missing",
    "deal.tricks_sits_out": "{player} takes no tricks in this deal",
    "deal.tricks_range": "{player}'s tricks must be a whole number 0 to 10",
    "deal.player_tricks_missing": "{player}'s tricks are missing",
    "deal.tricks_total": "tricks add up to {total}, they must add up to 10",
    "deal.ten_checked": "a 10 is not whisted in this convention: it is checked, no half-whist",
    # Facts of docs/rules.md §3.10, each allowed by a convention option.
    "deal.flag_not_bool": "{name} must be true or false",
    "deal.flag_trick_contract_only": "{name} applies to a trick contract only",
    "deal.concede_not_allowed": "this convention does not allow conceding this contract without three",
    "deal.concede_tricks": "a conceded contract is not played: no tricks",
    "deal.half_one_only": "only one defender half-whists, after the other passed",
    "deal.returned_whist_not_allowed": (
        "this convention writes a whist returned after a half-whist as whist and pass"
    ),
    "deal.dealer_word": "the dealer {player}'s word must be whist or pass, not {value:q}",
    "deal.dealer_whist_after_pass": (
        "the dealer whists only when neither defender whisted (pass, or pass and half-whist)"
    ),
    "deal.dealer_whist_checked_ten": "a 10 is checked in this convention: nobody whists it",
    "deal.totus_not_allowed": "this convention has no totus of its own: record a 10",
    "deal.totus_level": "a totus is a 10",
    "deal.talon_shown_not_allowed": "this convention writes nothing for a shown talon",
    "deal.talon_shown_players": "a shown talon is penalised only with a dealer sitting out",
    "misere.whists": "a misère is not whisted: leave out whists",
    "misere.prikup": "a misère has no talon whists",
    "misere.tricks_missing": "the declarer's tricks on the misère are missing",
    "misere.tricks_range": "the declarer's tricks must be a whole number 0 to 10",
    "allpass.declarer": "an all-pass has no declarer",
    "allpass.whists": "an all-pass has no whists",
    "allpass.prikup": "an all-pass has no talon tricks",
    "allpass.dealer_tricks": "the dealer plays only the two talon cards: at most 2 tricks",
    # Convention options (docs/protocol.md, "Convention options").
    "option.int_range": "option {option} must be a whole number from {low} to {high}, got {value:q}",
    "option.choice": "option {option} must be one of {allowed:list}, got {value:q}",
    "option.bool": "option {option} must be true or false, got {value:q}",
    "option.prices_shape": "option prices needs a whole number for 6, 7, 8, 9, 10, misere",
    "option.prices_range": "option prices must lie between {low} and {high}",
    "option.int_list": "option {option} must be a list of whole numbers from {low} to {high}",
    "option.half_levels": "option half_whist_levels may hold only 6 and 7",
    "option.consolers": "option consolation may hold only whisters, passer and dealer",
    "option.concede_levels": "option concede_levels may hold each of 6 to 10 once",
    "option.consolers_twice": "option consolation names someone twice",
    "option.pulya_to_gora": "option pulya_to_gora must be 1 or 2, got {value:q}",
    "option.compensation": "option rounding_compensation_4 must be 2 or 3, got {value:q}",
    "option.needs_help": "option {option} needs help: help is off",
    "option.needs_gentleman": "option {option} needs gentleman whist: whist_style is 'greedy'",
    "option.writeoff_needs_help": "option help_writeoff 'pulya_rate' needs help: help is off",
    "option.amnesty_in_whists": (
        "option allpass_amnesty applies to all-pass in gora only: allpass_scoring is 'whists'"
    ),
    "option.dealer_talon_in_whists": (
        "option allpass_dealer_talon applies to all-pass in gora only: "
        "in whists the talon is never opened"
    ),
    "option.needs_dealer_talon": (
        "option {option} needs the dealer on the talon: allpass_dealer_talon is off"
    ),
    "option.scaled_bonus_in_whists": (
        "option allpass_zero_bonus 'pulya_scaled' applies to all-pass in gora only: "
        "allpass_scoring is 'whists'"
    ),
    "option.needs_returned_whist_alone": (
        "option {option} needs a returned whist played alone: returned_whist_alone is off"
    ),
    "option.order_needs_help": "option help_order 'clockwise' needs help: help is off",
    "option.needs_checked_ten": "option {option} needs a checked ten: ten is 'whisted'",
    "option.zero_bonus_dealer_both": (
        "option allpass_zero_bonus_excludes_dealer contradicts allpass_zero_bonus_dealer: "
        "turn one of them off"
    ),
    "option.needs_half_whist": (
        "option half_whist_played needs a level to half-whist on: half_whist_levels is empty"
    ),
    "option.not_list": "option {option} must be a list, got {value:q}",
    "option.prices_not_map": "option prices must be a map of 6..10 and misere to prices",
    "option.prices_unknown_key": "option prices has unknown key {key:q}",
    "option.prices_lacks": "option prices lacks {missing:list}",
    "option.unknown": "unknown option {option:q}",
    "options.not_map": "options must be a map of option names to values",
    "options.bad_value": "bad option value: {detail}",
    "convention.unknown": "unknown convention {value:q}: use one of {presets:list}",
    "convention.incomplete": "a convention spelled out must give every option: {option} is missing",
    "convention.not_spec": "convention must be a preset name or a map of options",
    # Tournament draws (docs/tournaments.md §3, §4.3).
    "seating.table_size": "tables have 3 or 4 players, not {size}",
    "seating.too_few": "a draw needs at least 3 players",
    "seating.not_threes": (
        "{players} players cannot sit at tables of 3: add {add} or remove {remove}"
    ),
    "seating.not_threes_fours": "{players} players cannot sit at tables of 3 and 4",
    "seating.entered_twice": "a player is entered twice",
    "seating.not_fours": "{players} players cannot sit at tables of 4 only",
    "seating.forbidden": "the forbidden pairs leave no way to seat this round",
    # Tournament standings (docs/tournaments.md §4.7, §4.8).
    "ranking.whists_per_player": "a table needs one whist result per player",
    "ranking.counts_per_player": "a table needs one set of counts per player",
    "ranking.sits_twice": "a player sits twice at one table",
    "ranking.unknown_normalisation": "unknown normalisation {value:q}",
    # The season table (docs/seasons.md).
    "season.unknown_measure": "unknown measure of an event {value:q}",
    "season.unknown_aggregate": "unknown aggregate {value:q}",
    "season.best_n_missing": "best N of M needs N of at least 1, got {value:q}",
    "season.negative_minimum": "the minimum attendance cannot be negative, got {value:q}",
    "season.unknown_tie_break": "unknown tie-break {value:q}",
    "season.coefficient_not_positive": "the coefficient of {value:q} must be above zero",
    "season.bad_coefficient": "the coefficient of {value:q} is not a number",
    "season.negative_top": "the number of qualifiers cannot be negative, got {value:q}",
    "season.yellow_cards_limit": "at least one yellow card must take a player out, got {value:q}",
    "ranking.unknown_tie_break": "unknown tie-break {value:q}",
    "ranking.tie_break_twice": "a tie-break is listed twice",
    "ranking.key_per_seat": "one key per seat is needed",
    "ranking.unknown_carry": "unknown carry {value:q}: kept, halved or cleared",
    "ranking.empty_cut": "a cut keeps at least one player",
}

# Where a deal error happened, outermost first: the deal of the log, the correction
# that replaced a deal, or a correction item whose ``correct`` is not a deal's number.
PLACES: dict[str, str] = {
    "deal": "deal {value}",
    "correction": "correction of deal {value}",
    "correction_item": "correction {value:q}",
}

Place = tuple[str, object]


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "q":
            return shown(value)
        if format_spec == "a":
            return f"{'an' if value in (8, 11, 18) else 'a'} {value}"
        if format_spec == "list":
            return ", ".join(map(str, value))
        return str(super().format_field(value, format_spec))


_FORMATTER = _Formatter()


def english(code: str, params: dict[str, Any]) -> str:
    """The English message of ``code`` with ``params`` (docs/protocol.md, "Bad input")."""
    return _FORMATTER.format(TEMPLATES[code], **params)


class ScoringError(ValueError):
    """Base of every engine error: a code of :data:`TEMPLATES` and its parameters."""

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in TEMPLATES:
            raise KeyError(f"no such error code: {code}")
        self.code = code
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        return english(self.code, self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its attributes: the constructors' signatures differ by class.
        return (_restore, (type(self), self.args, dict(self.__dict__)))


def _restore(cls: type[ScoringError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class ConventionError(ScoringError):
    """A convention option is unknown, of the wrong type, or contradicts another.

    ``option`` names the offending option (docs/protocol.md, "Convention options"), so a
    form can show the message next to its field; it is a parameter too.
    """

    def __init__(self, option: str, code: str, /, **params: Any) -> None:
        super().__init__(code, option=option, **params)
        self.option = option


class DealError(ScoringError):
    """A deal's facts break a rule; ``field`` names the fact at fault when known.

    ``number`` is the deal of the log that failed, ``places`` where the message says
    it happened (:data:`PLACES`), and ``corrects`` the deal a correction corrects.
    """

    def __init__(
        self,
        code: str,
        /,
        field: str | None = None,
        number: int | None = None,
        places: tuple[Place, ...] = (),
        **params: Any,
    ) -> None:
        super().__init__(code, **params)
        self.field = field
        self.number = number
        self.places = places

    @property
    def corrects(self) -> int | None:
        """The deal the failing correction corrects, when one does."""
        for kind, value in self.places:
            if kind == "correction" and isinstance(value, int):
                return value
        return None

    def at(self, kind: str, value: object, number: int | None = None) -> DealError:
        """The same error placed inside ``kind`` (:data:`PLACES`; docs/protocol.md, "Bad input")."""
        return DealError(
            self.code,
            self.field,
            self.number if number is None else number,
            ((kind, value), *self.places),
            **self.params,
        )

    def __str__(self) -> str:
        where = [_FORMATTER.format(PLACES[kind], value=value) for kind, value in self.places]
        return ": ".join([*where, english(self.code, self.params)])


class ProtocolError(ScoringError):
    """A pulka file is malformed (docs/protocol.md): the message names the deal or field."""

    @classmethod
    def of(cls, error: ConventionError) -> ProtocolError:
        """A convention error met reading a file (docs/protocol.md, "Input"): same code, params."""
        return cls(error.code, **error.params)


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr, on one line, cut to ``limit`` characters.

    Messages are one line that a person reads (docs/protocol.md, "Bad input"), so a 400-digit
    number or a name holding a line break must not spill over.
    """
    try:
        text = repr(value)
    except ValueError:  # an int too long to print (sys.set_int_max_str_digits)
        return f"a number of more than {limit} digits"
    return text if len(text) <= limit else text[: limit - 1] + "…"
