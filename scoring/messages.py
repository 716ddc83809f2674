"""The engine's errors in the reader's language: one translated message per error code.

The engine raises a code and its parameters (``scoring/engine/errors.py``); this table
is the only place that words them for people. Parameters that are English words of
the file format (option names, contract letters, Python's own messages) are rendered
in the reader's language or left out; the person's own input (player names, a value
quoted from the file) is shown as given.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from prefscore.clubs.names import isolate
from scoring.engine.errors import DealError, ProtocolError, ScoringError, shown
from scoring.option_fields import OPTION_FIELD_NAMES, ConventionOptions

_NOT_PLAYING = _("%(player)s does not play in this pulka.")
_WHOLE_FROM = _("Enter a whole number from %(low)s to %(high)s.")

MESSAGES: dict[str, Promise] = {
    # The pulka file (docs/protocol.md, "Input"): shown after "The file was not accepted:".
    "file.not_json": _("The file is not valid JSON: line %(line)s, column %(column)s."),
    "file.too_deep": _("The file is nested too deeply."),
    "file.bad_number": _(
        "The file holds a number that is not allowed: NaN, Infinity or an integer too long."
    ),
    "file.duplicate_key": _("The key %(name)s is given twice in one object."),
    "file.not_object": _("the file must hold one JSON object, a pulka."),
    "file.unknown_field": _("unknown field %(name)s."),
    "file.description": _("%(name)s must be one line of text of at most %(high)s characters."),
    "file.first_dealer": _("first_dealer %(value)s is not one of the players."),
    "file.options_not_map": _("options must be a map of option names to values."),
    "file.players_not_list": _("players must be a list of names in seating order."),
    "file.player_count": _("a pulka has %(low)s to %(high)s players, not %(count)s."),
    "file.name_empty": _("a player's name must be non-empty text."),
    "file.name_long": _("a player's name is at most %(high)s characters."),
    "file.name_control": _("a player's name must not hold control characters or line breaks."),
    "file.names_twice": _("two players have the same name."),
    "file.target_missing": _("target is missing: the pulya each player plays to."),
    "file.target_range": _("target must be a whole number from %(low)s to %(high)s."),
    "file.stake_not_number": _("stake must be a number."),
    "file.stake_range": _("stake must be a number from %(low)s to %(high)s."),
    "file.deals_not_list": _("deals must be a list."),
    "file.too_many_items": _(
        "a pulka has at most %(deals)s deals and %(corrections)s corrections."
    ),
    "pulka.too_many_deals": _("a pulka has at most %(high)s deals."),
    "pulka.too_many_corrections": _("a pulka has at most %(high)s corrections."),
    "pulka.too_much_refolding": _(
        "the corrections would re-score more than %(high)s deals: correct fewer early deals."
    ),
    "file.deal_not_object": _("deal %(number)s: each deal must be an object."),
    "file.sheet_players": _("sheet must give pulya, gora and whists for every player."),
    "file.sheet_row": _("the sheet of %(player)s must be an object."),
    "file.sheet_unknown_field": _("the sheet of %(player)s: unknown field %(name)s."),
    "file.sheet_whists_names": _("the whists of %(player)s must name the other players only."),
    "file.sheet_pulya": _(
        "the pulya of %(player)s must be a whole number from %(low)s to %(high)s."
    ),
    "file.sheet_gora": _("the gora of %(player)s must be a whole number from %(low)s to %(high)s."),
    "file.sheet_whists": _(
        "the whists of %(player)s must be whole numbers from %(low)s to %(high)s."
    ),
    "correction.not_a_number": _("correct must be the number of a deal."),
    "correction.fields": _("a correction needs correct and deal, and may give penalty."),
    "correction.deal_not_object": _("a correction's deal must be an object."),
    "correction.penalty_not_bool": _("a correction's penalty must be true or false."),
    "correction.no_such_deal": _("there is no such deal yet."),
    "correction.manual_kind": _(
        "a manual entry is corrected by a manual entry, and a deal by a deal."
    ),
    # A deal's fields as given (docs/protocol.md, a deal's fields).
    "deal.contract_missing": _("Choose the contract: 6 to 10, misère or all-pass."),
    "deal.contract_not_text": _("The contract must be text such as 6S."),
    "deal.contract_unknown": _(
        "Unknown contract %(value)s: 6 to 10 with an optional suit, misère or all-pass."
    ),
    "deal.suit_unknown": _("Unknown suit %(suit)s in the contract %(value)s."),
    "deal.declarer_not_name": _("The declarer must be a player's name."),
    "deal.dealer_not_name": _("The dealer must be a player's name."),
    "deal.prikup_not_whole": _("Talon fast tricks are a whole number from 0 to 3."),
    "deal.unknown_field": _("Unknown field %(name)s in a deal."),
    "deal.whists_not_map": _("The words must be a map of player names to words."),
    "deal.tricks_not_map": _("The tricks must be a map of player names to counts."),
    "deal.word_not_text": _("%(player)s: the word is whist, pass or half."),
    "deal.count_not_whole": _("%(player)s: tricks must be a whole number from 0 to 10."),
    # A deal against the rules (docs/rules.md §3; docs/protocol.md, "Order and limits").
    "deal.pulka_over": _("The pulka is already over."),
    "deal.unknown_dealer": _NOT_PLAYING,
    "deal.unknown_player": _NOT_PLAYING,
    "deal.below_exit": _(
        "After the all-passes the lowest contract allowed is %(low)s, not %(contract)s."
    ),
    "deal.declarer_missing": _("Choose the declarer."),
    "deal.declarer_sits_out": _("%(player)s sits out this deal and cannot declare."),
    "deal.declarer_defends": _("%(player)s declares: leave his word empty (—)."),
    "deal.whister_sits_out": _("%(player)s sits out this deal and cannot whist."),
    "deal.bad_word": _("%(player)s: the word is whist, pass or half."),
    "deal.word_missing": _("%(player)s: choose whist, pass or half."),
    "deal.unwhisted_tricks": _(
        "Nobody whisted, so the contract is not played: leave the tricks empty."
    ),
    "deal.prikup_range": _("Talon fast tricks are a whole number from 0 to 3."),
    "deal.half_not_allowed": _("Half-whist is not allowed on this contract (%(level)s)."),
    "deal.half_second_only": _(
        "Half-whist is only for the second defender, after the first passed."
    ),
    "deal.half_tricks": _("A half-whisted contract is not played: leave the tricks empty."),
    "deal.tricks_missing": _("Enter the tricks."),
    "deal.tricks_sits_out": _("%(player)s takes no tricks in this deal: leave his tricks empty."),
    "deal.tricks_range": _("%(player)s: tricks must be a whole number from 0 to 10."),
    "deal.player_tricks_missing": _("%(player)s: enter the tricks."),
    "deal.tricks_total": _("The tricks add up to %(total)s; they must add up to 10."),
    "deal.ten_checked": _(
        "A 10 is not whisted in this convention, it is checked: no half-whist on it."
    ),
    # Facts of docs/rules.md §3.10, each allowed by a convention option.
    "deal.flag_not_bool": _("%(name)s must be true or false."),
    "deal.flag_trick_contract_only": _(
        "Conceding, totus and a shown talon apply to a contract of 6 to 10 only."
    ),
    "deal.concede_not_allowed": _(
        "This convention does not allow conceding this contract without three."
    ),
    "deal.concede_tricks": _("A conceded contract is not played: leave the tricks empty."),
    "deal.half_one_only": _("Only one defender half-whists, after the other passed."),
    "deal.returned_whist_not_allowed": _(
        "A whist returned after a half-whist is recorded as whist and pass in this convention."
    ),
    "deal.dealer_word": _("%(player)s deals: his word is whist, or leave it empty."),
    "deal.dealer_whist_after_pass": _(
        "The dealer whists only when neither defender whisted (pass, or pass and half-whist)."
    ),
    "deal.dealer_whist_checked_ten": _(
        "A 10 is checked in this convention: the dealer does not whist it either."
    ),
    "deal.totus_not_allowed": _("This convention has no totus of its own: record a 10."),
    "deal.totus_level": _("A totus is a 10."),
    "deal.talon_shown_not_allowed": _("This convention writes nothing for a shown talon."),
    "deal.talon_shown_players": _(
        "A shown talon is penalised only when a dealer sits out (4 or 5 players)."
    ),
    "misere.whists": _("A misère is not whisted: leave every word empty (—)."),
    "misere.prikup": _("A misère has no talon whists."),
    "misere.tricks_missing": _("Enter the declarer's tricks on the misère."),
    "misere.tricks_range": _("The declarer's tricks must be a whole number from 0 to 10."),
    "allpass.declarer": _("An all-pass has no declarer."),
    "allpass.whists": _("An all-pass has no whists."),
    "allpass.prikup": _("An all-pass has no talon tricks."),
    "allpass.dealer_tricks": _("The dealer plays only the two talon cards: at most 2 tricks."),
    # A manual entry (docs/rules.md §3.11; docs/protocol.md, "Manual entries").
    "manual.not_object": _(
        "A manual entry gives the player, the section, the points and the reason."
    ),
    "manual.unknown_field": _("unknown field %(name)s in a manual entry."),
    "manual.section": _("Choose the pulya, the gora or the whists."),
    "manual.player_missing": _("Choose the player who writes the entry."),
    "manual.on_missing": _("Whists are written on another player: choose him."),
    "manual.not_name": _("Choose a player of this pulka."),
    "manual.on_self": _("%(player)s cannot write whists on himself."),
    "manual.on_not_whists": _("Only whists are written on another player: leave it empty."),
    "manual.points": _WHOLE_FROM,
    "manual.points_signed": _(
        "Enter a whole number from %(low)s to %(high)s other than 0: a minus writes off the gora."
    ),
    "manual.reason_missing": _("Give the reason for this entry."),
    "manual.reason_long": _("The reason is one line of at most %(high)s characters."),
    # Convention options (docs/protocol.md, "Convention options"), shown beside the option.
    "option.int_range": _WHOLE_FROM,
    "option.choice": _("Choose one of the values offered."),
    "option.bool": _("Tick the box or leave it empty."),
    "option.prices_shape": _(
        "Give a whole-number price for a six, a seven, an eight, a nine, a ten and a misère."
    ),
    "option.prices_range": _("A price must be a whole number from %(low)s to %(high)s."),
    "option.int_list": _(
        "Enter one to twenty whole numbers from %(low)s to %(high)s, "
        "separated by commas, for example 1, 2, 3."
    ),
    "option.half_levels": _("Half-whist can be allowed on a six and a seven only."),
    "option.consolers": _("Consolation comes only from the whisters, the passer and the dealer."),
    "option.consolers_twice": _("Name each consoler once."),
    "option.concede_levels": _("Conceding can be allowed on a six to a ten, each once."),
    "option.pulya_to_gora": _("Choose 1 or 2."),
    "option.compensation": _("Choose 2 or 3."),
    "option.needs_help": _("This applies only with help: turn help on, or untick this."),
    "option.writeoff_needs_help": _(
        "This applies only with help: turn help on, or write off one gora point per pulya point."
    ),
    "option.needs_gentleman": _(
        "This applies only to gentleman whist: choose gentleman whist, or untick this."
    ),
    "option.amnesty_in_whists": _(
        "Amnesty applies only to all-pass in the gora: untick it, or score all-pass in the gora."
    ),
    "option.dealer_talon_in_whists": _(
        "With all-pass in whists the talon is never opened: untick this, or score "
        "all-pass in the gora."
    ),
    "option.needs_dealer_talon": _(
        "This applies only when the dealer plays the talon: tick that, or untick this."
    ),
    "option.scaled_bonus_in_whists": _(
        "The price scaled to the gora applies only to all-pass in the gora: choose "
        "another bonus, or score all-pass in the gora."
    ),
    "option.needs_returned_whist_alone": _(
        "This applies only when a returned whist is played alone: tick that, or keep "
        "one consolation."
    ),
    "option.order_needs_help": _(
        "This applies only with help: turn help on, or give help to the largest pulya."
    ),
    "option.needs_checked_ten": _(
        "This applies only to a checked ten: choose a checked ten, or untick this."
    ),
    "option.zero_bonus_dealer_both": _(
        "This contradicts the bonus for the 4-player dealer on the talon: untick one of them."
    ),
    "option.needs_half_whist": _(
        "A half-whist is played out only where one is allowed: choose a level to "
        "half-whist on, or untick this."
    ),
    "option.not_list": _("Enter a list of values separated by commas."),
    "option.prices_not_map": _("Give the prices as a map of 6 to 10 and misere to whole numbers."),
    "option.prices_unknown_key": _("Unknown price %(key)s: prices are for 6 to 10 and misere."),
    "option.prices_lacks": _(
        "Give a price for every contract: a six, a seven, an eight, a nine, a ten and a misère."
    ),
    "option.unknown": _("unknown option %(name)s."),
    "options.not_map": _("options must be a map of option names to values."),
    "options.bad_value": _("an option has a value of the wrong kind."),
    "convention.unknown": _("unknown convention %(value)s: use a preset's name."),
    "convention.incomplete": _("a convention spelled out must give every option."),
    "convention.not_spec": _("convention must be a preset name or a map of options."),
    # Tournament draws and standings (docs/tournaments.md).
    "seating.table_size": _("Tables have 3 or 4 players, not %(size)s."),
    "seating.too_few": _("A draw needs at least 3 players."),
    "seating.not_threes": _(
        "%(players)s players cannot sit at tables of 3: add %(add)s or remove %(remove)s."
    ),
    "seating.not_threes_fours": _("%(players)s players cannot sit at tables of 3 and 4."),
    "seating.entered_twice": _("A player is entered twice."),
    "seating.not_fours": _("%(players)s players cannot sit at tables of 4 only."),
    "seating.forbidden": _("The forbidden pairs leave no way to seat this round."),
    "ranking.whists_per_player": _("A table needs one whist result per player."),
    "ranking.counts_per_player": _("A table needs one set of counts per player."),
    "ranking.sits_twice": _("A player sits twice at one table."),
    "ranking.unknown_normalisation": _("Unknown way of normalising the results."),
    "season.unknown_measure": _("Unknown measure of an event."),
    "season.unknown_aggregate": _("Unknown way of adding the events up."),
    "season.best_n_missing": _("Say how many of the best events count (at least 1)."),
    "season.negative_minimum": _("The minimum attendance cannot be negative."),
    "season.unknown_tie_break": _("Unknown tie-break."),
    "season.coefficient_not_positive": _("A convention's coefficient must be above zero."),
    "season.bad_coefficient": _("A convention's coefficient must be a number such as 4/3."),
    "season.negative_top": _("The number of qualifiers cannot be negative."),
    "season.yellow_cards_limit": _("At least one yellow card is needed to take a player out."),
    "ranking.unknown_tie_break": _("Unknown tie-break."),
    "ranking.tie_break_twice": _("A tie-break is listed twice."),
    "ranking.key_per_seat": _("One key per seat is needed."),
    "ranking.unknown_carry": _("Unknown carry: the results are kept, halved or cleared."),
    "ranking.empty_cut": _("A cut keeps at least one player."),
}

# Where a deal error happened (scoring/engine/errors.py, PLACES).
PLACES: dict[str, Promise] = {
    "deal": _("deal %(value)s: %(message)s"),
    "correction": _("correction of deal %(value)s: %(message)s"),
    "correction_item": _("correction %(value)s: %(message)s"),
}

# The person's own input, quoted as the engine quotes it.
_QUOTED = ("value", "name", "suit", "key")
_MISERE_SYMBOL = "M"  # contract.symbol of a misère (scoring/engine/contracts.py)


def message_for(error: ScoringError, *, places: bool = True) -> str:
    """The error in the active language; with ``places``, prefixed by where it happened.

    A convention error read from a file names its option, since no form field is
    beside it; ``places=False`` gives the message alone, for a caller that says where.
    """
    template = str(MESSAGES[error.code])
    text = template % _params(error)
    option = error.params.get("option")
    if isinstance(error, ProtocolError) and isinstance(option, str):
        label = option_label(option)
        if label:
            text = gettext("%(option)s: %(message)s") % {
                "option": label,
                "message": _lower_first(text, template),
            }
            template = ""
    if isinstance(error, DealError) and places:
        for kind, value in reversed(error.places):
            text = str(PLACES[kind]) % {
                "value": shown(value) if kind == "correction_item" else value,
                "message": _lower_first(text, template),
            }
            template = str(PLACES[kind])
    return text


def option_label(option: str) -> str:
    """An option's name as the convention pages show it; "" when it has none."""
    if option == "prices":
        return gettext("Prices")
    if option not in OPTION_FIELD_NAMES:
        return ""
    return str(getattr(ConventionOptions._meta.get_field(option), "verbose_name", option))


def _params(error: ScoringError) -> dict[str, Any]:
    params: dict[str, Any] = dict(error.params)
    for key in _QUOTED:
        if key in params:
            params[key] = shown(params[key])
    if "option" in params and "name" not in params:
        params["name"] = shown(params["option"])
    if params.get("contract") == _MISERE_SYMBOL:
        params["contract"] = gettext("misère")
    if isinstance(params.get("player"), str):  # a name from the file, in any script
        params["player"] = isolate(params["player"])
    return params


def _lower_first(text: str, template: str) -> str:
    """A sentence continued after a colon starts in lower case, a name as it is."""
    if not text or template.startswith("%("):
        return text
    return text[0].lower() + text[1:]
