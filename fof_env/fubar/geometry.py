"""FUBAR on the shared tabletop (:class:`fof_env.core.tabletop.Table`): cover levels, who may fire at
whom, move paths and vehicle going. Everything is computed once per table (rulings F20, F22, F37).

* ``level[p]``: the cover level (0 none, 1 Soft, 2 Moderate, 3 Hard) of the best area feature that
  holds point p, by the scenario's ``cover`` classes (rulings F22).
* ``cover_from[q][p]`` (``bytes`` rows): the cover of a unit at p fired on from q: ``level[p]``, or a
  wall's level when a wall gives intervening cover (the tabletop's wall test, ``wall_cover_reach_in``
  included), whichever is better.
* ``fire_los[p][q]`` (``bytes`` rows, symmetric): a unit at p may fire at one at q ("A Unit can fire
  at any enemy figures or vehicles that they have a clear line of sight to"):

  - p and q inside the same area feature: iff they are at most 6" apart ("A Unit can only target
    enemy figures that share the same area of cover if they are within 6"");
  - otherwise the tabletop's line of sight (woods and buildings block it beyond their outer 2":
    "A defined area of cover will block line of sight") **and** each end inside an area feature is
    within 2" of that area's edge ("A Unit may fire at enemy in cover if some of the enemy figures are
    within 2" of the cover's edge. Figures can only fire out of cover if they are within 2" of the
    cover's edge").

* ``path(p, q)``: the grid points a straight move from p to q passes (p, then the point nearest the
  line every grid step, then q): where a Walk may fire and an On Guard unit may react.
* ``going(p)``: for every point q, the worst cover level a vehicle crosses going straight from p to q
  (areas sampled every 0.25", walls crossed anywhere on the way): 0 open, 1 Soft, 2 Moderate, 3 Hard.
"""

from __future__ import annotations

import math

import numpy as np

from fof_env.core.tabletop import Feature, Table
from fof_env.fubar.tables import COVER_EDGE_IN, COVER_LEVELS, SAME_COVER_IN

# The cover a feature kind gives unless the scenario says otherwise (rulings F22): the seed's examples
# "Woods ... Hedgerows, Rifle Pits" Soft, "Stone or Brick Walls, Buildings or Rubble, Trenches" Moderate,
# "Bunkers" Hard.
DEFAULT_COVER = {
    "woods": "soft",
    "stream_bank": "soft",
    "building": "moderate",
    "wall": "moderate",
    "improved_position": "moderate",
    "fortified_position": "hard",
    "reinforced_fortification": "hard",
}
_EPS = 1e-9
_SAMPLE_IN = 0.25
REACH_IN = 12.0  # the farthest a vehicle moves


def _proper_cross(ax, ay, bx, by, cx, cy, dx, dy) -> bool:
    """Whether segments a-b and c-d cross properly (each one's ends strictly on both sides of the other)."""

    def side(px, py, qx, qy, rx, ry):
        v = (qx - px) * (ry - py) - (qy - py) * (rx - px)
        return (v > _EPS) - (v < -_EPS)

    return (
        side(ax, ay, bx, by, cx, cy) * side(ax, ay, bx, by, dx, dy) < 0
        and side(cx, cy, dx, dy, ax, ay) * side(cx, cy, dx, dy, bx, by) < 0
    )


class Geometry:
    """The FUBAR facts of one table (see the module docstring). ``cover_of(feature)`` -> level."""

    def __init__(self, table: Table, cover: dict[str, str] | None = None, overrides: dict[str, str] | None = None):
        self.table = table
        classes = {**DEFAULT_COVER, **(cover or {})}
        overrides = overrides or {}
        n = table.n
        xs = np.asarray([x for x, _ in table.xy])
        ys = np.asarray([y for _, y in table.xy])
        self.areas: list[Feature] = [f for f in table.features if f.is_area]
        self.walls: list[Feature] = [f for f in table.features if not f.is_area]
        self.feature_level: dict[str, int] = {
            f.id: COVER_LEVELS[overrides.get(f.id, classes.get(f.kind, "none"))] for f in table.features
        }
        area_idx = np.full(n, -1, dtype=np.int64)
        level = np.zeros(n, dtype=np.uint8)
        edge_ok = np.ones(n, dtype=bool)
        for i in range(len(self.areas) - 1, -1, -1):  # the first feature in list order names the area
            f = self.areas[i]
            x0, y0, x1, y1 = f.rect
            inside = (xs >= x0 - _EPS) & (xs <= x1 + _EPS) & (ys >= y0 - _EPS) & (ys <= y1 + _EPS)
            area_idx[inside] = i
            level = np.maximum(level, inside.astype(np.uint8) * self.feature_level[f.id])
        for i, f in enumerate(self.areas):
            x0, y0, x1, y1 = f.rect
            mine = area_idx == i
            depth = np.minimum.reduce([xs - x0, x1 - xs, ys - y0, y1 - ys])
            edge_ok[mine] = depth[mine] <= COVER_EDGE_IN + _EPS
        self.area_idx: list[int] = area_idx.tolist()
        self.level: list[int] = level.tolist()
        self.edge_ok: list[bool] = edge_ok.tolist()

        same = (area_idx[:, None] == area_idx[None, :]) & (area_idx[:, None] >= 0)
        los = np.where(
            same,
            table._dist64 <= SAME_COVER_IN + _EPS,
            table.los_np & edge_ok[:, None] & edge_ok[None, :],
        )
        np.fill_diagonal(los, True)
        self.fire_los_np = los
        self.fire_los: list[bytes] = [row.tobytes() for row in los.astype(np.uint8)]

        cover = np.broadcast_to(level[None, :], (n, n)).copy()
        for w in self.walls:
            lv = self.feature_level[w.id]
            if lv:
                cover = np.maximum(cover, table.wall_crossings(w).astype(np.uint8) * lv)
        self.cover_from: list[bytes] = [row.tobytes() for row in cover]
        self._paths: dict[tuple[int, int], tuple[int, ...]] = {}
        self._going: dict[int, bytes] = {}
        self._nearest: dict[tuple[int, float], list[int]] = {}

    def nearest_first(self, p: int, r: float) -> list[int]:
        """``table.within(p, r)`` ordered by distance from p (ties by index; cached)."""
        key = (p, r)
        got = self._nearest.get(key)
        if got is None:
            dist = self.table.dist[p]
            got = self._nearest[key] = sorted(self.table.within(p, r), key=lambda q: (dist[q], q))
        return got

    # ------------------------------------------------------------------ paths
    def path(self, p: int, q: int) -> tuple[int, ...]:
        """The grid points of a straight move p -> q, in order, p and q included (cached)."""
        key = (p, q)
        got = self._paths.get(key)
        if got is not None:
            return got
        t = self.table
        (ax, ay), (bx, by) = t.xy[p], t.xy[q]
        s = t.spacing_in
        steps = max(1, math.ceil(t.dist[p][q] / s - 1e-9))
        out = [p]
        for k in range(1, steps):
            x = ax + (bx - ax) * k / steps
            y = ay + (by - ay) * k / steps
            c = min(t.ncols - 1, max(0, round((x - s / 2) / s)))
            r = min(t.nrows - 1, max(0, round((y - s / 2) / s)))
            pt = r * t.ncols + c
            if pt != out[-1]:
                out.append(pt)
        if q != out[-1]:
            out.append(q)
        got = tuple(out)
        self._paths[key] = got
        return got

    def going(self, p: int) -> bytes:
        """Row over every point q: the worst cover level crossed going straight from p to q, for q within
        the 12" of a vehicle's move (farther points: 3, never reached). Cached per p."""
        row = self._going.get(p)
        if row is not None:
            return row
        t = self.table
        ax, ay = t.xy[p]
        near = [p, *t.within(p, REACH_IN)]
        qx = np.asarray([t.xy[q][0] for q in near])
        qy = np.asarray([t.xy[q][1] for q in near])
        steps = int(math.ceil(REACH_IN / _SAMPLE_IN))
        ts = np.linspace(0.0, 1.0, steps + 1)
        sx = ax + (qx[:, None] - ax) * ts[None, :]
        sy = ay + (qy[:, None] - ay) * ts[None, :]
        worst = np.zeros(len(near), dtype=np.uint8)
        for f in self.areas:
            lv = self.feature_level[f.id]
            if not lv:
                continue
            x0, y0, x1, y1 = f.rect
            inside = ((sx >= x0 - _EPS) & (sx <= x1 + _EPS) & (sy >= y0 - _EPS) & (sy <= y1 + _EPS)).any(axis=1)
            worst = np.maximum(worst, inside.astype(np.uint8) * lv)
        out = bytearray([3] * t.n)
        for k, q in enumerate(near):
            lv = int(worst[k])
            bx, by = t.xy[q]
            for w in self.walls:
                wl = self.feature_level[w.id]
                if wl > lv and _proper_cross(ax, ay, bx, by, *w.segment):
                    lv = wl
            out[q] = lv
        row = bytes(out)
        self._going[p] = row
        return row
