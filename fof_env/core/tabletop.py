"""Tabletop geometry: a rectangular table discretised into a square grid of points.

Miniatures rules measure in inches on an open table. The engines keep the inch
geometry but restrict unit positions to the *points* of a square grid: with a
36" x 36" table and a 2" spacing the points sit at x = 1, 3, ..., 35 and
y = 1, 3, ..., 35 (18 x 18 = 324 points). ``y`` grows southward: row 0 is the north
edge, column 0 the west edge; point index ``p = row * ncols + col``. Points are
named ``"x05y11"`` (inches, two digits).

Terrain is a list of :class:`Feature`: area features (woods, buildings, stream
banks) are axis-aligned rectangles, walls are line segments. Everything the rules
ask about pairs of points (distance, line of sight, cover) is precomputed once with
numpy in the constructor and exposed as plain Python lists/bytes for fast per-item
access on the hot path. The exact rules are in the docstrings of :class:`Table`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Defence dice an area gives a unit inside it (003 "Cover Dice": Solid +1D, Improved +2D,
# Fortified +3D, Reinforced Fortification +4D); a crossing wall gives Solid cover (+1D).
COVER_DICE = {
    "woods": 1,
    "building": 1,
    "stream_bank": 1,
    "improved_position": 2,
    "fortified_position": 3,
    "reinforced_fortification": 4,
}
MAX_COVER_DICE = 4
AREA_KINDS = tuple(COVER_DICE)
LINE_KINDS = ("wall",)
FEATURE_KINDS = AREA_KINDS + LINE_KINDS
BLOCKING_KINDS = ("woods", "building")
SIDES = ("west", "east", "north", "south")

LOS_SAMPLE_STEP_IN = 0.25  # samples along a sight line are at most this far apart
SEE_THROUGH_IN = 2.0  # a unit sees out of / is seen in the outer 2" of a wood or building
EXPOSED_CLEARANCE_IN = 2.0  # a point is exposed if no feature is within this distance
_EPS = 1e-9


@dataclass(frozen=True)
class Feature:
    """One piece of terrain.

    ``kind`` is one of ``"woods"``, ``"building"``, ``"stream_bank"`` (area features,
    given as ``rect=(x0, y0, x1, y1)`` with ``x0 < x1`` and ``y0 < y1``) or ``"wall"``
    (a line, given as ``segment=(x0, y0, x1, y1)``, two distinct end points).
    Coordinates are inches from the north-west corner, ``y`` southward. Raises
    ValueError on an unknown kind or the wrong / degenerate geometry.
    """

    id: str
    kind: str
    rect: tuple[float, float, float, float] | None = None
    segment: tuple[float, float, float, float] | None = None

    def __post_init__(self) -> None:
        if self.kind not in FEATURE_KINDS:
            raise ValueError(
                f"feature {self.id!r}: unknown kind {self.kind!r} (one of {', '.join(FEATURE_KINDS)})"
            )
        if self.kind in AREA_KINDS:
            if self.rect is None or self.segment is not None:
                raise ValueError(
                    f"feature {self.id!r}: a {self.kind} needs rect=(x0, y0, x1, y1) and no segment"
                )
            x0, y0, x1, y1 = (float(v) for v in self.rect)
            if not (x0 < x1 and y0 < y1):
                raise ValueError(f"feature {self.id!r}: rect {self.rect} must have x0 < x1 and y0 < y1")
            object.__setattr__(self, "rect", (x0, y0, x1, y1))
        else:
            if self.segment is None or self.rect is not None:
                raise ValueError(f"feature {self.id!r}: a wall needs segment=(x0, y0, x1, y1) and no rect")
            x0, y0, x1, y1 = (float(v) for v in self.segment)
            if (x0, y0) == (x1, y1):
                raise ValueError(f"feature {self.id!r}: wall segment {self.segment} has zero length")
            object.__setattr__(self, "segment", (x0, y0, x1, y1))

    @property
    def is_area(self) -> bool:
        return self.kind in AREA_KINDS

    def distance_to(self, x: float, y: float) -> float:
        """Inches from (x, y) to the feature: 0 inside a rect or on a wall."""
        if self.rect is not None:
            x0, y0, x1, y1 = self.rect
            return math.hypot(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1))
        assert self.segment is not None
        ax, ay, bx, by = self.segment
        dx, dy = bx - ax, by - ay
        t = min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        return math.hypot(x - (ax + t * dx), y - (ay + t * dy))

    def contains(self, x: float, y: float) -> bool:
        """True iff (x, y) lies inside or on the boundary of an area feature (never for walls)."""
        if self.rect is None:
            return False
        x0, y0, x1, y1 = self.rect
        return x0 - _EPS <= x <= x1 + _EPS and y0 - _EPS <= y <= y1 + _EPS


def _axis_counts(length: float, spacing: float, what: str) -> int:
    n = length / spacing
    if n < 1 or abs(n - round(n)) > 1e-9:
        raise ValueError(f'table {what} {length}" is not a positive whole number of {spacing}" grid steps')
    return int(round(n))


def _coord_label(v: float) -> str:
    return f"{int(round(v)):02d}" if abs(v - round(v)) < 1e-9 else f"{v:04.1f}"


class Table:
    """A ``width_in`` x ``height_in`` table with points every ``spacing_in`` inches.

    Attributes (all indexed by point, computed once):

    - ``xy[p]``: ``(x, y)`` inches; ``dist[p][q]``: Euclidean inches centre to centre
      (``dist_np``: the same as a float32 matrix).
    - ``los[p]``: a ``bytes`` row, ``los[p][q] == 1`` iff line of sight p <-> q is clear.
      **LOS rule**: the segment p-q is sampled at ``n + 1`` equally spaced points with
      ``n = ceil(d / 0.25)`` (``d`` = its length; so samples are at most 0.25" apart and
      include both ends). LOS is blocked iff some sample lies *strictly* inside the
      rect of a woods or building feature **and** is more than 2" from both p and q
      (a unit can see out of, and be seen in, the outer 2" of a wood or building; the
      2" allowance is measured along the line from each end, whatever feature it is
      in). Walls and stream banks never block LOS. Symmetric; ``los[p][p] == 1``.
      Comparisons use a 1e-9" tolerance against the blocking side (boundaries do not block).
    - ``terrain_cover[p]``: cover dice of the best area feature whose rect holds p
      (boundary included): ``COVER_DICE`` (woods, building, stream bank 1; improved 2,
      fortified 3, reinforced fortification 4), else 0.
    - ``wall_cover[q]``: a ``bytes`` row, ``wall_cover[q][p]`` is 1 if a wall gives intervening
      cover to a unit at p fired on from q, else 0: some wall segment properly crosses the
      segment q-p (both end points of each strictly on opposite sides of the other;
      touching does not count; several walls still give 1). Not symmetric in general. With
      ``wall_cover_reach_in`` set (default None: any crossing wall counts), a crossing wall
      gives cover only if the crossing point is within that many inches of p, i.e. the target
      is *behind* the wall rather than the firer.
    - ``cover_from[q]``: a ``bytes`` row, ``cover_from[q][p]`` is the cover dice of a unit at
      p fired on from q: ``terrain_cover[p] + wall_cover[q][p]`` (003: "Cover modifiers that
      overlap are cumulative.").
    - ``exposed[p]``: no feature of any kind is within 2" of p (point-to-rect or
      point-to-segment distance <= 2.0) and p is inside none.
    - ``kind_at[p]``: kind of the first area feature (in ``features`` order) containing p
      (boundary included), or ``"open"``; ``feature_at[p]``: its id or None;
      ``in_woods[p]``: p is inside or on the boundary of some woods rect.
    """

    def __init__(
        self,
        width_in: float,
        height_in: float,
        spacing_in: float,
        features: list[Feature],
        wall_cover_reach_in: float | None = None,
    ):
        if spacing_in <= 0:
            raise ValueError(f"grid spacing must be positive, got {spacing_in}")
        self.width_in = float(width_in)
        self.height_in = float(height_in)
        self.spacing_in = float(spacing_in)
        self.ncols = _axis_counts(self.width_in, self.spacing_in, "width")
        self.nrows = _axis_counts(self.height_in, self.spacing_in, "height")
        self.features: tuple[Feature, ...] = tuple(features)
        if wall_cover_reach_in is not None and wall_cover_reach_in < 0:
            raise ValueError(f"wall_cover_reach_in must be >= 0 or None, got {wall_cover_reach_in}")
        self.wall_cover_reach_in = None if wall_cover_reach_in is None else float(wall_cover_reach_in)
        ids = [f.id for f in self.features]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"duplicate feature ids: {', '.join(dup)}")
        self.feature_by_id: dict[str, Feature] = {f.id: f for f in self.features}
        for f in self.features:
            geom = f.rect if f.rect is not None else f.segment
            assert geom is not None
            x0, y0, x1, y1 = geom
            if (
                min(x0, x1) < -_EPS
                or max(x0, x1) > self.width_in + _EPS
                or min(y0, y1) < -_EPS
                or (max(y0, y1) > self.height_in + _EPS)
            ):
                raise ValueError(
                    f'feature {f.id!r} {geom} extends beyond the {width_in}" x {height_in}" table'
                )

        s = self.spacing_in
        cols = np.arange(self.ncols)
        rows = np.arange(self.nrows)
        self.col_x: tuple[float, ...] = tuple(float(v) for v in s / 2 + s * cols)
        self.row_y: tuple[float, ...] = tuple(float(v) for v in s / 2 + s * rows)
        xs = np.tile(np.asarray(self.col_x), self.nrows)
        ys = np.repeat(np.asarray(self.row_y), self.ncols)
        self._x, self._y = xs, ys
        n = len(xs)
        self.n = n
        self.xy: list[tuple[float, float]] = [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)]
        self.names: tuple[str, ...] = tuple(f"x{_coord_label(x)}y{_coord_label(y)}" for x, y in self.xy)
        self._index = {name: i for i, name in enumerate(self.names)}

        d64 = np.hypot(xs[:, None] - xs[None, :], ys[:, None] - ys[None, :])
        self._dist64 = d64
        self.dist_np: np.ndarray = d64.astype(np.float32)
        self.dist: list[list[float]] = d64.tolist()
        self._within: dict[float, list[list[int]]] = {}

        areas = [f for f in self.features if f.is_area]
        walls = [f for f in self.features if not f.is_area]
        kind_at = ["open"] * n
        feature_at: list[str | None] = [None] * n
        in_woods = np.zeros(n, dtype=bool)
        cover = np.zeros(n, dtype=np.uint8)
        near = np.zeros(n, dtype=bool)
        for f in reversed(areas):  # reversed: the first feature in list order wins
            assert f.rect is not None
            x0, y0, x1, y1 = f.rect
            inside = (xs >= x0 - _EPS) & (xs <= x1 + _EPS) & (ys >= y0 - _EPS) & (ys <= y1 + _EPS)
            for p in np.flatnonzero(inside):
                kind_at[p] = f.kind
                feature_at[p] = f.id
            cover = np.maximum(cover, inside.astype(np.uint8) * COVER_DICE[f.kind])
            if f.kind == "woods":
                in_woods |= inside
            gap = np.hypot(
                np.maximum.reduce([x0 - xs, np.zeros(n), xs - x1]),
                np.maximum.reduce([y0 - ys, np.zeros(n), ys - y1]),
            )
            near |= gap <= EXPOSED_CLEARANCE_IN + _EPS
        for f in walls:
            near |= self._segment_distance(f) <= EXPOSED_CLEARANCE_IN + _EPS
        self.kind_at: list[str] = kind_at
        self.feature_at: list[str | None] = feature_at
        self.in_woods: list[bool] = in_woods.tolist()
        self.terrain_cover: list[int] = cover.tolist()
        self.exposed: list[bool] = (~near).tolist()

        self.los_np: np.ndarray = self._compute_los([f for f in areas if f.kind in BLOCKING_KINDS])
        self.los: list[bytes] = [row.tobytes() for row in self.los_np.astype(np.uint8)]
        crossed = np.zeros((n, n), dtype=bool)
        for f in walls:
            crossed |= self._wall_crossings(f)
        self.wall_cover_np: np.ndarray = crossed.astype(np.uint8)
        self.wall_cover: list[bytes] = [row.tobytes() for row in self.wall_cover_np]
        self.cover_from_np: np.ndarray = self.wall_cover_np + cover[None, :]
        self.cover_from: list[bytes] = [row.tobytes() for row in self.cover_from_np]

    # ------------------------------------------------------------------ naming
    def __len__(self) -> int:
        return self.n

    def name(self, p: int) -> str:
        """The point's name, e.g. ``"x05y11"`` (x then y, inches)."""
        return self.names[p]

    def index(self, name: str) -> int:
        """Point index of ``name``; ValueError naming the bad name otherwise."""
        try:
            return self._index[name]
        except (KeyError, TypeError):
            raise ValueError(
                f"no point {name!r} on this table (points are named like {self.names[0]!r} .. "
                f'{self.names[-1]!r}: x then y in inches, every {self.spacing_in:g}")'
            ) from None

    def point_at(self, x: float, y: float) -> int | None:
        """The point exactly at (x, y) inches (1e-6 tolerance), or None when (x, y) is off the grid."""
        c = (x - self.spacing_in / 2) / self.spacing_in
        r = (y - self.spacing_in / 2) / self.spacing_in
        ci, ri = round(c), round(r)
        if abs(c - ci) > 1e-6 or abs(r - ri) > 1e-6 or not (0 <= ci < self.ncols and 0 <= ri < self.nrows):
            return None
        return ri * self.ncols + ci

    def col_row(self, p: int) -> tuple[int, int]:
        return p % self.ncols, p // self.ncols

    # ------------------------------------------------------------------ queries
    def within(self, p: int, r: float) -> list[int]:
        """Sorted points q != p with ``dist[p][q] <= r + 1e-9`` (lists are cached per radius)."""
        rows = self._within.get(r)
        if rows is None:
            mask = self._dist64 <= r + _EPS
            np.fill_diagonal(mask, False)
            rows = [np.flatnonzero(m).tolist() for m in mask]
            self._within[r] = rows
        return rows[p]

    def edge_points(self, side: str) -> list[int]:
        """Points of the outermost column (west/east, north to south) or row (north/south, west to east)."""
        if side == "west":
            return [r * self.ncols for r in range(self.nrows)]
        if side == "east":
            return [r * self.ncols + self.ncols - 1 for r in range(self.nrows)]
        if side == "north":
            return list(range(self.ncols))
        if side == "south":
            return [(self.nrows - 1) * self.ncols + c for c in range(self.ncols)]
        raise ValueError(f"unknown table side {side!r} (one of {', '.join(SIDES)})")

    def distance_to_edge(self, p: int, side: str) -> float:
        """Inches from point p to that table edge (west: x, east: width - x, north: y, south: height - y)."""
        x, y = self.xy[p]
        if side == "west":
            return x
        if side == "east":
            return self.width_in - x
        if side == "north":
            return y
        if side == "south":
            return self.height_in - y
        raise ValueError(f"unknown table side {side!r} (one of {', '.join(SIDES)})")

    def nearest(self, x: float, y: float) -> int:
        """The point nearest to (x, y) inches (lowest index on ties)."""
        return int(np.argmin((self._x - x) ** 2 + (self._y - y) ** 2))

    def wall_crossings(self, wall: Feature) -> np.ndarray:
        """n x n bool for one wall of this table: ``[q, p]`` is True iff the wall gives intervening
        cover to a unit at p fired on from q (the wall test of ``wall_cover``: a proper crossing of
        the segment q-p, within ``wall_cover_reach_in`` of p when that is set). ValueError for a
        feature that is not one of this table's walls."""
        if wall.is_area or self.feature_by_id.get(wall.id) is not wall:
            raise ValueError(f"feature {wall.id!r} is not a wall of this table")
        return self._wall_crossings(wall)

    # ------------------------------------------------------------------ precompute
    def _segment_distance(self, f: Feature) -> np.ndarray:
        assert f.segment is not None
        ax, ay, bx, by = f.segment
        dx, dy = bx - ax, by - ay
        t = np.clip(((self._x - ax) * dx + (self._y - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        return np.hypot(self._x - (ax + t * dx), self._y - (ay + t * dy))

    def _wall_crossings(self, f: Feature) -> np.ndarray:
        """n x n bool: the wall properly crosses the segment between the two points."""
        assert f.segment is not None
        ax, ay, bx, by = f.segment
        x, y = self._x, self._y
        # Side of each point relative to the wall line (a -> b).
        side = np.sign((bx - ax) * (y - ay) - (by - ay) * (x - ax))
        opposite = (side[:, None] * side[None, :]) < 0
        # Side of the wall's end points relative to each segment q -> p.
        ex = x[None, :] - x[:, None]
        ey = y[None, :] - y[:, None]
        oa = np.sign(ex * (ay - y[:, None]) - ey * (ax - x[:, None]))
        ob = np.sign(ex * (by - y[:, None]) - ey * (bx - x[:, None]))
        crossed = opposite & ((oa * ob) < 0)
        if self.wall_cover_reach_in is not None:
            # Crossing parameter u along q -> p (row q, column p); its distance from p is (1 - u) * |qp|.
            wx, wy = bx - ax, by - ay
            with np.errstate(divide="ignore", invalid="ignore"):
                u = ((ax - x[:, None]) * wy - (ay - y[:, None]) * wx) / (ex * wy - ey * wx)
                crossed &= (
                    1.0 - u
                ) * self._dist64 <= self.wall_cover_reach_in + _EPS  # NaN (parallel): False
        return crossed

    def _compute_los(self, blockers: list[Feature]) -> np.ndarray:
        """n x n bool LOS matrix under the rule in the class docstring.

        For each pair and blocking rect the samples that block form a contiguous run
        (a convex region cut by a segment), so only the first candidate sample after the
        analytic entry parameter (and its neighbours, against rounding) is tested exactly.
        """
        n = self.n
        los = np.ones((n, n), dtype=bool)
        if not blockers or n < 2:
            return los
        i, j = np.triu_indices(n, k=1)
        px, py = self._x[i], self._y[i]
        dx, dy = self._x[j] - px, self._y[j] - py
        d = self._dist64[i, j]
        steps = np.maximum(1, np.ceil(d / LOS_SAMPLE_STEP_IN - 1e-9)).astype(np.int64)
        lo_end = SEE_THROUGH_IN / d  # samples must be more than 2" from p ...
        blocked = np.zeros(len(i), dtype=bool)
        with np.errstate(divide="ignore", invalid="ignore"):
            for f in blockers:
                assert f.rect is not None
                x0, y0, x1, y1 = f.rect
                lo = lo_end.copy()
                empty = np.zeros(len(i), dtype=bool)
                for p0, dd, a0, a1 in ((px, dx, x0, x1), (py, dy, y0, y1)):
                    moving = dd != 0
                    t1 = (a0 - p0) / dd
                    t2 = (a1 - p0) / dd
                    lo = np.where(moving, np.maximum(lo, np.minimum(t1, t2)), lo)
                    empty |= ~moving & ~((p0 > a0) & (p0 < a1))
                lo = np.where(empty | (lo > 1.0), 1.0, lo)
                first = np.floor(lo * steps).astype(np.int64)
                for c in (0, 1, 2):
                    k = np.clip(first + c, 0, steps)
                    t = k / steps
                    sx, sy = px + t * dx, py + t * dy
                    hit = (
                        (sx > x0 + _EPS)
                        & (sx < x1 - _EPS)
                        & (sy > y0 + _EPS)
                        & (sy < y1 - _EPS)
                        & (t * d > SEE_THROUGH_IN + _EPS)
                        & ((1.0 - t) * d > SEE_THROUGH_IN + _EPS)
                    )
                    blocked |= hit & ~empty
        los[i, j] = ~blocked
        los[j, i] = ~blocked
        return los

    def los_brute_force(self, p: int, q: int) -> bool:
        """Reference implementation of the LOS rule, sample by sample (slow; for tests)."""
        if p == q:
            return True
        (ax, ay), (bx, by) = self.xy[p], self.xy[q]
        d = math.hypot(bx - ax, by - ay)
        steps = max(1, math.ceil(d / LOS_SAMPLE_STEP_IN - 1e-9))
        for k in range(steps + 1):
            t = k / steps
            if not (t * d > SEE_THROUGH_IN + _EPS and (1 - t) * d > SEE_THROUGH_IN + _EPS):
                continue
            sx, sy = ax + t * (bx - ax), ay + t * (by - ay)
            for f in self.features:
                if f.kind in BLOCKING_KINDS and f.rect is not None:
                    x0, y0, x1, y1 = f.rect
                    if x0 + _EPS < sx < x1 - _EPS and y0 + _EPS < sy < y1 - _EPS:
                        return False
        return True
