"""Geometry of the drawn score sheet (docs/design.md, "The drawn sheet"): where each field is.

Plain arithmetic on points, cached per number of players: the presenters put the
figures into the fields computed here (``text.py`` fits them) and the template only
places them.

The sheet is a rectangle (a square for four players) cut into one sector per player
by lines from a central circle. Each sector lies against one edge of the sheet, the
edge its player sits at; inside it, from the centre out, come the gora, the pulya and
the whists, split into one field per opponent. Bands run parallel to that edge, as on
paper; text stays upright so that a phone held upright reads every sector.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Point = tuple[float, float]

# Sheet units; the SVG viewBox scales them to the screen.
MARGIN = 34.0  # room around the sheet for the players' names
CIRCLE = 40.0
PAD = 6.0


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle inside a field, where its text goes."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True, slots=True)
class NameSpot:
    """Where a player's name is written, outside his edge of the sheet."""

    x: float
    y: float
    rotate: int  # degrees: 0, -90 (left edge) or 90 (right edge)
    length: float  # room along the edge


@dataclass(frozen=True, slots=True)
class SeatArea:
    """One player's sector: the text boxes of his gora, pulya and whist fields."""

    side: str
    gora: Box
    pulya: Box
    whists: tuple[tuple[int, Box], ...]  # (opponent seat, box), in drawing order
    name: NameSpot


@dataclass(frozen=True, slots=True)
class Layout:
    width: float
    height: float
    centre: Point
    radius: float
    lines: tuple[Segment, ...]
    seats: tuple[SeatArea, ...]

    @property
    def view_box(self) -> str:
        return " ".join(
            _num(v) for v in (-MARGIN, -MARGIN, self.width + 2 * MARGIN, self.height + 2 * MARGIN)
        )


@dataclass(frozen=True, slots=True)
class _Sector:
    polygon: tuple[Point, ...]  # convex, clockwise or not
    side: str  # the edge the player sits at
    name: NameSpot


@dataclass(frozen=True, slots=True)
class _Plan:
    width: float
    height: float
    centre: Point
    cuts: tuple[Point, ...]  # where the lines from the circle meet the edge
    sectors: tuple[_Sector, ...]  # clockwise from the first seat
    # Share of a sector's depth (edge to centre) taken by the whists, then by the pulya:
    # more for the whists where they are split into many fields.
    whists_depth: float = 0.4
    pulya_depth: float = 0.2


def _plan(size: int) -> _Plan:
    """Where each player's sector lies, clockwise from the bottom (the first seat)."""
    if size == 2:
        return _two()
    if size == 3:
        return _three()
    if size == 4:
        return _four()
    if size == 5:
        return _five()
    raise ValueError(f"a pulka has 2 to 5 players, not {size}")


def _below(w: float, h: float, x: float, length: float) -> NameSpot:
    return NameSpot(x, h + MARGIN / 2, 0, length)


def _above(x: float, length: float) -> NameSpot:
    return NameSpot(x, -MARGIN / 2, 0, length)


def _left(y: float, length: float) -> NameSpot:
    return NameSpot(-MARGIN / 2, y, -90, length)


def _right(w: float, y: float, length: float) -> NameSpot:
    return NameSpot(w + MARGIN / 2, y, 90, length)


def _two() -> _Plan:
    """Гусарик: the sheet halved across, one half per player."""
    w, h = 600.0, 680.0
    c = (w / 2, h / 2)
    bottom = ((0.0, c[1]), (w, c[1]), (w, h), (0.0, h))
    top = ((0.0, 0.0), (w, 0.0), (w, c[1]), (0.0, c[1]))
    return _Plan(
        w,
        h,
        c,
        ((0.0, c[1]), (w, c[1])),
        (
            _Sector(bottom, "bottom", _below(w, h, w / 2, w)),
            _Sector(top, "top", _above(w / 2, w)),
        ),
        whists_depth=0.42,
    )


def _three() -> _Plan:
    """The classic three: lines to the two lower corners and up to the top edge."""
    w, h = 600.0, 760.0
    c = (w / 2, 340.0)
    bottom = ((0.0, h), (w, h), c)
    left = ((0.0, 0.0), (c[0], 0.0), c, (0.0, h))
    right = ((c[0], 0.0), (w, 0.0), (w, h), c)
    return _Plan(
        w,
        h,
        c,
        ((0.0, h), (c[0], 0.0), (w, h)),
        (
            _Sector(bottom, "bottom", _below(w, h, w / 2, w)),
            _Sector(left, "left", _above(w / 4, w / 2)),
            _Sector(right, "right", _above(3 * w / 4, w / 2)),
        ),
    )


def _four() -> _Plan:
    """A square cut along its diagonals: one triangle per player."""
    w = h = 640.0
    c = (w / 2, h / 2)
    corners = ((0.0, h), (0.0, 0.0), (w, 0.0), (w, h))
    return _Plan(
        w,
        h,
        c,
        corners,
        (
            _Sector(((0.0, h), (w, h), c), "bottom", _below(w, h, w / 2, w)),
            _Sector(((0.0, 0.0), c, (0.0, h)), "left", _left(h / 2, h)),
            _Sector(((0.0, 0.0), (w, 0.0), c), "top", _above(w / 2, w)),
            _Sector(((w, 0.0), (w, h), c), "right", _right(w, h / 2, h)),
        ),
        whists_depth=0.35,
        pulya_depth=0.17,
    )


def _five() -> _Plan:
    """Five sectors: the bottom, two on each long side (the upper ones reach the top)."""
    w, h = 640.0, 900.0
    c = (w / 2, 420.0)
    side = 340.0  # where the side lines meet the edges, a little above the circle
    low = (h + side) / 2
    return _Plan(
        w,
        h,
        c,
        ((0.0, h), (0.0, side), (c[0], 0.0), (w, side), (w, h)),
        (
            _Sector(((0.0, h), (w, h), c), "bottom", _below(w, h, w / 2, w)),
            _Sector(((0.0, side), c, (0.0, h)), "left", _left(low, h - side)),
            _Sector(((0.0, 0.0), (c[0], 0.0), c, (0.0, side)), "left", _above(w / 4, w / 2)),
            _Sector(((c[0], 0.0), (w, 0.0), (w, side), c), "right", _above(3 * w / 4, w / 2)),
            _Sector(((w, side), (w, h), c), "right", _right(w, low, h - side)),
        ),
        whists_depth=0.44,
    )


# --- convex polygon helpers ----------------------------------------------------------


def _depth_axis(side: str) -> int:
    """Which coordinate grows from the player's edge toward the centre: 0 = x, 1 = y."""
    return 1 if side in ("bottom", "top") else 0


def _at_depth(side: str, depth: float, w: float, h: float) -> float:
    """The coordinate of the line at ``depth`` from the player's edge."""
    if side == "bottom":
        return h - depth
    if side == "right":
        return w - depth
    return depth


def _clip(polygon: tuple[Point, ...], axis: int, low: float, high: float) -> tuple[Point, ...]:
    """The part of a convex polygon with ``low ≤ p[axis] ≤ high`` (Sutherland–Hodgman)."""
    points = list(polygon)
    for bound, keep_above in ((low, True), (high, False)):
        kept: list[Point] = []
        for i, current in enumerate(points):
            previous = points[i - 1]
            inside_now = (current[axis] >= bound) if keep_above else (current[axis] <= bound)
            inside_before = (previous[axis] >= bound) if keep_above else (previous[axis] <= bound)
            if inside_now != inside_before:
                kept.append(_cross(previous, current, axis, bound))
            if inside_now:
                kept.append(current)
        points = kept
    return tuple(points)


def _cross(a: Point, b: Point, axis: int, value: float) -> Point:
    t = (value - a[axis]) / (b[axis] - a[axis])
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


def _extent(polygon: tuple[Point, ...], axis: int, value: float) -> tuple[float, float] | None:
    """Where the line ``p[axis] == value`` runs inside a convex polygon (other coordinate)."""
    other = 1 - axis
    found: list[float] = []
    for i, b in enumerate(polygon):
        a = polygon[i - 1]
        if a[axis] == b[axis]:
            if a[axis] == value:
                found += [a[other], b[other]]
            continue
        if min(a[axis], b[axis]) <= value <= max(a[axis], b[axis]):
            found.append(_cross(a, b, axis, value)[other])
    if not found:
        return None
    return min(found), max(found)


def _span(polygon: tuple[Point, ...], axis: int) -> tuple[float, float]:
    values = [p[axis] for p in polygon]
    return min(values), max(values)


def _chord(polygon: tuple[Point, ...], axis: int, value: float) -> Segment | None:
    extent = _extent(polygon, axis, value)
    if extent is None or extent[1] - extent[0] < 1:
        return None
    if axis == 0:
        return Segment(value, extent[0], value, extent[1])
    return Segment(extent[0], value, extent[1], value)


def _inscribed_box(polygon: tuple[Point, ...], axis: int) -> Box:
    """The largest upright rectangle found in a convex polygon, kept off its lines.

    Tries sub-ranges of the polygon along ``axis``; for a convex polygon the width
    free over a range is the overlap of its widths at the two ends.
    """
    low, high = _span(polygon, axis)
    steps = 12
    marks = [low + (high - low) * k / steps for k in range(steps + 1)]
    best: tuple[float, float, float, float, float] | None = None
    for i, a in enumerate(marks):
        for b in marks[i + 1 :]:
            ea, eb = _extent(polygon, axis, a), _extent(polygon, axis, b)
            if ea is None or eb is None:
                continue
            start, end = max(ea[0], eb[0]), min(ea[1], eb[1])
            area = (end - start) * (b - a)
            if end > start and (best is None or area > best[0]):
                best = (area, a, b, start, end)
    if best is None:
        return Box(0, 0, 0, 0)
    _, a, b, start, end = best
    along = (a + PAD, max(0.0, b - a - 2 * PAD))
    across = (start + PAD, max(0.0, end - start - 2 * PAD))
    if axis == 1:
        return Box(across[0], along[0], across[1], along[1])
    return Box(along[0], across[0], along[1], across[1])


def _centroid(polygon: tuple[Point, ...]) -> Point:
    return (
        sum(p[0] for p in polygon) / len(polygon),
        sum(p[1] for p in polygon) / len(polygon),
    )


# --- the layout ----------------------------------------------------------------------


@lru_cache(maxsize=8)
def layout(size: int) -> Layout:
    """The sheet for ``size`` players: every line to draw and every field's text box."""
    plan = _plan(size)
    cx, cy = plan.centre
    lines: list[Segment] = []
    for x, y in plan.cuts:
        dx, dy = x - cx, y - cy
        length = (dx * dx + dy * dy) ** 0.5
        lines.append(Segment(cx + CIRCLE * dx / length, cy + CIRCLE * dy / length, x, y))
    seats = []
    for seat, sector in enumerate(plan.sectors):
        area, sector_lines = _seat_area(plan, seat, sector)
        seats.append(area)
        lines.extend(sector_lines)
    return Layout(plan.width, plan.height, plan.centre, CIRCLE, tuple(lines), tuple(seats))


def _seat_area(plan: _Plan, seat: int, sector: _Sector) -> tuple[SeatArea, list[Segment]]:
    w, h = plan.width, plan.height
    axis = _depth_axis(sector.side)
    centre_depth = abs(plan.centre[axis] - _at_depth(sector.side, 0, w, h))
    whists_end = plan.whists_depth * centre_depth
    depths = (0.0, whists_end, whists_end + plan.pulya_depth * centre_depth)
    gora_end = centre_depth - CIRCLE - PAD

    def band(start: float, end: float) -> tuple[Point, ...]:
        a, b = _at_depth(sector.side, start, w, h), _at_depth(sector.side, end, w, h)
        return _clip(sector.polygon, axis, min(a, b), max(a, b))

    lines = [
        chord
        for depth in depths[1:]
        if (chord := _chord(sector.polygon, axis, _at_depth(sector.side, depth, w, h)))
    ]
    whists_band = band(depths[0], depths[1])
    fields, separators = _whist_fields(plan, seat, sector, whists_band, depths[1])
    lines.extend(separators)
    area = SeatArea(
        sector.side,
        _inscribed_box(band(depths[2], gora_end), axis),
        _inscribed_box(band(depths[1], depths[2]), axis),
        fields,
        sector.name,
    )
    return area, lines


def _whist_fields(
    plan: _Plan, seat: int, sector: _Sector, whists_band: tuple[Point, ...], inner: float
) -> tuple[tuple[tuple[int, Box], ...], list[Segment]]:
    """Split the whists band into one field per opponent, each beside that opponent.

    Fields are equal along the band's inner edge; opponents are ordered by where their
    sectors lie along the band, so a field faces the player it is written on.
    """
    axis = _depth_axis(sector.side)
    across = 1 - axis
    opponents = [s for s in range(len(plan.sectors)) if s != seat]
    opponents.sort(
        key=lambda s: (
            _centroid(plan.sectors[s].polygon)[across],
            _centroid(plan.sectors[s].polygon)[axis],
        )
    )
    inner_line = _at_depth(sector.side, inner, plan.width, plan.height)
    extent = _extent(sector.polygon, axis, inner_line) or _span(whists_band, across)
    step = (extent[1] - extent[0]) / len(opponents)
    cuts = [extent[0] + step * k for k in range(1, len(opponents))]
    bounds = [_span(whists_band, across)[0], *cuts, _span(whists_band, across)[1]]
    fields = tuple(
        (opponent, _inscribed_box(_clip(whists_band, across, bounds[k], bounds[k + 1]), axis))
        for k, opponent in enumerate(opponents)
    )
    separators = [chord for cut in cuts if (chord := _chord(whists_band, across, cut))]
    return fields, separators


def _num(value: float) -> str:
    """A coordinate as SVG wants it, whatever the page's language: dot decimals."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


num = _num
