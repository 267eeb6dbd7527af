"""Line of sight, cover edges and the same-cover rule on the tabletop (002_b69cb091b8d89aa2.txt "Firing",
"Cover"); move paths. Exact rules: ``fof_env/fubar/geometry.py``."""

from fof_env.fubar.geometry import Geometry

from .helpers import area, figures, game, infantry, wall

SEED = "002_b69cb091b8d89aa2.txt"
UNITS = (infantry("r.1", (1, 1), figures(1)), infantry("b.1", (23, 23), figures(1)))


def geo(*features, **kw) -> Geometry:
    return game(*UNITS, features=features, **kw).setup.geo


def sees(g: Geometry, a: str, b: str) -> bool:
    t = g.table
    return bool(g.fire_los[t.index(a)][t.index(b)])


def test_a_defined_area_of_cover_blocks_line_of_sight():
    """002: "A defined area of cover will block line of sight." Woods across the middle: x03y11 and x21y11
    do not see each other; both see along the open north edge (rulings F20)."""
    g = geo(area("woods", 8, 4, 16, 24))
    assert not sees(g, "x03y11", "x21y11")
    assert sees(g, "x03y01", "x21y01")


def test_fire_into_and_out_of_cover_needs_the_outer_two_inches():
    """002: "A Unit may fire at enemy in cover if some of the enemy figures are within 2"/5cm of the cover's
    edge. Figures can only fire out of cover if they are within 2"/5cm of the cover's edge." Woods from x 8
    to x 16: x09y11 and x15y11 (1" inside) see out; x11y11 (3" inside) neither sees out nor is seen; the same
    holds for rubble, which does not block sight across it (rulings F20)."""
    for kind in ("woods", "improved_position"):
        g = geo(area(kind, 8, 4, 16, 24))
        assert sees(g, "x01y11", "x09y11") and sees(g, "x23y11", "x15y11")
        assert not sees(g, "x01y11", "x11y11") and not sees(g, "x11y11", "x01y11")
    g = geo(area("improved_position", 8, 4, 16, 24))
    assert sees(g, "x05y11", "x19y11")  # rubble does not block sight across it


def test_same_area_of_cover_within_six_inches():
    """002: "A Unit can only target enemy figures that share the same area of cover if they are within 6".
    The target will get a cover save." In a 12" wood two units 6" apart see each other however deep they
    are; 8" apart they do not, even near the edge (rulings F20)."""
    g = geo(area("woods", 4, 4, 20, 20))
    assert sees(g, "x09y11", "x15y11")  # both 5" deep, 6" apart
    assert not sees(g, "x07y11", "x15y11")  # 8" apart
    assert not sees(g, "x05y05", "x13y05")  # 8" apart along the edge


def test_cover_from_terrain_and_walls():
    """002: "Soft +1 Undergrowth, Woods ... Moderate +2 Stone or Brick Walls, Buildings or Rubble,
    Trenches ... Hard +3 Bunkers". Levels by feature kind; a scenario may set a feature's own (a wooden
    building: Soft) (rulings F22)."""
    g = geo(area("woods", 2, 2, 6, 6), area("building", 10, 2, 14, 6), area("fortified_position", 18, 2, 22, 6),
            area("building", 2, 16, 6, 20, "shed", cover="soft"), wall(10, 14, 10, 22), wall_reach=3)  # fmt: skip
    t = g.table
    assert [g.level[t.index(p)] for p in ("x03y03", "x11y03", "x19y03", "x03y17", "x15y15")] == [1, 2, 3, 1, 0]
    assert g.cover_from[t.index("x01y17")][t.index("x11y17")] == 2  # across the wall, 1" behind it
    assert g.cover_from[t.index("x23y17")][t.index("x11y17")] == 0  # from its own side


def test_paths_pass_every_grid_point_along_the_line():
    """002: "Walk ... at one point during their move", "enemy movement across their field of fire": a move
    runs through the grid points nearest its line (rulings F11, F16)."""
    g = geo()
    t = g.table
    path = [t.name(p) for p in g.path(t.index("x03y11"), t.index("x09y11"))]
    assert path == ["x03y11", "x05y11", "x07y11", "x09y11"]
    path = [t.name(p) for p in g.path(t.index("x03y03"), t.index("x07y07"))]
    assert path[0] == "x03y03" and path[-1] == "x07y07" and "x05y05" in path


def test_the_tabletop_gives_each_wall_its_crossings():
    """``Table.wall_crossings`` (added for FUBAR, rulings F22) is the wall test of the tabletop's own cover."""
    import numpy as np
    import pytest

    g = geo(wall(10, 4, 10, 20, "w"), area("woods", 14, 2, 18, 6, "copse"), wall_reach=3)
    t = g.table
    crossed = t.wall_crossings(t.feature_by_id["w"])
    assert crossed[t.index("x03y11"), t.index("x11y11")] and not crossed[t.index("x03y11"), t.index("x15y11")]
    open_points = ~np.asarray(t.terrain_cover, dtype=bool)  # where only a wall can give cover
    np.testing.assert_array_equal(crossed[:, open_points], t.cover_from_np[:, open_points] > 0)
    with pytest.raises(ValueError, match="not a wall of this table"):
        t.wall_crossings(t.feature_by_id["copse"])
