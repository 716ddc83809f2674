"""A convention's rules in plain words, generated from its options.

No preset has hand-written text: each option value turns into one translated sentence
(docs/rules.md §2–§3.7 say what each option means), so a club's own convention reads as
clearly as Sochi. Options that change nothing under the others (the number of deals
when the pulka does not end after a number of deals) give no sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine.conventions import Convention

from .models import OPTION_TOPICS
from .rules_text_defence import DEFENCE_SENTENCES
from .rules_text_facts import FACT_SENTENCES
from .rules_text_gchet import GCHET_SENTENCES, zero_bonus_scaled
from .rules_text_pu import PU_SENTENCES, help_clockwise
from .rules_text_rs import RS_SENTENCES


@dataclass(frozen=True, slots=True)
class RulesTopic:
    title: str
    sentences: tuple[str, ...]


def rules(conv: Convention) -> list[RulesTopic]:
    """Every option as a sentence, grouped by topic as the admin groups them."""
    topics = []
    for title, options in OPTION_TOPICS:
        sentences = tuple(s for s in (sentence(name, conv) for name in options) if s)
        topics.append(RulesTopic(str(title), sentences))
    return topics


def sentence(option: str, conv: Convention) -> str | None:
    """The sentence for one option, or None where it has no effect in this convention."""
    return _SENTENCES[option](conv)


def _numbers(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values)


def _prices(conv: Convention) -> str:
    six, seven, eight, nine, ten, misere = conv.prices
    return _(
        "A six costs %(six)s, a seven %(seven)s, an eight %(eight)s, a nine %(nine)s, "
        "a ten %(ten)s and a misère %(misere)s: a game made writes its price to the pulya."
    ) % {"six": six, "seven": seven, "eight": eight, "nine": nine, "ten": ten, "misere": misere}


def _whist_scale(conv: Convention) -> str:
    if conv.whist_scale == 1:
        return _("Each trick the defence takes is worth the contract's price in whists.")
    return _(
        "Each trick the defence takes is worth %(scale)s times the contract's price in whists."
    ) % {"scale": conv.whist_scale}


def _gora_scale(conv: Convention) -> str:
    if conv.gora_scale == 1:
        return _(
            "A declarer who goes down writes the contract's price to his gora for each "
            "missing trick."
        )
    return _(
        "A declarer who goes down writes %(scale)s times the contract's price to his gora "
        "for each missing trick."
    ) % {"scale": conv.gora_scale}


def _whist_style(conv: Convention) -> str:
    if conv.whist_style == "greedy":
        return _(
            "Whist is greedy (жлобский): with one whister and a passer on a failed contract, "
            "the whister writes all the defence's tricks."
        )
    return _(
        "Whist is gentlemanly (джентльменский): with one whister and a passer on a failed "
        "contract, the whister and the passer split the defence's trick whists equally."
    )


def _whister_liability(conv: Convention) -> str:
    if conv.whister_liability == "full":
        return _(
            "Whist is responsible (ответственный): a whister who falls short of the defence's "
            "tricks writes to his gora, per missing trick, as much as a declarer per undertrick."
        )
    return _(
        "Whist is half-responsible (полуответственный): a whister who falls short of the "
        "defence's tricks writes to his gora, per missing trick, half of what a declarer "
        "writes per undertrick."
    )


def _joint_liability(conv: Convention) -> str:
    if conv.joint_liability == "second":
        return _(
            "If two whisters take no trick against an eight, nine or ten, the second whister "
            "alone pays for the missing trick."
        )
    if conv.joint_liability == "second_own":
        return _(
            "Against an eight, nine or ten the second of two whisters pays for a missing trick "
            "whenever he took no trick himself, whatever the first whister took."
        )
    return _(
        "If two whisters take no trick against an eight, nine or ten, both pay for the "
        "missing trick."
    )


def _half_whist_levels(conv: Convention) -> str:
    levels = set(conv.half_whist_levels)
    if levels == {6, 7}:
        return _("Half-whist (полвиста) is allowed on a six and a seven.")
    if levels == {6}:
        return _("Half-whist (полвиста) is allowed on a six only.")
    if levels == {7}:
        return _("Half-whist (полвиста) is allowed on a seven only.")
    return _("Half-whist (полвиста) is not allowed.")


def _ten(conv: Convention) -> str:
    if conv.ten == "whisted":
        return _("A ten is whisted like any other contract.")
    return _(
        "A ten is not whisted but checked (проверяется): it is played out; made, it goes "
        "to the pulya, failed, to the gora with consolation."
    )


def _consolation(conv: Convention) -> str:
    names = {
        "whisters": _("the whisters"),
        "passer": _("the passer"),
        "dealer": _("the dealer sitting out"),
    }
    if not conv.consolation:
        return _("Nobody writes consolation on a declarer who goes down.")
    who = ", ".join(names[c] for c in conv.consolation)
    return _("Consolation (консоляция) on a declarer who goes down is written by: %(who)s.") % {
        "who": who
    }


def _consolation_unit(conv: Convention) -> str | None:
    if not conv.consolation:
        return None
    if conv.consolation_unit == "flat10":
        return _("Each of them writes a flat 10 whists per missing trick.")
    if conv.whist_scale == 1:
        return _("Each of them writes the contract's price per missing trick.")
    return _("Each of them writes %(scale)s times the contract's price per missing trick.") % {
        "scale": conv.whist_scale
    }


def _misere_consolation(conv: Convention) -> str:
    if conv.misere_consolation:
        return _("On a caught misère the others write 10 whists on the declarer per trick he took.")
    return _("A caught misère brings no consolation: only the declarer's gora grows.")


def _prikup_whists(conv: Convention) -> str:
    if conv.prikup_whists:
        return _(
            "Fast tricks the declarer finds in the talon earn whists on him (висты за прикуп), "
            "whether he makes the contract or not."
        )
    return _("The talon earns no whists.")


def _allpass_scoring(conv: Convention) -> str:
    if conv.allpass_scoring == "whists":
        return _(
            "All-pass (распасы) is played for whists, Rostov style: the player with the fewest "
            "tricks writes on each other player %(rate)s whists times the all-pass price for "
            "every trick that player took."
        ) % {"rate": conv.allpass_whist_rate}
    if conv.gora_scale == 1:
        return _(
            "All-pass (распасы) goes to the gora: each trick a player takes writes the "
            "all-pass price to his gora."
        )
    return _(
        "All-pass (распасы) goes to the gora: each trick a player takes writes %(scale)s "
        "times the all-pass price to his gora."
    ) % {"scale": conv.gora_scale}


def _allpass_ladder(conv: Convention) -> str:
    ladder = conv.allpass_ladder
    if len(set(ladder)) == 1:
        return _("The all-pass price is always %(price)s.") % {"price": ladder[0]}
    return _(
        "The all-pass price rises with each all-pass in a row: %(prices)s, and then stays "
        "at %(last)s."
    ) % {"prices": _numbers(ladder), "last": ladder[-1]}


def _allpass_amnesty(conv: Convention) -> str | None:
    if conv.allpass_scoring == "whists":
        return None
    if conv.allpass_amnesty:
        return _(
            "Amnesty (амнистия): before the all-pass is written, the smallest trick count "
            "is taken off everyone's."
        )
    return _("No amnesty: every trick taken on an all-pass is written.")


def _allpass_zero_bonus(conv: Convention) -> str:
    if conv.allpass_zero_bonus == "pulya_scaled":
        return zero_bonus_scaled(conv)
    if conv.allpass_zero_bonus == "pulya":
        return _(
            "A player who takes no trick on an all-pass writes the all-pass price to his pulya."
        )
    if conv.allpass_zero_bonus == "gora":
        return _(
            "A player who takes no trick on an all-pass takes the all-pass price off his gora."
        )
    if conv.allpass_zero_bonus == "gora_double":
        return _(
            "A player who takes no trick on an all-pass takes twice the all-pass price, "
            "times the gora scale, off his gora."
        )
    return _("Taking no trick on an all-pass earns nothing.")


def _allpass_dealer_talon(conv: Convention) -> str | None:
    if conv.allpass_scoring == "whists":
        return None
    if conv.allpass_dealer_talon:
        return _(
            "With four players the dealer plays the two talon cards on an all-pass and may "
            "take up to two tricks with them."
        )
    return _(
        "With four players the dealer sits the all-pass out: the talon only sets the suit "
        "of the first tricks."
    )


def _allpass_whist_rate(conv: Convention) -> None:
    # Said in the sentence on all-pass scoring, the only place it counts.
    return None


def _allpass_reset(conv: Convention) -> str:
    if conv.allpass_reset == "any_game":
        return _("A run of all-passes ends with any deal that is not an all-pass.")
    if conv.allpass_reset == "whisted_game":
        return _(
            "A run of all-passes ends only with a played contract that someone whisted, "
            "made or not."
        )
    return _RESET_SENTENCES[conv.allpass_reset]()


# The newer values of allpass_reset, one sentence each (docs/rules.md §3.3 "Streak reset").
_RESET_SENTENCES: dict[str, Callable[[], str]] = {
    "game_or_misere": lambda: _(
        "A run of all-passes ends with a contract written to the pulya or with any misère."
    ),
    "made_whisted_game": lambda: _(
        "A run of all-passes ends only with a contract that someone whisted and the declarer made."
    ),
    "made_game_or_misere": lambda: _(
        "A run of all-passes ends with a contract written to the pulya or a made misère; "
        "a caught misère leaves it going."
    ),
    "played_game_or_misere": lambda: _(
        "A run of all-passes ends with any contract or misère that is played, made or "
        "not; a contract nobody whists leaves it going."
    ),
    "made_played_game": lambda: _(
        "A run of all-passes ends only with a game played and made: a whisted contract, "
        "a misère or a checked ten."
    ),
}


def _allpass_zero_bonus_flat(conv: Convention) -> str | None:
    if not conv.allpass_zero_bonus_flat or conv.allpass_zero_bonus == "none":
        return None
    return _("The bonus for taking no trick counts the all-pass price as 1, however high it is.")


def _allpass_zero_bonus_dealer(conv: Convention) -> str | None:
    if not conv.allpass_zero_bonus_dealer or conv.allpass_zero_bonus == "none":
        return None
    return _(
        "With four players the dealer who takes no trick with the talon cards earns the "
        "bonus for no trick too."
    )


def _allpass_exit_round(conv: Convention) -> str | None:
    if not conv.allpass_exit_round:
        return None
    return _(
        "Once the lowest contract stops rising, the run of all-passes ends as soon as "
        "every player has been first hand since the first all-pass there."
    )


def _finish_after_allpass_run(conv: Convention) -> str | None:
    if not conv.finish_after_allpass_run:
        return None
    return _("The pulka does not end while a run of all-passes goes on: it ends after the run.")


def _allpass_max_run(conv: Convention) -> str:
    if conv.allpass_max_run is None:
        return _("A run of all-passes may be as long as the cards make it.")
    return ngettext(
        "After %(count)s all-pass in a row the run starts again: price and exit fall back.",
        "After %(count)s all-passes in a row the run starts again: price and exit fall back.",
        conv.allpass_max_run,
    ) % {"count": conv.allpass_max_run}


def _exit_ladder(conv: Convention) -> str:
    if set(conv.exit_ladder) == {6}:
        return _("A six may always be played, even right after all-passes.")
    return _(
        "Exit from all-passes (выход из распасов): the lowest contract allowed is %(levels)s "
        "after 0, 1, 2, … all-passes in a row; the last one repeats."
    ) % {"levels": _numbers(conv.exit_ladder)}


def _help(conv: Convention) -> str:
    if conv.help and conv.help_order == "clockwise":
        return help_clockwise()  # PU home (docs/rules.md §3.4)
    if conv.help:
        return _(
            "Help (помощь): a player whose pulya is closed gives his further pulya points to "
            "the largest unclosed pulya and writes 10 whists per point on its owner."
        )
    return _("There is no help: a closed pulya may grow past the target.")


def _help_excludes_remized_whister(conv: Convention) -> str | None:
    if not conv.help:
        return None
    if conv.help_excludes_remized_whister:
        return _(
            "A whister who has just gone down receives no help: the rest comes off the "
            "giver's gora."
        )
    return _("A whister who has just gone down may still receive help.")


def _help_excludes_dealer(conv: Convention) -> str | None:
    if not conv.help:
        return None
    if conv.help_excludes_dealer:
        return _("A dealer sitting out receives no help.")
    return _("A dealer sitting out may receive help.")


def _end(conv: Convention) -> str:
    if conv.deal_limit is not None and conv.end != "deals":
        return ngettext(
            "The pulka ends at the target or after %(count)s deal, whichever comes first.",
            "The pulka ends at the target or after %(count)s deals, whichever comes first.",
            conv.deal_limit,
        ) % {"count": conv.deal_limit}
    if conv.end == "all_closed":
        return _("The pulka ends when every pulya is closed.")
    if conv.end == "sum_reached":
        return _(
            "The pulka ends when the pulyas add up to the players' combined target; the "
            "last deal is written in full."
        )
    if conv.deal_limit is None:
        return _("The pulka ends after an agreed time or number of deals, as in tournaments.")
    return ngettext(
        "The pulka ends after %(count)s deal.",
        "The pulka ends after %(count)s deals.",
        conv.deal_limit,
    ) % {"count": conv.deal_limit}


def _deal_limit(conv: Convention) -> None:
    # Said in the sentence on the end of the pulka.
    return None


def _pulya_to_gora(conv: Convention) -> str:
    if conv.pulya_to_gora == 1:
        return _("At settlement each point a pulya lacks becomes a point of gora.")
    return _("At settlement each point a pulya lacks becomes two points of gora.")


def _rounding(conv: Convention) -> str:
    if conv.rounding == "codex":
        return _(
            "Results are made whole whists by the Кодекс (4.2.12): a gora moves by a point "
            "and the other players make up for it in whists."
        )
    return _("Results are rounded to whole whists by the largest remainder.")


def _rounding_adjusts(conv: Convention) -> str | None:
    if conv.rounding != "codex":
        return None
    if conv.rounding_adjusts == "pairwise":
        return _(
            "The points are moved on the goras the pairwise method cannot divide, so that it "
            "divides every gora exactly."
        )
    return _("The points are moved on the goras clockwise from the first seat.")


def _rounding_compensation_4(conv: Convention) -> str | None:
    if conv.rounding != "codex":
        return None
    return _("With four players each point moved is made up with %(count)s whists.") % {
        "count": conv.rounding_compensation_4
    }


def _indivisible_mountain(conv: Convention) -> str:
    if conv.indivisible_mountain:
        return _("With two players the gora is not halved (неделимая гора).")
    return _("With two players the difference of the goras is halved as usual.")


_SENTENCES: dict[str, Callable[[Convention], str | None]] = {
    "prices": _prices,
    "whist_scale": _whist_scale,
    "gora_scale": _gora_scale,
    "whist_style": _whist_style,
    "whister_liability": _whister_liability,
    "joint_liability": _joint_liability,
    "half_whist_levels": _half_whist_levels,
    "ten": _ten,
    "consolation": _consolation,
    "consolation_unit": _consolation_unit,
    "misere_consolation": _misere_consolation,
    "prikup_whists": _prikup_whists,
    "allpass_scoring": _allpass_scoring,
    "allpass_ladder": _allpass_ladder,
    "allpass_amnesty": _allpass_amnesty,
    "allpass_zero_bonus": _allpass_zero_bonus,
    "allpass_zero_bonus_flat": _allpass_zero_bonus_flat,
    "allpass_dealer_talon": _allpass_dealer_talon,
    "allpass_zero_bonus_dealer": _allpass_zero_bonus_dealer,
    "allpass_whist_rate": _allpass_whist_rate,
    "allpass_reset": _allpass_reset,
    "allpass_max_run": _allpass_max_run,
    "exit_ladder": _exit_ladder,
    "allpass_exit_round": _allpass_exit_round,
    "help": _help,
    "help_excludes_remized_whister": _help_excludes_remized_whister,
    "help_excludes_dealer": _help_excludes_dealer,
    "end": _end,
    "deal_limit": _deal_limit,
    "finish_after_allpass_run": _finish_after_allpass_run,
    "pulya_to_gora": _pulya_to_gora,
    "rounding": _rounding,
    "rounding_adjusts": _rounding_adjusts,
    "rounding_compensation_4": _rounding_compensation_4,
    "indivisible_mountain": _indivisible_mountain,
    **DEFENCE_SENTENCES,
    **FACT_SENTENCES,  # docs/rules.md §3.10
    **GCHET_SENTENCES,
    **PU_SENTENCES,
    **RS_SENTENCES,  # docs/rules.md §3.7, §3.10.7
}
