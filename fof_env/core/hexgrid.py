"""Hex grids in "offset column" layout, as printed on SPI maps.

Hexes are named ``CCRR`` (column, row, both from 01). Columns run west to east; in
the Strike Force One layout odd columns are the "high" ones and even columns sit
half a hex lower (DESIGN.md, "Strike Force One data"). Internally every hex is a
dense index ``0..n-1`` so that neighbour tables are tuples of ints.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class HexGrid:
    """A finite set of hexes with precomputed neighbour tables.

    ``odd_rows`` / ``even_rows``: the number of rows in odd / even columns.
    """

    columns: int
    odd_rows: int
    even_rows: int
    names: tuple[str, ...] = field(init=False)
    coords: tuple[tuple[int, int], ...] = field(init=False)
    index: dict[str, int] = field(init=False)
    neighbors: tuple[tuple[int, ...], ...] = field(init=False)
    neighbor_sets: tuple[frozenset[int], ...] = field(init=False)

    def __post_init__(self) -> None:
        coords = [
            (c, r)
            for c in range(1, self.columns + 1)
            for r in range(1, (self.odd_rows if c % 2 else self.even_rows) + 1)
        ]
        names = tuple(f"{c:02d}{r:02d}" for c, r in coords)
        index = {name: i for i, name in enumerate(names)}
        pos = {cr: i for i, cr in enumerate(coords)}
        neighbors = []
        for c, r in coords:
            if c % 2:  # odd column
                cand = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
            else:
                cand = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
            neighbors.append(tuple(sorted(pos[x] for x in cand if x in pos)))
        object.__setattr__(self, "coords", tuple(coords))
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbors", tuple(neighbors))
        object.__setattr__(self, "neighbor_sets", tuple(frozenset(n) for n in neighbors))

    def __len__(self) -> int:
        return len(self.names)

    def hex(self, name: str) -> int:
        """Dense index of hex ``name`` ("0304"); ValueError naming the bad hex otherwise."""
        try:
            return self.index[name]
        except (KeyError, TypeError):
            raise ValueError(f"no hex {name!r} on this map (hexes are CCRR, e.g. '0304')") from None

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbor_sets[a]

    def distance(self, a: int, b: int) -> int:
        """Hex distance via cube coordinates."""
        ax, ay, az = self.cube(a)
        bx, by, bz = self.cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def cube(self, h: int) -> tuple[int, int, int]:
        # Even (1-based) columns sit half a hex lower: "odd-q" offset in 0-based terms.
        c, r = self.coords[h]
        q, row = c - 1, r - 1
        z = row - (q - (q & 1)) // 2
        return q, -q - z, z

    def center(self, h: int, size: float = 1.0) -> tuple[float, float]:
        """Pixel centre of hex ``h`` for flat-topped hexes of circumradius ``size``."""
        c, r = self.coords[h]
        x = size * 1.5 * (c - 1)
        y = size * (3**0.5) * ((r - 1) + (0.5 if c % 2 == 0 else 0.0))
        return x, y
