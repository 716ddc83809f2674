"""Charts as SVG geometry, computed here so that templates only place it (no JS library).

A chart is a view model: the paths, bars and labels in the SVG's own coordinates,
plus the figures as rows for its text alternative (a table beside it). Colours are
CSS classes (``chart__series--0`` …), so print and high contrast restyle them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

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
