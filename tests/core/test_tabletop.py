"""Tabletop geometry (fof_env.core.tabletop) on small tables that can be checked by hand.

The main table is 16" x 12" with a 2" grid: points at x = 1, 3, ..., 15 and y = 1, 3, ..., 11.
Terrain (inches, y southward)::

    bank  stream bank  rect (0, 0, 2, 6)    points x01 y01-y05
    wood  woods        rect (4, 0, 10, 6)   points x05-x09, y01-y05 (x07 is 3" from both edges)
    wall  wall         segment (12, 0) - (12, 4), between columns x11 and x13, rows y01-y03
    house building     rect (12, 4, 16, 8)  points x13-x15, y05-y07
"""

import math
import random
import time

import numpy as np
import pytest

from fof_env.core.tabletop import Feature, Table

FEATURES = [
    Feature("bank", "stream_bank", rect=(0, 0, 2, 6)),
    Feature("wood", "woods", rect=(4, 0, 10, 6)),
    Feature("wall", "wall", segment=(12, 0, 12, 4)),
    Feature("house", "building", rect=(12, 4, 16, 8)),
]
T = Table(16, 12, 2, FEATURES)


def P(name: str) -> int:
    return T.index(name)


def los(a: str, b: str, table: Table = T) -> bool:
    return bool(table.los[table.index(a)][table.index(b)])


def cover(firer: str, target: str, table: Table = T) -> bool:
    return bool(table.cover_from[table.index(firer)][table.index(target)])


def test_grid_points_and_names():
    assert (T.ncols, T.nrows, len(T)) == (8, 6, 48)
    assert T.xy[0] == (1.0, 1.0) and T.xy[1] == (3.0, 1.0) and T.xy[8] == (1.0, 3.0)
    assert T.name(0) == "x01y01" and T.name(47) == "x15y11"
    assert all(T.index(T.name(p)) == p for p in range(len(T)))
    assert P("x05y11") == 5 * 8 + 2


@pytest.mark.parametrize("bad", ["x02y01", "x17y01", "bogus", "", None])
def test_bad_point_name_is_a_clear_value_error(bad):
    with pytest.raises(ValueError, match="no point"):
        T.index(bad)


def test_distances_and_within():
    assert T.dist[P("x01y01")][P("x07y05")] == pytest.approx(math.hypot(6, 4))
    assert T.dist_np.dtype == np.float32 and T.dist_np.shape == (48, 48)
    assert T.within(P("x01y01"), 2.0) == [P("x03y01"), P("x01y03")]
    assert T.within(P("x01y01"), 2 * math.sqrt(2)) == [P("x03y01"), P("x01y03"), P("x03y03")]
    assert T.within(P("x07y05"), 1.0) == []


def test_los_blocked_through_the_middle_of_a_wood():
    assert not los("x01y03", "x15y03")
    assert not los("x01y03", "x07y03")  # target 3" inside the wood
    assert not los("x05y01", "x09y05")  # both inside, the middle (7, 3) is 2.8" from each


def test_los_clear_in_the_outer_two_inches():
    assert los("x01y03", "x05y03")  # target 1" inside the west edge: seen
    assert los("x09y03", "x15y03")  # firer 1" inside the east edge: sees out
    assert los("x05y05", "x07y05")  # 2" apart inside the wood: no sample > 2" from both
    assert los("x01y07", "x13y07")  # passes south of the wood, target 1" inside the house
    assert not los("x01y07", "x15y07")  # 3" inside the house


def test_walls_and_stream_banks_never_block():
    assert los("x11y03", "x15y03")  # across the wall
    assert los("x01y01", "x01y11")  # along the stream bank


def test_los_is_symmetric_and_matches_the_sample_by_sample_rule():
    assert np.array_equal(T.los_np, T.los_np.T)
    assert all(T.los[p][p] == 1 for p in range(len(T)))
    for p in range(len(T)):
        for q in range(len(T)):
            assert bool(T.los[p][q]) == T.los_brute_force(p, q), (T.name(p), T.name(q))


def test_terrain_cover_and_kinds():
    assert T.terrain_cover[P("x01y01")] and T.kind_at[P("x01y01")] == "stream_bank"
    assert T.terrain_cover[P("x07y03")] and T.kind_at[P("x07y03")] == "woods" and T.in_woods[P("x07y03")]
    assert T.feature_at[P("x07y03")] == "wood"
    assert T.terrain_cover[P("x15y07")] and T.kind_at[P("x15y07")] == "building"  # building interior
    assert not T.terrain_cover[P("x11y01")] and T.kind_at[P("x11y01")] == "open"
    assert T.feature_at[P("x11y01")] is None and not T.in_woods[P("x11y01")]


def test_walls_give_cover_from_across_them():
    assert cover("x11y03", "x13y03") and cover("x13y03", "x11y03")
    assert cover("x09y07", "x13y01")  # the line crosses the wall at (12, 2.5)
    assert not cover("x11y05", "x13y03")  # only touches the wall's end (12, 4): no proper crossing
    assert not cover("x03y01", "x11y01")  # no wall in between, open ground


def test_cover_from_is_not_symmetric():
    assert cover("x03y03", "x05y03")  # target in the wood
    assert not cover("x05y03", "x03y03")  # target in the open
    assert all(cover(T.name(q), "x15y07") for q in range(len(T)))  # inside the house, from anywhere


def test_cover_from_adds_a_crossed_wall_to_the_area_cover():
    """003_b1b2d2a6d4b3bab2.txt: "Cover modifiers that overlap are cumulative." x13y05 is in the house (1);
    fire from x11y01 crosses the wall at (12, 3): 1 + 1 = 2. From x15y11 no wall is crossed: 1. The
    wall's own part is ``wall_cover``."""
    house, north, south = P("x13y05"), P("x11y01"), P("x15y11")
    assert T.terrain_cover[house] == 1
    assert (T.wall_cover[north][house], T.cover_from[north][house]) == (1, 2)
    assert (T.wall_cover[south][house], T.cover_from[south][house]) == (0, 1)
    assert (T.wall_cover_np == T.cover_from_np - np.asarray(T.terrain_cover, dtype=np.uint8)[None, :]).all()


def test_wall_cover_reach_counts_only_walls_near_the_target():
    t = Table(16, 12, 2, FEATURES, wall_cover_reach_in=1.5)
    assert cover("x11y03", "x13y03", t)  # crossing 1" from the target
    assert cover("x13y03", "x05y07") and not cover("x13y03", "x05y07", t)  # crossing 7.8" away
    assert cover("x03y03", "x05y03", t)  # terrain cover is unaffected


def test_exposed_points():
    assert T.exposed[P("x07y11")] and T.exposed[P("x11y11")]
    assert not T.exposed[P("x07y07")]  # 1" from the wood
    assert not T.exposed[P("x13y01")]  # 1" from the wall (3" from wood and house)
    assert not T.exposed[P("x11y09")]  # 1.4" from the house corner
    assert not T.exposed[P("x07y03")]  # inside the wood


def test_exposed_boundary_is_two_inches_inclusive():
    t = Table(8, 8, 2, [Feature("s", "stream_bank", rect=(0, 0, 1, 1))])
    assert t.terrain_cover[t.index("x01y01")]  # on the rect's corner counts as inside
    assert not t.exposed[t.index("x03y01")]  # exactly 2.0"
    assert t.exposed[t.index("x03y03")] and t.exposed[t.index("x05y01")]


def test_edges_and_nearest():
    assert T.edge_points("west") == [P(f"x01y{y:02d}") for y in (1, 3, 5, 7, 9, 11)]
    assert T.edge_points("east") == [P(f"x15y{y:02d}") for y in (1, 3, 5, 7, 9, 11)]
    assert T.edge_points("north") == list(range(8)) and T.edge_points("south") == list(range(40, 48))
    p = P("x05y09")
    assert [T.distance_to_edge(p, s) for s in ("west", "east", "north", "south")] == [5, 11, 9, 3]
    assert T.nearest(5.2, 8.1) == p and T.nearest(-3, 100) == P("x01y11")
    assert T.point_at(5, 9) == p and T.point_at(4, 9) is None and T.point_at(17, 1) is None
    with pytest.raises(ValueError, match="unknown table side"):
        T.edge_points("up")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Feature("x", "swamp", rect=(0, 0, 1, 1)), "unknown kind"),
        (lambda: Feature("x", "wall", rect=(0, 0, 1, 1)), "needs segment"),
        (lambda: Feature("x", "woods", segment=(0, 0, 1, 1)), "needs rect"),
        (lambda: Feature("x", "woods", rect=(2, 0, 1, 1)), "x0 < x1"),
        (lambda: Feature("x", "wall", segment=(1, 1, 1, 1)), "zero length"),
        (lambda: Table(8, 8, 2, [Feature("x", "woods", rect=(6, 6, 9, 8))]), "beyond"),
        (lambda: Table(8, 8, 2, [Feature("x", "woods", rect=(0, 0, 1, 1))] * 2), "duplicate"),
        (lambda: Table(9, 8, 2, []), "whole number"),
    ],
)
def test_bad_geometry_raises(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_full_size_table_precomputes_fast_and_matches_the_reference():
    features = [
        Feature("w1", "woods", rect=(18, 6, 26, 12)),
        Feature("w2", "woods", rect=(7.3, 20.1, 13.7, 29.9)),
        Feature("b", "building", rect=(20, 16, 24, 20)),
        Feature("s", "stream_bank", rect=(6, 0, 8, 36)),
        Feature("d", "wall", segment=(3, 3, 9, 14)),
    ]
    t0 = time.perf_counter()
    t = Table(36, 36, 2, features)
    assert time.perf_counter() - t0 < 0.5
    assert len(t) == 324 and t.xy[17] == (35.0, 1.0)
    rng = random.Random(7)
    for _ in range(2000):
        p, q = rng.randrange(len(t)), rng.randrange(len(t))
        assert bool(t.los[p][q]) == t.los_brute_force(p, q)
