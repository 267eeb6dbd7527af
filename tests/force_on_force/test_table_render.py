"""Text and picture renderings of a Force on Force table."""

import numpy as np
import pytest

from fof_env.core.tabletop import Feature, Table
from fof_env.force_on_force.scenario import load_scenario
from fof_env.force_on_force.table_render import render_table_ascii, render_table_rgb

SMALL = Table(
    12,
    8,
    2,
    [
        Feature("w", "woods", rect=(0, 0, 4, 4)),
        Feature("b", "building", rect=(8, 4, 12, 8)),
        Feature("s", "stream_bank", rect=(4, 4, 6, 8)),
        Feature("v", "wall", segment=(6, 0, 6, 4)),  # between columns x05 and x07, rows y01-y03
        Feature("h", "wall", segment=(6, 4, 10, 4)),  # between rows y03 and y05, columns x07-x09
        Feature("d", "wall", segment=(0, 8, 4, 4)),  # diagonal: passes 0.7" from x01y07 and x03y05
    ],
)


def test_ascii_map_of_a_small_table():
    text = render_table_ascii(SMALL, {SMALL.index("x11y01"): "A1", SMALL.index("x09y07"): "2"})
    assert text.splitlines() == [
        "   01 03 05 07 09 11",
        "01 T  T  . |.  .  A1",
        "03 T  T  . |._ ._ .",
        "05 .  #  ~  .  B  B",
        "07 #  .  ~  .  2  B",
        "key: T woods, B building, ~ stream bank, . open, walls | _ #; x across, y down (inches)",
    ]


def test_ascii_rejects_bad_marks():
    with pytest.raises(ValueError, match="1-2 characters"):
        render_table_ascii(SMALL, {0: "ABC"})
    with pytest.raises(ValueError, match="1-2 characters"):
        render_table_ascii(SMALL, {99: "A"})


def test_ascii_map_of_lost_and_found_has_the_terrain():
    sc = load_scenario()
    text = render_table_ascii(sc.table, {sc.rules['downed_pilot']['start_point']: "P"})
    lines = text.splitlines()
    assert len(lines) == 18 + 2
    assert all(ch in text for ch in "TB~.|P")


def _units():
    return [
        {"x": 5, "y": 5, "side": "usmc", "label": "A", "effective": 3, "casualties": 1, "status": "pinned"},
        {
            "x": 9,
            "y": 3,
            "side": "taliban",
            "label": "1",
            "effective": 7,
            "casualties": 0,
            "status": "hidden",
        },
    ]


def test_rgb_shape_dtype_and_determinism():
    a = render_table_rgb(SMALL, _units(), (9.0, 5.0))
    b = render_table_rgb(SMALL, _units(), (9.0, 5.0))
    assert a.shape == (8 * 16, 12 * 16, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert render_table_rgb(SMALL, [], None, scale=8).shape == (64, 96, 3)


def test_rgb_units_status_and_pilot_change_pixels():
    empty = render_table_rgb(SMALL, [], None)
    one = render_table_rgb(SMALL, _units()[:1], None)
    assert not np.array_equal(empty, one)
    unpinned = dict(_units()[0], status="")
    assert not np.array_equal(one, render_table_rgb(SMALL, [unpinned], None))
    assert not np.array_equal(empty, render_table_rgb(SMALL, [], (9.0, 5.0)))
    r, g, b = (int(v) for v in one[5 * 16, 5 * 16 - 11])  # inside the USMC disc, left of its label
    assert b > r + 60 and b > g + 60


def test_rgb_of_lost_and_found():
    sc = load_scenario()
    img = render_table_rgb(sc.table, [], sc.table.xy[sc.rules['downed_pilot']['start_point']], scale=10)
    assert img.shape == (360, 360, 3)
    woods = img[int(8 * 10), int(22 * 10)]  # inside the north woods, between trees or on one
    assert woods[1] > woods[0] and woods[1] > woods[2]
