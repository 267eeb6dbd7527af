"""Hex grid geometry against DESIGN.md's "Strike Force One data" neighbour rules."""

import pytest

from fof_env.core.hexgrid import HexGrid

GRID = HexGrid(8, 9, 8)


def test_sixty_eight_hexes():
    """001_8616da5a6ffeaaf0.txt [2.0]: "It is divided into 68 spaces (called hexes)"."""
    assert len(GRID) == 68
    assert GRID.names[0] == "0101" and GRID.names[-1] == "0808"
    assert "0109" in GRID.index and "0209" not in GRID.index


@pytest.mark.parametrize(
    ("hex_name", "expected"),
    [
        # odd column (c,r): (c,r-1), (c,r+1), (c-1,r-1), (c-1,r), (c+1,r-1), (c+1,r)
        ("0304", {"0303", "0305", "0203", "0204", "0403", "0404"}),
        # even column (c,r): (c,r-1), (c,r+1), (c-1,r), (c-1,r+1), (c+1,r), (c+1,r+1)
        ("0404", {"0403", "0405", "0304", "0305", "0504", "0505"}),
        ("0101", {"0102", "0201"}),
        ("0808", {"0807", "0708", "0709"}),
    ],
)
def test_neighbours_follow_the_design_rules(hex_name, expected):
    got = {GRID.names[n] for n in GRID.neighbors[GRID.hex(hex_name)]}
    assert got == expected


def test_adjacency_is_symmetric_and_matches_distance_one():
    for a in range(len(GRID)):
        for b in range(len(GRID)):
            if a != b:
                assert GRID.adjacent(a, b) == GRID.adjacent(b, a) == (GRID.distance(a, b) == 1)


def test_bad_hex_name_is_a_clear_error():
    with pytest.raises(ValueError, match="no hex '0909'"):
        GRID.hex("0909")
