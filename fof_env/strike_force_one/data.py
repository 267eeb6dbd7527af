"""Static scenario data: map, towns, woods, set-up and the Combat Results Table.

Loaded once per process from ``data/*.json`` and turned into flat tuples and
bitmasks so the rules never touch dictionaries on the hot path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from fof_env.core.hexgrid import HexGrid
from fof_env.strike_force_one.movement import dilation_table

SIDES = ("soviet", "us")
SIDE_PREFIX = ("sov", "us")
UNIT_LETTERS = (("A", "B", "C", "D", "E", "F"), ("A", "B", "C", "D"))
# Global unit ids: Soviet A-F are 0-5, U.S. A-D are 6-9.
UNIT_SIDE = (0, 0, 0, 0, 0, 0, 1, 1, 1, 1)
UNIT_NAMES = tuple(f"{SIDE_PREFIX[s]}.{letter}" for s in (0, 1) for letter in UNIT_LETTERS[s])
SIDE_UNITS = (tuple(range(0, 6)), tuple(range(6, 10)))
NUM_UNITS = 10

RESULTS = ("DE", "DR", "AR", "AE")
SIDE_COLOURS = ("#b23426", "#3a6030")  # Soviet red, U.S. green: the board's counters and the pictures'


@dataclass(frozen=True)
class Scenario:
    """Everything static about the map and tables."""

    grid: HexGrid
    towns: tuple[int, ...]
    woods: tuple[bool, ...]
    setup: tuple[int, ...]  # hex of each global unit id
    turns: int
    crt: tuple[tuple[str, ...], ...]  # crt[die-1][column]
    neighbor_bits: tuple[int, ...]  # bitmask of each hex's neighbours
    dilation: tuple[tuple[tuple[int, int], ...], ...]  # movement.dilation_table(neighbor_bits)
    woods_bits: int
    map_provenance: str
    crt_provenance: str


def _load(name: str) -> dict:
    return json.loads(resources.files("fof_env.strike_force_one").joinpath("data", name).read_text())


@lru_cache(maxsize=1)
def scenario() -> Scenario:
    m = _load("map.json")
    c = _load("crt.json")
    grid = HexGrid(m["columns"], m["odd_column_rows"], m["even_column_rows"])
    woods_set = {grid.hex(h) for h in m["woods"]}
    setup = [grid.hex(m["setup"][SIDES[s]][letter]) for s in (0, 1) for letter in UNIT_LETTERS[s]]
    rows = tuple(tuple(r) for r in c["rows"])
    if len(rows) != 6 or any(len(r) != 6 or any(x not in RESULTS for x in r) for r in rows):
        raise ValueError("crt.json must be 6 rows x 6 columns of DE/DR/AR/AE")
    neighbor_bits = tuple(sum(1 << n for n in ns) for ns in grid.neighbors)
    return Scenario(
        grid=grid,
        towns=tuple(grid.hex(h) for h in m["towns"]),
        woods=tuple(i in woods_set for i in range(len(grid))),
        setup=tuple(setup),
        turns=int(m["turns"]),
        crt=rows,
        neighbor_bits=neighbor_bits,
        dilation=dilation_table(neighbor_bits),
        woods_bits=sum(1 << h for h in woods_set),
        map_provenance=m["provenance"],
        crt_provenance=c["provenance"],
    )
