"""Figures and notation as players write them: sheet points, settlement results, money,
and the 4.2.11 notation in the reader's language.

Every number a table screen prints goes through one of these, so that the sheet, the
protocol and the settlement spell the same figure the same way.

The engine writes a deal's notation as the Кодекс does (``7БК``, ``7♠/пас``,
``6♠/уход``: docs/protocol.md, "Output"), the same in every language, since files and
exports keep it. The pages show it in the page's language: on an English page
``7NT``, ``7♠/pass``, ``6♠/conceded``; on a Russian page as the Кодекс writes it.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any

from django.core.signals import setting_changed
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext, gettext_lazy

from scoring.engine.numbers import Points

MINUS = "\u2212"
_FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def format_points(value: Points) -> str:
    """A sheet figure as players write it: ``12``, ``−3``, ``12½`` (never a float)."""
    if type(value) is int:  # nearly every figure: skip the Fraction
        return str(value) if value >= 0 else MINUS + str(-value)
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    value = abs(value)
    whole = int(value)
    rest = value - whole
    if not rest:
        return f"{sign}{whole}"
    if rest in _FRACTIONS:
        return f"{sign}{whole or ''}{_FRACTIONS[rest]}"
    return f"{sign}{whole} {rest.numerator}/{rest.denominator}"


def format_result(value: Points | Decimal, places: int = 2) -> str:
    """A settlement figure: whole as it is, else two decimals in the page's language."""
    number = Decimal(value) if isinstance(value, int | Decimal) else _decimal(value)
    if number == number.to_integral_value():
        text = number_format(int(number), use_l10n=True)
    else:
        text = number_format(number.quantize(Decimal(1).scaleb(-places)), places, use_l10n=True)
    return text.replace("-", MINUS)


def _decimal(value: Points | float) -> Decimal:
    fraction = Fraction(value)
    return Decimal(fraction.numerator) / Decimal(fraction.denominator)


def format_money(value: Decimal) -> str:
    """Money at the stake: as many decimals as it has, at least none (4.6, −0.9, 12)."""
    normal = value.normalize()
    places = max(0, -normal.as_tuple().exponent)  # type: ignore[operator]
    return format_result(normal, places)


def signed(value: Points | Decimal | float, places: int | None = 2) -> str:
    """A result beside a name: ``+29``, ``−103`` (a true minus sign), ``0``, ``+27.5``.

    Rounded to ``places`` decimals (None: as it is, for money) and written without
    trailing zeros, in the page's language.
    """
    number = value if isinstance(value, Decimal) else _decimal(value)
    if places is not None:
        number = number.quantize(Decimal(1).scaleb(-places))
    text = format_money(number)
    return f"+{text}" if number > 0 else text


@lru_cache(maxsize=8192)
def _signed_in(language: str, value: Fraction) -> str:
    return signed(value)


def signed_remembered() -> Callable[[Fraction], str]:
    """``signed`` in the page's language, each figure remembered: the balance chart
    writes every deal's balances again on each version, nearly all of them as the
    version before did, and ``number_format`` is the dearest part of the chart (issue 16)."""
    return partial(_signed_in, get_language() or "")


def _forget_formats(**_: Any) -> None:
    # A test that changes the number formats (USE_THOUSAND_SEPARATOR…) must not read
    # figures written under the old ones.
    _signed_in.cache_clear()


setting_changed.connect(_forget_formats)


# --- the notation in the reader's language (docs/protocol.md) --------------------------

NO_TRUMPS = gettext_lazy("NT")  # БК in Russian (stats/presenters.py says the same)

# The Russian marks of the notation, each with its translation (the Russian
# catalogue gives each mark back as the Кодекс writes it).
_MARKS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("БК", lambda: gettext("NT")),
    ("/пас", lambda: "/" + gettext("pass")),
    ("/уход", lambda: "/" + gettext("conceded")),  # without three (docs/rules.md §3.10.1)
)


def reader_notation(notation: str) -> str:
    """``notation`` with its Russian marks in the active language (docs/protocol.md)."""
    for mark, translated in _MARKS:
        if mark in notation:
            notation = notation.replace(mark, translated())
    return notation


def no_trumps() -> str:
    """The no-trump mark in the active language: ``БК`` in Russian, ``NT`` in English."""
    return gettext("NT")
