"""Figures and notation as players write them: sheet points, settlement results, money,
and the 4.2.11 notation in the reader's language; and figures drawn as charts.

Every number a table screen prints goes through one of these, so that the sheet, the
protocol and the settlement spell the same figure the same way.

The engine writes a deal's notation as the Кодекс does (``7БК``, ``7♠/пас``,
``6♠/уход``: docs/protocol.md, "Output"), the same in every language, since files and
exports keep it. The pages show it in the page's language: on an English page
``7NT``, ``7♠/pass``, ``6♠/conceded``; on a Russian page as the Кодекс writes it.

Charts (below) are SVG geometry, computed here so that templates only place it (no JS library).

A chart is a view model: the paths, bars and labels in the SVG's own coordinates,
plus the figures as rows for its text alternative (a table beside it). Colours are
CSS classes (``chart__series--0`` …), so print and high contrast restyle them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    version before did, and ``number_format`` is the dearest part of the chart."""
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


# --- charts ----------------------------------------------------------------------------

WIDTH, HEIGHT = 320, 180
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 58, 12, 12, 24


@dataclass(frozen=True, slots=True)
class Tick:
    y: str
    label: str


@dataclass(frozen=True, slots=True)
class Line:
    label: str
    css: str  # chart__series--N
    path: str  # the SVG path's d
    end_x: str
    end_y: str


@dataclass(frozen=True, slots=True)
class LineChart:
    width: int
    height: int
    lines: tuple[Line, ...]
    ticks: tuple[Tick, ...]
    zero_y: str
    left: int
    right: int
    x_label: str

    @property
    def tick_x(self) -> int:
        return self.left - 4


@dataclass(frozen=True, slots=True)
class Bar:
    x: str
    y: str
    width: str
    height: str
    css: str
    label: str  # what it shows, for a tooltip-like <title>


@dataclass(frozen=True, slots=True)
class BarGroup:
    label: str
    label_x: str
    bars: tuple[Bar, ...]


@dataclass(frozen=True, slots=True)
class BarChart:
    width: int
    height: int
    groups: tuple[BarGroup, ...]
    ticks: tuple[Tick, ...]
    base_y: str
    left: int
    right: int

    @property
    def tick_x(self) -> int:
        return self.left - 4

    @property
    def label_y(self) -> int:
        return self.height - 6


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def line_chart(
    series: Sequence[tuple[str, Sequence[Fraction]]],
    *,
    label_of: Callable[[Fraction], str] = str,
    x_label: str = "",
) -> LineChart | None:
    """Lines over a shared x axis (the n-th value of each series at x = n); None if empty.

    The y axis spans every value and zero, with a tick at the bottom, zero and the top.
    """
    values = [v for _name, points in series for v in points]
    if not values:
        return None
    low, high = min(min(values), Fraction(0)), max(max(values), Fraction(0))
    if low == high:
        high = low + 1
    count = max(len(points) for _name, points in series)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x_of(index: int) -> float:
        return PAD_LEFT + (inner_w * index / (count - 1) if count > 1 else inner_w / 2)

    # (high - value) / (high - low) as one quotient of integers: the float Fraction's
    # arithmetic gives (both are the correctly rounded quotient), without a Fraction
    # made and reduced per operation: the balance chart has a point per deal and player.
    a, b = high.numerator, high.denominator
    span = a * low.denominator - low.numerator * b  # (high - low) * b * low's denominator

    def y_of(value: Fraction) -> float:
        p, q = value.numerator, value.denominator
        return PAD_TOP + (a * q - p * b) * low.denominator / (q * span) * inner_h

    lines = []
    for number, (name, points) in enumerate(series):
        if not points:
            continue
        steps = [f"{_fmt(x_of(i))},{_fmt(y_of(v))}" for i, v in enumerate(points)]
        lines.append(
            Line(
                label=name,
                css=f"chart__series--{number % 6}",
                path="M" + " L".join(steps),
                end_x=_fmt(x_of(len(points) - 1)),
                end_y=_fmt(y_of(points[-1])),
            )
        )
    marks = sorted({low, Fraction(0), high})
    ticks = tuple(Tick(_fmt(y_of(v)), label_of(v)) for v in marks)
    zero = _fmt(y_of(Fraction(0)))
    return LineChart(WIDTH, HEIGHT, tuple(lines), ticks, zero, PAD_LEFT, WIDTH - PAD_RIGHT, x_label)


def bar_chart(
    groups: Sequence[tuple[str, Sequence[tuple[int, str, str]]]],
) -> BarChart | None:
    """Groups of side-by-side bars: ``(group label, [(count, css, title), …])``; None if empty."""
    counts = [count for _label, bars in groups for count, _css, _title in bars]
    if not counts or max(counts) == 0:
        return None
    top = max(counts)
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    slot = inner_w / len(groups)
    base = PAD_TOP + inner_h
    made: list[BarGroup] = []
    for index, (label, bars) in enumerate(groups):
        width = slot * 0.8 / max(1, len(bars))
        start = PAD_LEFT + index * slot + slot * 0.1
        shapes = []
        for k, (count, css, title) in enumerate(bars):
            height = inner_h * count / top
            shapes.append(
                Bar(
                    _fmt(start + k * width),
                    _fmt(base - height),
                    _fmt(width),
                    _fmt(height),
                    css,
                    title,
                )
            )
        made.append(BarGroup(label, _fmt(PAD_LEFT + index * slot + slot / 2), tuple(shapes)))
    ticks = (Tick(_fmt(base), "0"), Tick(_fmt(PAD_TOP), str(top)))
    return BarChart(WIDTH, HEIGHT, tuple(made), ticks, _fmt(base), PAD_LEFT, WIDTH - PAD_RIGHT)


# --- the sheet screen: each player's balance after every deal ---------------------------

MAX_POINTS = 120  # a line of at most this many points, whatever the number of deals
# The table's rows, grouped this many at a time.
CHUNK_ROWS = 20


@dataclass(frozen=True, slots=True)
class BalanceRow:
    """One deal in the chart's text alternative: its number and each player's balance."""

    number: int
    balances: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BalanceChart:
    chart: LineChart
    names: tuple[str, ...]
    rows: tuple[BalanceRow, ...]
    # The rows, CHUNK_ROWS at a time: each chunk's rendering is kept by its content.
    chunks: tuple[tuple[BalanceRow, ...], ...] = ()


def sampled(count: int, most: int = MAX_POINTS) -> list[int]:
    """Indexes 0..count-1 to draw: every one up to ``most``, else evenly spaced with the last."""
    if count <= most:
        return list(range(count))
    step = (count - 1) / (most - 1)
    return sorted({round(k * step) for k in range(most)} | {count - 1})


def balance_chart(
    names: Sequence[str],
    balances: Sequence[Sequence[Fraction]],
    label_of: Callable[[Fraction], str],
    x_label: str,
) -> BalanceChart | None:
    """The balance of each player after every deal (``scoring.engine.stats``), as lines."""
    if not balances:
        return None
    picked = sampled(len(balances))
    series = [(name, [balances[i][seat] for i in picked]) for seat, name in enumerate(names)]
    chart = line_chart(series, label_of=label_of, x_label=x_label)
    assert chart is not None
    rows = tuple(BalanceRow(i + 1, tuple(label_of(value) for value in balances[i])) for i in picked)
    chunks = tuple(rows[k : k + CHUNK_ROWS] for k in range(0, len(rows), CHUNK_ROWS))
    return BalanceChart(chart, tuple(names), rows, chunks)
